"""A small dataset of stored matches and the clients that may (or may not) export it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from server.bots.models import BotProfile
from server.matches.models import Match
from server.players.models import Player
from server.research.permissions import RESEARCHER_GROUP
from tests.server.research.helpers import SECRET_EMAIL, SECRET_NAME, SECRET_USERNAME, T0, client_for, store_match


@dataclass
class Dataset:
    people: dict[str, Player]
    matches: dict[str, Match] = field(default_factory=dict)


@pytest.fixture(autouse=True)
def pseudonym_secret_file(settings, tmp_path):
    """Each test its own installation: the pseudonym secret is generated into its own directory."""
    settings.RESEARCH_PSEUDONYM_SECRET = ""
    settings.RESEARCH_PSEUDONYM_SECRET_FILE = str(tmp_path / "secrets" / "research_pseudonym_secret")
    return tmp_path / "secrets" / "research_pseudonym_secret"


@pytest.fixture
def dataset(db) -> Dataset:
    """Six matches covering every pairing, result, status, source and a chance game."""
    person = User.objects.create_user(SECRET_USERNAME, email=SECRET_EMAIL, password="pw")
    # Both agreed to research (nothing of theirs is exported otherwise: test_research_consent.py).
    zeb = Player.objects.create(name=SECRET_NAME, user=person, is_guest=False, consent_research=True)
    ann = Player.objects.create(name="Annika Vogelsang", consent_research=True)
    shallow = BotProfile.objects.get(slug="connect4-shallow")
    medium = BotProfile.objects.get(slug="connect4-medium")
    tess = BotProfile.objects.get(slug="tictactoe-shallow")
    data = Dataset(people={"zeb": zeb, "ann": ann})
    c4_win = [(0, "4"), (1, "3"), (0, "4"), (1, "3"), (0, "4"), (1, "3"), (0, "4")]
    data.matches["hh"] = store_match("connect4", [zeb, ann], c4_win, winner=0)
    bot_wins = [(0, "1"), (1, "3"), (0, "1"), (1, "3"), (0, "2"), (1, "3"), (0, "5"), (1, "3")]
    data.matches["hb_bot_wins"] = store_match("connect4", [zeb, shallow], bot_wins, winner=1)
    data.matches["bb_draw"] = store_match(
        "connect4",
        [shallow, medium],
        [(i % 2, str(1 + i % 7)) for i in range(12)],
        winner=None,
        reason="board full",
        source="selfplay",
        created_at=T0 + timedelta(days=2),
    )
    data.matches["ttt_human_wins"] = store_match(
        "tictactoe",
        [ann, tess],
        [(0, "5"), (1, "1"), (0, "3"), (1, "7"), (0, "4"), (1, "9"), (0, "6")],
        winner=0,
        reason="three in a row",
        created_at=T0 + timedelta(days=4),
    )
    data.matches["dice"] = store_match(
        "backgammon",
        [zeb, ann],
        [(-1, "3-1"), (0, "8/5 6/5"), (-1, "6-4"), (1, "24/18 13/9")],
        status=Match.Status.ACTIVE,
    )
    data.matches["aborted"] = store_match("connect4", [ann, None], [], status=Match.Status.ABORTED)
    return data


@pytest.fixture
def researcher(db) -> APIClient:
    """An API client whose token belongs to an account in the researcher group."""
    user = User.objects.create_user("rita", email="rita@example.org", password="pw")
    user.groups.add(Group.objects.get_or_create(name=RESEARCHER_GROUP)[0])
    return client_for(Player.objects.create(name="Rita", user=user, is_guest=False))

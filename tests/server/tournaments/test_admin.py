"""An admin creates a tournament of the site's in the Django admin and enters house bots."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.bots.models import BotProfile
from server.tournaments.models import Entrant, Tournament
from tests.server.staff import ADMIN, staff_client

pytestmark = pytest.mark.django_db


def form(**changes):
    starts = timezone.localtime(timezone.now() + timedelta(minutes=10))
    return {
        "name": "House cup",
        "kind": "swiss",
        "game": "tictactoe",
        "clock": "1+0",
        "entry": "bots",
        "rated": "",
        "starts_at_0": starts.strftime("%Y-%m-%d"),
        "starts_at_1": starts.strftime("%H:%M:%S"),
        "rounds": "3",
        "minutes": "",
        "max_entrants": "8",
        "entrants-TOTAL_FORMS": "0",
        "entrants-INITIAL_FORMS": "0",
        **changes,
    }


def test_an_admin_creates_a_bots_tournament_with_house_bots():
    client = staff_client()
    bots = list(BotProfile.objects.filter(game="tictactoe", adaptive=False).values_list("pk", flat=True)[:4])
    answer = client.post(f"{ADMIN}tournaments/tournament/add/", form(house_bots=[str(b) for b in bots]))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    tournament = Tournament.objects.get()
    assert tournament.created_by is None and tournament.entry == "bots" and not tournament.rated
    assert set(Entrant.objects.filter(tournament=tournament).values_list("bot_profile_id", flat=True)) == set(bots)


def test_the_admin_refuses_what_the_api_refuses():
    client = staff_client()
    answer = client.post(f"{ADMIN}tournaments/tournament/add/", form(rounds="", minutes="30"))
    assert answer.status_code == 200 and "a Swiss has 1 to 15 rounds" in answer.content.decode()
    assert not Tournament.objects.exists()


def test_house_bots_where_they_do_not_belong_are_refused():
    client = staff_client()
    bot = BotProfile.objects.filter(game="tictactoe").first()
    assert bot is not None
    answer = client.post(f"{ADMIN}tournaments/tournament/add/", form(entry="people", house_bots=[str(bot.pk)]))
    assert answer.status_code == 200 and "never take a person" in answer.content.decode()
    other = BotProfile.objects.exclude(game="tictactoe").first()
    assert other is not None
    answer = client.post(f"{ADMIN}tournaments/tournament/add/", form(house_bots=[str(other.pk)]))
    assert answer.status_code == 200 and "play another game" in answer.content.decode()
    assert not Tournament.objects.exists()

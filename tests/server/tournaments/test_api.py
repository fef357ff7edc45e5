"""The tournaments' HTTP API: list, create, detail, join, withdraw; every refusal with a clear error."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from server.agents.services import bot_account_create
from server.players.models import ApiToken
from server.players.services import player_create_guest_with_token
from server.tournaments.models import Entrant, Tournament
from tests.server.conftest import with_account
from tests.server.tournaments.support import entered, running, tick_at, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_throttles():
    """A fresh database hands out the same player ids again: earlier tests' counts are not this one's."""
    cache.clear()


def client_of(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def person():
    player, token = player_create_guest_with_token()
    with_account(player)
    client = client_of(token)
    client.player = player  # type: ignore[attr-defined]
    return client


def body(**changes):
    return {
        "name": "Friday Swiss",
        "kind": "swiss",
        "game": "connect4",
        "clock": "3+2",
        "starts_at": (timezone.now() + timedelta(minutes=30)).isoformat(),
        "rounds": 5,
        **changes,
    }


def test_a_person_creates_lists_reads_joins_and_withdraws(person):
    made = person.post("/api/tournaments/", body(), format="json")
    assert made.status_code == 201, made.json()
    tid = made.json()["id"]
    assert made.json()["status"] == "scheduled" and made.json()["created_by"] == person.player.name
    assert [t["id"] for t in person.get("/api/tournaments/").json()] == [tid]
    assert person.get("/api/tournaments/?status=running").json() == []
    joined = person.post(f"/api/tournaments/{tid}/join/")
    assert joined.status_code == 200 and joined.json()["name"] == person.player.name
    assert joined.json()["is_ai"] is False
    detail = person.get(f"/api/tournaments/{tid}/").json()
    assert detail["entrants"] == 1 and detail["standings"][0]["entrant"]["name"] == person.player.name
    gone = person.post(f"/api/tournaments/{tid}/withdraw/")
    assert gone.status_code == 200 and gone.json()["withdrawn"] is True and gone.json()["id"] is None
    assert person.post(f"/api/tournaments/{tid}/withdraw/").json()["code"] == "not_entered"


@pytest.mark.parametrize(
    "changes,field",
    [
        ({"kind": "knockout"}, "kind"),
        ({"clock": "7+7"}, "clock"),
        ({"starts_at": "tomorrow"}, "starts_at"),
        ({"max_entrants": 1}, "max_entrants"),
        ({"name": ""}, "name"),
    ],
)
def test_invalid_fields_are_named(person, changes, field):
    response = person.post("/api/tournaments/", body(**changes), format="json")
    assert response.status_code == 400 and field in response.json(), response.json()


@pytest.mark.parametrize(
    "changes,words",
    [
        ({"game": "chinese-checkers"}, "tournaments are for games of two"),
        ({"game": "nope"}, "no game 'nope': one of tictactoe, connect4"),
        ({"rounds": None}, "1 to 15 rounds"),
        ({"rounds": 99}, "1 to 15 rounds"),
        ({"kind": "arena", "rounds": None}, "lasts 1 to 180 minutes"),
        ({"kind": "arena", "rounds": None, "minutes": 500}, "lasts 1 to 180 minutes"),
        ({"kind": "arena", "minutes": 30}, "only a Swiss chooses its rounds"),
        ({"kind": "round_robin", "rounds": None, "max_entrants": 40}, "takes 2 to 16 entrants"),
        ({"starts_at": (timezone.now() - timedelta(hours=1)).isoformat()}, "not in the past"),
        ({"starts_at": (timezone.now() + timedelta(days=90)).isoformat()}, "within 30 days"),
    ],
)
def test_refusals_say_what_is_wrong(person, changes, words):
    response = person.post("/api/tournaments/", body(**changes), format="json")
    assert response.status_code == 400 and response.json()["code"] == "bad_message", response.json()
    assert words in response.json()["detail"]


def test_guests_and_bots_do_not_create(person):
    _, guest_token = player_create_guest_with_token()
    refused = client_of(guest_token).post("/api/tournaments/", body(), format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "entry_refused"
    bot = bot_account_create(person.player, "Reflex")
    bot_client = client_of(ApiToken.issue(bot))
    assert bot_client.post("/api/tournaments/", body(), format="json").status_code == 403
    assert APIClient().post("/api/tournaments/", body(), format="json").status_code in (401, 403)


def test_the_open_tournaments_cap(person):
    for _ in range(2):
        assert person.post("/api/tournaments/", body(), format="json").status_code == 201
    third = person.post("/api/tournaments/", body(), format="json")
    assert third.status_code == 429 and third.json()["code"] == "too_many_tournaments"


def test_a_bot_token_joins_and_withdraws_its_bot(person):
    bot = bot_account_create(person.player, "Reflex")
    bot_client = client_of(ApiToken.issue(bot))
    for_bots = tournament("swiss", entry="bots")
    joined = bot_client.post(f"/api/tournaments/{for_bots.pk}/join/")
    assert joined.status_code == 200 and joined.json()["kind"] == "agent" and joined.json()["is_ai"] is True
    assert Entrant.objects.filter(tournament=for_bots, player=bot).exists()
    gone = bot_client.post(f"/api/tournaments/{for_bots.pk}/withdraw/")
    assert gone.status_code == 200 and gone.json()["withdrawn"] is True
    for_people = tournament("swiss")
    refused = bot_client.post(f"/api/tournaments/{for_people.pk}/join/")
    assert refused.status_code == 403 and refused.json()["code"] == "entry_refused"
    assert "never take a person's place" in refused.json()["detail"]


def test_joining_a_started_or_unknown_tournament(person):
    t = tournament("swiss")
    tick_at()  # no entrants: cancelled at its start
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    closed = person.post(f"/api/tournaments/{t.pk}/join/")
    assert closed.status_code == 409 and closed.json()["code"] == "tournament_closed"
    missing = person.post("/api/tournaments/999999/join/")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_tournament"
    assert person.get("/api/tournaments/999999/").status_code == 404
    assert person.get("/api/tournaments/?status=nope").status_code == 400


def test_the_schema_lists_the_endpoints(person):
    schema = person.get("/api/schema/?format=json").json()
    for path in ("/api/tournaments/", "/api/tournaments/{tournament_id}/", "/api/tournaments/{tournament_id}/join/"):
        assert path in schema["paths"], path


def test_joining_and_leaving_is_throttled(person):
    t = tournament("swiss")
    answers = [person.post(f"/api/tournaments/{t.pk}/{verb}/").status_code for verb in ("join", "withdraw") * 16]
    assert answers[:30] == [200, 200] * 15 and answers[30] == 429, answers


def test_a_tournament_game_s_room_names_its_tournament_and_round(client):
    t, _ = entered("swiss", 2)
    tick_at()
    (pairing,) = running(t)
    page = client.get(f"/matches/{pairing.match_id}/").content.decode()
    assert f'<a href="/tournaments/{t.pk}/">{t.name}</a>' in page
    assert "round 1 of 3" in page
    other = client.get("/matches/999999/").content.decode()  # not a tournament's: nothing said
    assert 'data-testid="match-tournament"' not in other

"""Who finished where (a result's places) and seats named as each game names them, on the API and the wire."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.base import Outcome
from server.matches import services
from server.matches.models import Match, MatchEvent
from server.matches.selectors import match_summary_json
from server.players.services import player_create_guest

HUMAN = services.SeatRequest("human")

pytestmark = pytest.mark.django_db


def three_people() -> Match:
    people = [player_create_guest(name) for name in ("Ana", "Ben", "Cyd")]
    match = services.match_create("chinese-checkers", [HUMAN, HUMAN, HUMAN], people[0])
    for person in people[1:]:
        services.match_join(match.pk, person)
    return match


def test_a_resignation_among_three_is_no_draw_the_others_share_first():
    match = three_people()
    services.match_resign(match.pk, 2)
    body = APIClient().get(f"/api/matches/{match.pk}/").json()
    result = body["result"]
    assert result["winner"] is None and result["reason"] == "resigned"
    assert result["places"] == [1, 1, 3] and result["ranking"] == [0, 1, 2]
    game_over = MatchEvent.objects.filter(match_id=match.pk, frame__type="game_over").get()
    assert game_over.frame["result"]["places"] == [1, 1, 3]  # the frame every socket gets
    listed = APIClient().get("/api/matches/?status=finished&game=chinese-checkers").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert next(m for m in rows if m["id"] == match.pk)["result"]["places"] == [1, 1, 3]


def test_places_follow_the_returns():
    assert Outcome((1.0, -1.0), 0, "four in a row").places == (1, 2)
    assert Outcome((0.0, 0.0), None, "board full").places == (1, 1)
    assert Outcome((1.0, 0.0, -1.0), 0, "target triangle filled").places == (1, 2, 3)
    assert Outcome((1.0, -0.5, -0.5), 0, "turn limit").places == (1, 2, 2)
    assert Outcome((), None, "nobody joined").places == ()


def test_places_are_read_from_the_stored_returns_which_stay_as_they_were():
    match = three_people()
    services.match_resign(match.pk, 0)
    stored = Match.objects.get(pk=match.pk).result
    assert "places" not in stored  # exports carry the stored result as it always was
    assert match_summary_json(Match.objects.get(pk=match.pk))["result"]["places"] == [3, 1, 1]


def test_seats_carry_the_games_own_names(alice, bob):
    match = services.match_create("chess", [HUMAN, HUMAN], alice)
    waiting = APIClient().get(f"/api/matches/{match.pk}/").json()
    assert [s["name"] for s in waiting["seats"]] == ["white", "black"]
    services.match_join(match.pk, bob)
    seat_frame = MatchEvent.objects.filter(match_id=match.pk, frame__type="seat").get()
    assert seat_frame.frame["seat"]["name"] == "black"
    three = APIClient().get(f"/api/matches/{three_people().pk}/").json()
    assert [s["name"] for s in three["seats"]] == ["blue (dot)", "orange (diamond)", "purple (square)"]
    catalogue = {g["id"]: g for g in APIClient().get("/api/games/").json()}
    assert [s["name"] for s in catalogue["tictactoe"]["seats"]] == ["X", "O"]


def test_the_players_history_says_where_they_finished_among_three():
    match = three_people()
    services.match_resign(match.pk, 2)
    first = APIClient().get("/api/players/Ana/matches/").json()["results"][0]
    assert first["id"] == match.pk and first["place"] == {"place": 1, "shared": True, "of": 3}
    last = APIClient().get("/api/players/Cyd/matches/").json()["results"][0]
    assert last["place"] == {"place": 3, "shared": False, "of": 3}
    page = APIClient().get("/players/Cyd/").content.decode()
    assert "Finished 3rd of 3" in page

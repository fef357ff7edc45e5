"""The ratings API and the leaderboards: who is listed, and what a client gets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from server.bots.models import BotProfile
from server.bots.seed import seed_profiles
from server.matches import services
from server.players.services import player_create_guest
from server.ratings.models import PlayerRating
from server.ratings.selectors import leaderboard
from tests.server.conftest import with_account

HUMAN = {"kind": "human"}
OPENING = ["5", "1", "9", "3"]  # two moves each: enough for an ending to be rated (RATING_MIN_PLIES)


def play_opening(match_id: int) -> None:
    for ply, cell in enumerate(OPENING):
        services.submit_move(match_id, ply % 2, cell, ply)


def established(name: str, rating: float, game="connect4", days_ago=1, deviation=60.0, guest=False):
    player = player_create_guest(name) if guest else with_account(player_create_guest(name))
    when = timezone.now() - timedelta(days=days_ago)
    PlayerRating.objects.create(player=player, game=game, rating=rating, deviation=deviation, games=30, updated_at=when)
    return player


@pytest.mark.django_db
def test_the_leaderboard_lists_active_people_established_first_then_provisional(settings):
    settings.LEADERBOARD_ACTIVE_DAYS = 30
    established("Strong", 1900)
    established("Steady", 1700)
    established("Provisional", 2100, deviation=200)  # not established yet
    established("Gone", 2000, days_ago=45)  # not active
    established("Othergame", 2200, game="othello")
    established("FarmedGuest", 2300, guest=True)  # rated as a guest before rated games needed accounts
    body = APIClient().get("/api/leaderboards/connect4/").json()
    assert body["active_days"] == 30
    # The provisional rating is listed, marked, after the established ones however high it is.
    assert [(r["rank"], r["player"]["name"], r["provisional"]) for r in body["leaders"]] == [
        (1, "Strong", False),
        (2, "Steady", False),
        (3, "Provisional", True),
    ]
    settings.LEADERBOARD_ACTIVE_DAYS = 60
    assert [r["player"]["name"] for r in leaderboard("connect4")] == ["Gone", "Strong", "Steady", "Provisional"]
    assert APIClient().get("/api/leaderboards/nosuchgame/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_rated_match_through_the_api_shows_in_the_players_ratings(token_client, bob):
    created = token_client.post(
        "/api/matches/", {"game": "tictactoe", "seats": [HUMAN, HUMAN], "rated": True}, format="json"
    )
    assert created.status_code == 201 and created.json()["rated"] is True
    match_id = created.json()["id"]
    services.match_join(match_id, bob)
    play_opening(match_id)
    services.match_resign(match_id, 1)
    body = APIClient().get(f"/api/players/{token_client.player.name}/ratings/").json()
    assert body["player"]["name"] == token_client.player.name and body["provisional_deviation"] == 110
    [entry] = body["ratings"]
    assert entry["game"] == "tictactoe" and entry["rating"] > 1500 and entry["provisional"] is True
    [point] = body["history"]["tictactoe"]
    assert point["rating"] == entry["rating"] and point["deviation"] == entry["deviation"] and point["at"]
    assert APIClient().get("/api/players/Nobody%20Here/ratings/").status_code == 404


@pytest.mark.django_db
def test_matches_are_casual_unless_asked_and_rated_is_refused_with_bots(token_client, settings):
    casual = token_client.post("/api/matches/", {"game": "tictactoe", "seats": [HUMAN, HUMAN]}, format="json")
    assert casual.json()["rated"] is False
    bot = {"kind": "bot", "profile": "tictactoe-random"}
    refused = token_client.post(
        "/api/matches/", {"game": "tictactoe", "seats": [HUMAN, bot], "rated": True}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["code"] == "not_ratable"
    hints = token_client.post(
        "/api/matches/", {"game": "tictactoe", "seats": [HUMAN, bot], "rated": True, "hints": True}, format="json"
    )
    assert hints.status_code == 400 and hints.json()["code"] == "not_ratable"
    settings.BOT_GAMES_RATED_FOR_HUMANS = True
    hints = token_client.post(
        "/api/matches/", {"game": "tictactoe", "seats": [HUMAN, bot], "rated": True, "hints": True}, format="json"
    )
    assert hints.status_code == 400 and hints.json()["code"] == "not_ratable"


@pytest.mark.django_db
def test_the_leaderboards_page_renders_every_game_without_scripts(client):
    established("Strong", 1900)
    html = client.get("/leaderboards/").content.decode()
    assert 'id="board-connect4"' in html and 'id="board-othello"' in html
    assert "Strong" in html and "1900" in html and 'href="/players/Strong/"' in html
    assert 'href="/leaderboards/"' in client.get("/").content.decode()  # linked from the header


@pytest.mark.django_db(transaction=True)
def test_a_match_shows_its_peoples_ratings_and_after_a_rated_end_what_it_changed(token_client, bob):
    established("Bobs rival", 1800)  # someone else's rating is not in this match
    PlayerRating.objects.create(player=bob, game="tictactoe", rating=1720, deviation=80, games=40)
    rated = {"game": "tictactoe", "seats": [HUMAN, HUMAN], "rated": True}
    created = token_client.post("/api/matches/", rated, format="json")
    match_id = created.json()["id"]
    services.match_join(match_id, bob)
    during = APIClient().get(f"/api/matches/{match_id}/ratings/").json()
    assert during == {
        "game": "tictactoe",
        "rated": True,
        "seats": [
            {"seat": 0, "kind": "human", "rating": 1500.0, "deviation": 350.0, "provisional": True, "change": None},
            {"seat": 1, "kind": "human", "rating": 1720.0, "deviation": 80.0, "provisional": False, "change": None},
        ],
    }
    play_opening(match_id)
    services.match_resign(match_id, 1)
    alice, bob_after = APIClient().get(f"/api/matches/{match_id}/ratings/").json()["seats"]
    assert alice["change"]["before"] == 1500 and alice["change"]["after"] == alice["rating"] > 1500
    assert alice["change"]["provisional_before"] and alice["change"]["provisional_after"]
    assert bob_after["change"]["before"] == 1720 and bob_after["change"]["after"] == bob_after["rating"] < 1720
    assert not bob_after["change"]["provisional_after"]


@pytest.mark.django_db(transaction=True)
def test_a_casual_match_changes_nothing_and_a_bot_is_listed_with_its_profiles_rating(token_client):
    seed_profiles(BotProfile)  # with their measured ratings: a database fresh from the migrations has none
    bot = {"kind": "bot", "profile": "tictactoe-random"}
    created = token_client.post("/api/matches/", {"game": "tictactoe", "seats": [HUMAN, bot]}, format="json")
    match_id = created.json()["id"]
    services.match_resign(match_id, 0)
    body = APIClient().get(f"/api/matches/{match_id}/ratings/").json()
    assert body["rated"] is False and [(s["seat"], s["kind"]) for s in body["seats"]] == [(0, "human"), (1, "bot")]
    assert body["seats"][0]["change"] is None and body["seats"][1]["change"] is None
    random_mover = APIClient().get("/api/bots/tictactoe-random/").json()
    assert (body["seats"][1]["rating"], body["seats"][1]["deviation"]) == (
        random_mover["rating"],
        random_mover["deviation"],
    )
    assert APIClient().get("/api/matches/999999/ratings/").status_code == 404
    assert APIClient().get("/api/matches/99999999999999999999999/ratings/").status_code == 404

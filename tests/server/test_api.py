"""HTTP API (docs/design.md §5): guests and tokens, catalogue, bots, matches; every bad input a clear 4xx."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from server.matches.models import Match

pytestmark = pytest.mark.django_db


def test_a_guest_gets_a_token_that_authenticates():
    client = APIClient()
    made = client.post("/api/players/guest/", {"name": "Zoe"}, format="json")
    assert made.status_code == 201 and made.json()["player"]["name"] == "Zoe" and made.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {made.json()['token']}")
    me = client.get("/api/players/me/").json()
    assert me["name"] == "Zoe" and me["kind"] == "human" and me["is_ai"] is False


def test_bad_guest_names_and_tokens_are_refused():
    client = APIClient()
    assert client.post("/api/players/guest/", {"name": "<script>"}, format="json").status_code == 400
    client.credentials(HTTP_AUTHORIZATION="Bearer nope")
    assert client.get("/api/players/me/").status_code == 401


def test_catalogue_and_bots_disclose_ai():
    games = {g["id"]: g for g in APIClient().get("/api/games/").json()}
    assert games["connect4"] == {
        "id": "connect4",
        "name": "Connect Four",
        "num_players": 2,
        "has_chance": False,
        "board": "connect4.js",
        "stylesheet": "games/connect4.css",
        "seats": [
            {"index": 0, "name": "blue (dot)", "colour": "blue", "mark": "disc"},
            {"index": 1, "name": "orange (diamond)", "colour": "orange", "mark": "disc"},
        ],
        "options": [],
        "resignation_levels": [],
    }
    assert games["backgammon"]["resignation_levels"] == ["single", "gammon", "backgammon"]
    assert [s["name"] for s in games["othello"]["seats"]] == ["black", "white"]
    bots = APIClient().get("/api/bots/?game=connect4").json()
    assert len(bots) >= 3 and all(b["is_ai"] is True and b["game"] == "connect4" for b in bots)
    assert {"slug", "name", "level", "algorithm", "time_budget_ms", "rating"} <= set(bots[0])


def test_create_join_and_list_a_human_match(token_client):
    made = token_client.post(
        "/api/matches/", {"game": "tictactoe", "seats": [{"kind": "human"}, {"kind": "human"}]}, format="json"
    )
    assert made.status_code == 201, made.json()
    match = made.json()
    assert match["status"] == "waiting" and match["seats"][0]["player"]["name"] == token_client.player.name
    assert match["seats"][1]["player"] is None
    listed = APIClient().get("/api/matches/?status=open").json()
    assert [m["id"] for m in listed] == [match["id"]]
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {other.post('/api/players/guest/').json()['token']}")
    joined = other.post(f"/api/matches/{match['id']}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    again = other.post(f"/api/matches/{match['id']}/join/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "seat_taken"
    assert APIClient().get(f"/api/matches/{match['id']}/").json()["legal_moves"] == list("123456789")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "chesss", "seats": [{"kind": "human"}, {"kind": "human"}]}, "game"),
        ({"game": "connect4", "seats": [{"kind": "human"}]}, "seats"),
        ({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "robot"}]}, "seats"),
        ({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "bot"}]}, "seats"),
        ({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "bot", "profile": "nobody"}]}, "seats"),
        ({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "bot", "profile": "tictactoe-random"}]}, "seats"),
        ({"game": "connect4"}, "seats"),
        ({"seats": "everyone"}, "game"),
    ],
)
def test_bad_match_requests_get_field_errors(token_client, body, field):
    response = token_client.post("/api/matches/", body, format="json")
    assert response.status_code == 400 and field in response.json()
    assert not Match.objects.exists()


def test_anonymous_clients_cannot_create_and_unknown_matches_are_404():
    client = APIClient()
    body = {"game": "connect4", "seats": [{"kind": "human"}, {"kind": "human"}]}
    assert client.post("/api/matches/", body, format="json").status_code in (401, 403)
    assert client.get("/api/matches/424242/").status_code == 404
    assert client.get("/api/matches/?status=bogus").status_code == 400


def test_browser_session_gets_a_guest_and_needs_csrf():
    client = APIClient(enforce_csrf_checks=True)
    assert client.get("/").status_code == 200
    body = {"game": "connect4", "seats": [{"kind": "human"}, {"kind": "human"}]}
    assert client.post("/api/matches/", body, format="json").status_code == 403
    csrf = client.cookies["csrftoken"].value
    made = client.post("/api/matches/", body, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert made.status_code == 201


def test_openapi_schema_is_served():
    response = APIClient().get("/api/schema/")
    assert response.status_code == 200 and b"/api/matches/" in response.content


def test_a_bot_explains_how_it_plays_in_plain_words():
    data = APIClient().get("/api/bots/connect4-shallow/").json()
    assert data["is_ai"] is True and data["level_name"] == "Beginner"
    text = " ".join(data["how_it_plays"])
    assert "is an AI, not a person" in text and "alpha-beta" in text and "2 plies deep" in text
    assert "50% of its moves" in text and "not been measured" in text
    assert data["record"] == {"games": 0, "human_games": 0, "human_score": None}
    assert APIClient().get("/api/bots/no-such-bot/").status_code == 404
    nova = " ".join(APIClient().get("/api/bots/tictactoe-perfect/").json()["how_it_plays"])
    assert "where you are most likely to go wrong" in nova
    dice = " ".join(APIClient().get("/api/bots/backgammon-beginner/").json()["how_it_plays"])
    assert "at most 1 ply deep" in dice and "slips whenever it can" in dice  # its slip rate is 1
    assert "nearly at random, the weaker as often as the closer" in dice  # its temperature spreads them
    checker = " ".join(APIClient().get("/api/bots/backgammon-casual/").json()["how_it_plays"])
    assert "slips on about 88% of its moves" in checker and "nearly at random" not in checker


def test_a_chess_bot_says_when_it_plays_from_its_book_and_tables():
    master = " ".join(APIClient().get("/api/bots/chess-master/").json()["how_it_plays"])
    assert "opening book" in master and "plays perfectly" in master
    advanced = " ".join(APIClient().get("/api/bots/chess-advanced/").json()["how_it_plays"])
    assert "opening book" in advanced and "plays perfectly" not in advanced
    intermediate = " ".join(APIClient().get("/api/bots/chess-intermediate/").json()["how_it_plays"])
    assert "opening book" not in intermediate
    # Connect Four's book is one proven move, not a book of practice: no such words there.
    assert "opening book" not in " ".join(APIClient().get("/api/bots/connect4-master/").json()["how_it_plays"])


def test_player_me_lists_only_your_matches(token_client):
    body = {"game": "tictactoe", "seats": [{"kind": "human"}, {"kind": "human"}]}
    mine = token_client.post("/api/matches/", body, format="json").json()
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {other.post('/api/players/guest/').json()['token']}")
    other.post("/api/matches/", body, format="json")
    assert [m["id"] for m in token_client.get("/api/matches/?player=me").json()] == [mine["id"]]
    assert token_client.get("/api/matches/?player=42").status_code == 400
    assert APIClient().get("/api/matches/?player=me").status_code in (401, 403)


def test_positions_give_the_board_after_every_ply(token_client):
    body = {"game": "othello", "seats": [{"kind": "human"}, {"kind": "human"}]}
    match = token_client.post("/api/matches/", body, format="json").json()
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {other.post('/api/players/guest/').json()['token']}")
    other.post(f"/api/matches/{match['id']}/join/", {}, format="json")
    from server.matches import services

    services.submit_move(match["id"], 0, "f5", 0)
    data = APIClient().get(f"/api/matches/{match['id']}/positions/").json()
    assert data["ply"] == 1 and len(data["positions"]) == 2
    assert data["positions"][0] == match["state"]
    assert data["positions"][1] == APIClient().get(f"/api/matches/{match['id']}/").json()["state"]
    assert APIClient().get("/api/matches/999999/positions/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/bots/", "/api/matches/"])
def test_a_game_filter_names_a_known_game(path):
    response = APIClient().get(path, {"game": "nope"})
    assert response.status_code == 400 and "connect4" in response.json()["game"][0]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/bots/", "/api/matches/"])
@pytest.mark.parametrize("game", ["connect4\x00", "\x00"])
def test_a_nul_in_a_game_filter_never_reaches_the_database(path, game):
    # PostgreSQL refuses NUL in text; server/http/refuse_nul.py answers before any view.
    response = APIClient().get(path, {"game": game})
    assert response.status_code == 400 and response.json()["code"] == "bad_request"

"""Profiles and match histories: who a name is, results per game and per bot, filters, pages, 404s."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from server.bots.models import BotProfile
from server.matches import services
from server.matches.models import Match
from server.players import accounts, history
from server.players.models import Player
from tests.server.conftest import human_match

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-enough-secret-9"


def tictactoe_won_by_first(first: Player, second: Player) -> Match:
    match = human_match("tictactoe", first, second)
    for ply, move in enumerate(["1", "4", "2", "5", "3"]):
        services.submit_move(match.pk, ply % 2, move, ply)
    return Match.objects.get(pk=match.pk)


def resigned(match: Match, seat: int) -> Match:
    services.match_resign(match.pk, seat)
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def zoe(db) -> Player:
    accounts.account_create("Zoe", "zoe@example.org", PASSWORD)
    return Player.objects.get(name="Zoe")


@pytest.fixture
def played(zoe, bob):
    """Zoe: a tic-tac-toe win and loss against Bob, a Connect Four match running, one lost to a bot."""
    won = tictactoe_won_by_first(zoe, bob)
    lost = tictactoe_won_by_first(bob, zoe)
    running = human_match("connect4", zoe, bob)
    bot = BotProfile.objects.get(slug="tictactoe-random")
    against_bot = services.match_create(
        "tictactoe", [services.SeatRequest("human"), services.SeatRequest("bot", bot)], zoe
    )
    against_bot = resigned(against_bot, 0)
    return {"won": won, "lost": lost, "running": running, "bot": against_bot}


def test_the_profile_counts_results_per_game_and_per_bot(played):
    profile = APIClient().get("/api/players/zoe/").json()  # any case finds an account
    assert profile["name"] == "Zoe" and profile["is_ai"] is False and profile["kind"] == "human"
    assert profile["is_guest"] is False and profile["joined"]
    games = {row["game"]: row for row in profile["games"]}
    assert games["tictactoe"] == {"game": "tictactoe", "played": 3, "wins": 1, "draws": 0, "losses": 2}
    assert games["connect4"] == {"game": "connect4", "played": 0, "wins": 0, "draws": 0, "losses": 0}
    assert profile["bots"] == [
        {"slug": "tictactoe-random", "name": profile["bots"][0]["name"], "game": "tictactoe", "wins": 0, "draws": 0,
         "losses": 1}
    ]  # fmt: skip


def test_the_history_lists_every_match_newest_first_with_links(played):
    page = APIClient().get("/api/players/Zoe/matches/").json()
    assert page["count"] == 4 and page["page"] == 1 and page["pages"] == 1
    ids = [entry["id"] for entry in page["results"]]
    assert ids == sorted(ids, reverse=True)
    running = next(e for e in page["results"] if e["id"] == played["running"].pk)
    assert running["result"] is None and running["status"] == "active"
    assert running["replay_url"] == f"/matches/{played['running'].pk}/"
    assert running["analysis_url"] == f"/matches/{played['running'].pk}/analysis/"
    assert [o["name"] for o in running["opponents"]] == ["Bob"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"result": "win"}, ["won"]),
        ({"result": "loss"}, ["lost", "bot"]),
        ({"result": "draw"}, []),
        ({"game": "connect4"}, ["running"]),
        ({"opponent": "bob"}, ["won", "lost", "running"]),
        ({"opponent": "tictactoe-random"}, ["bot"]),
        ({"opponent": "Zoe"}, []),  # herself is nobody's opponent
        ({"game": "tictactoe", "result": "loss", "opponent": "Bob"}, ["lost"]),
    ],
)
def test_the_history_filters_by_game_opponent_and_result(played, query, expected):
    page = APIClient().get("/api/players/Zoe/matches/", query).json()
    assert {e["id"] for e in page["results"]} == {played[k].pk for k in expected}


def test_results_are_seen_from_the_players_side(played, bob):
    bobs = APIClient().get("/api/players/Bob/matches/", {"result": "win"}).json()
    assert [e["id"] for e in bobs["results"]] == [played["lost"].pk]


def test_a_draw_is_a_draw(zoe, bob):
    match = human_match("tictactoe", zoe, bob)
    for ply, move in enumerate(["1", "2", "3", "5", "4", "6", "8", "7", "9"]):
        services.submit_move(match.pk, ply % 2, move, ply)
    assert Match.objects.get(pk=match.pk).result["winner"] is None
    page = APIClient().get("/api/players/Zoe/matches/", {"result": "draw"}).json()
    assert [e["id"] for e in page["results"]] == [match.pk]


def test_the_history_is_paginated(zoe, bob):
    for _ in range(history.HISTORY_PAGE_SIZE + 3):
        human_match("tictactoe", zoe)
    client = APIClient()
    first = client.get("/api/players/Zoe/matches/").json()
    second = client.get("/api/players/Zoe/matches/", {"page": 2}).json()
    assert (first["count"], first["pages"], len(first["results"]), len(second["results"])) == (23, 2, 20, 3)
    assert not {e["id"] for e in first["results"]} & {e["id"] for e in second["results"]}
    assert client.get("/api/players/Zoe/matches/", {"page": 3}).status_code == 404
    assert client.get("/api/players/Zoe/matches/", {"page": "x"}).status_code == 400
    assert client.get("/api/players/Zoe/matches/", {"game": "go"}).status_code == 400
    assert client.get("/api/players/Zoe/matches/", {"result": "won"}).status_code == 400


def test_unknown_names_are_404s_in_the_api_and_the_page(client, zoe):
    assert APIClient().get("/api/players/Nobody/").status_code == 404
    assert APIClient().get("/api/players/Nobody/matches/").status_code == 404
    page = client.get("/players/Nobody/")
    assert page.status_code == 404 and "Not found" in page.content.decode()


def test_a_guest_has_a_profile_by_its_exact_name(alice, client):
    assert APIClient().get("/api/players/Alice/").json()["is_guest"] is True
    assert APIClient().get("/api/players/alice/").status_code == 404  # guests' names are exact
    assert client.get("/players/Alice/").status_code == 200


def test_an_account_goes_before_a_guest_of_the_same_name(alice, db):
    accounts.account_create("Alice", "alice@example.org", PASSWORD)
    assert APIClient().get("/api/players/Alice/").json()["is_guest"] is False


def test_the_profile_page_shows_results_history_links_and_the_ratings_section(client, played):
    html = client.get("/players/Zoe/").content.decode()
    assert '<section id="player-ratings" data-player="Zoe" aria-label="Ratings"></section>' in html
    for match in played.values():
        assert f'href="/matches/{match.pk}/"' in html
    assert f'href="/matches/{played["won"].pk}/analysis/"' in html
    assert 'href="/bots/tictactoe-random/"' in html and "AI" in html
    filtered = client.get("/players/Zoe/", {"result": "win"}).content.decode()
    assert f'data-match="{played["won"].pk}"' in filtered and f'data-match="{played["lost"].pk}"' not in filtered


def test_a_bots_page_stays_its_own(client):
    assert client.get("/bots/tictactoe-random/").status_code == 200


def test_the_answers_are_what_the_schema_declares(played, zoe):
    from tests.server.test_schema import Contract

    human_match("connect4", zoe)  # waiting: an open seat, no opponent yet

    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    contract = Contract(schema)
    client = APIClient()
    contract.check(client.get("/api/players/Zoe/"), "/api/players/{name}/", "get")
    contract.check(client.get("/api/players/Nobody/"), "/api/players/{name}/", "get")  # 404
    history_path = "/api/players/{name}/matches/"
    contract.check(client.get("/api/players/Zoe/matches/"), history_path, "get")
    contract.check(client.get("/api/players/Zoe/matches/", {"result": "loss"}), history_path, "get")
    contract.check(client.get("/api/players/Zoe/matches/", {"page": 0}), history_path, "get")  # 400
    contract.check(client.get("/api/players/Zoe/matches/", {"page": 9}), history_path, "get")  # 404
    contract.check(client.get("/api/players/Nobody/matches/"), history_path, "get")  # 404

"""A match's game options (backgammon's cube, Jacoby rule, match length): chosen at creation over
the API, checked against the game's declared options, stored, applied to every rules call, shown in
the match object and carried by the exports; a money game with the cube played to its points."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from server.matches import services
from server.matches.models import Match
from server.players.models import Player
from server.players.services import player_create_guest_with_token
from server.research.filters import ExportFilters
from server.research.formats import game_records

pytestmark = pytest.mark.django_db

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def create(client: APIClient, options: object, game: str = "backgammon"):
    return client.post("/api/matches/", {"game": game, "seats": HUMANS, "options": options}, format="json")


def test_the_catalogue_lists_each_games_options():
    games = {g["id"]: g for g in APIClient().get("/api/games/").json()}
    assert [o["name"] for o in games["backgammon"]["options"]] == ["cube", "jacoby", "match_to"]
    match_to = games["backgammon"]["options"][2]
    assert match_to["kind"] == "int" and match_to["low"] == 0 and match_to["high"] == 25
    assert games["connect4"]["options"] == []


def test_a_match_stores_its_options_and_shows_them(token_client):
    made = create(token_client, {"match_to": 5})
    assert made.status_code == 201, made.json()
    match = made.json()
    # Every declared option with its value: a match to N is played with the cube.
    assert match["options"] == {"cube": True, "jacoby": False, "match_to": 5}
    assert Match.objects.get(pk=match["id"]).options == match["options"]
    again = APIClient().get(f"/api/matches/{match['id']}/").json()
    assert again["options"] == match["options"] and again["state"]["match_to"] == 5
    listed = APIClient().get("/api/matches/?status=open").json()
    assert listed[0]["options"] == match["options"]


def test_a_game_without_options_stores_none(token_client):
    made = token_client.post("/api/matches/", {"game": "connect4", "seats": HUMANS}, format="json")
    assert made.status_code == 201 and made.json()["options"] == {}


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"beaver": True}, "no option 'beaver'"),
        ({"cube": "yes"}, "'cube' is true or false"),
        ({"match_to": 99}, "'match_to' is a whole number from 0 to 25"),
        ({"match_to": 2.5}, "'match_to' is a whole number"),
        ({"jacoby": True, "match_to": 7}, "Jacoby rule is an option of money games"),
        ({"jacoby": True}, "Jacoby rule is an option of money games"),
        (["cube"], "Expected a dictionary"),
    ],
)
def test_invalid_options_are_a_clear_400(token_client, options, says):
    refused = create(token_client, options)
    assert refused.status_code == 400
    assert says in str(refused.json()["options"])
    assert not Match.objects.exists()


def test_options_for_a_game_that_has_none_are_refused(token_client):
    refused = create(token_client, {"cube": True}, game="connect4")
    assert refused.status_code == 400 and "no option 'cube'" in str(refused.json()["options"])


def play_until_cube_decision(match: Match) -> Match:
    """Play the first legal play of each turn until a seat may double (the dice are the server's)."""
    for _ in range(6):
        match.refresh_from_db()
        moves = match.rules().legal_moves(match.rules().from_json(match.state))
        if "double" in moves:
            return match
        services.submit_move(match.pk, match.to_move, moves[0], match.ply)
    raise AssertionError("no cube decision came")


def test_a_money_game_with_the_cube_doubled_taken_redoubled_and_dropped(token_client):
    bob, _ = player_create_guest_with_token("Bob")
    match_id = create(token_client, {"cube": True, "jacoby": True}).json()["id"]
    services.match_join(match_id, bob)
    match = play_until_cube_decision(Match.objects.get(pk=match_id))
    doubler = match.to_move
    shown = APIClient().get(f"/api/matches/{match_id}/").json()
    assert shown["legal_moves"] == ["double", "roll"] and shown["state"]["cube"]["owner"] is None
    services.submit_move(match_id, doubler, "double", match.ply)
    match.refresh_from_db()
    assert match.to_move == 1 - doubler
    assert APIClient().get(f"/api/matches/{match_id}/").json()["legal_moves"] == ["take", "drop"]
    services.submit_move(match_id, 1 - doubler, "take", match.ply)
    match.refresh_from_db()
    assert match.state["cube"]["value"] == 2 and match.state["cube"]["owner"] == 1 - doubler
    # The taker owns the cube: the doubler plays on and may not double again; the taker may redouble.
    match = play_until_cube_decision(match)
    assert match.to_move == 1 - doubler
    services.submit_move(match_id, 1 - doubler, "double", match.ply)
    match.refresh_from_db()
    services.submit_move(match_id, doubler, "drop", match.ply)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    result = APIClient().get(f"/api/matches/{match_id}/").json()["result"]
    assert result["winner"] == 1 - doubler and result["reason"] == "double dropped"
    points = [0, 0]
    points[1 - doubler], points[doubler] = 2, -2  # the cube's value before the dropped redouble
    assert result["points"] == points
    moves = [m["move"] for m in APIClient().get(f"/api/matches/{match_id}/").json()["moves"]]
    assert [m for m in moves if m in ("double", "take", "drop")] == ["double", "take", "double", "drop"]
    Player.objects.update(consent_research=True)  # both people agreed to research exports
    exported = next(game_records(ExportFilters()))
    assert exported["variant"] == {"cube": True, "jacoby": True, "match_to": 0}
    assert exported["result"]["points"] == points
    assert [m["move"] for m in exported["moves"] if m["move"] in ("double", "take", "drop")] == [
        "double", "take", "double", "drop",
    ]  # fmt: skip

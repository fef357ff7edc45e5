"""A match's record through the server: each game writes its own (`Game.match_record`), the server names none."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from server.matches import services
from server.matches.models import Match
from server.players.services import player_create_guest_with_token
from tests.server.conftest import human_match

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def play(match: Match, moves: list[str]) -> None:
    for move in moves:
        match.refresh_from_db()
        services.submit_move(match.pk, match.to_move, move, match.ply)


def test_a_game_without_a_notation_downloads_its_plain_record(db):
    (alice, token), (bob, _) = player_create_guest_with_token("Alice"), player_create_guest_with_token("Bob")
    match = human_match("connect4", alice, bob)
    play(match, ["4", "4", "5", "5", "6", "6", "7"])
    answer = client_for(token).get(f"/api/matches/{match.pk}/record/")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/plain; charset=utf-8"
    assert answer["Content-Disposition"] == f'attachment; filename="plyground-{match.pk}.txt"'
    lines = answer.content.decode().splitlines()
    assert lines[:4] == ["Game: Connect Four", "Event: Plyground casual game", f"Site: {tags_site(match)}", lines[3]]
    assert lines[4:9] == ["blue (dot): Alice", "orange (diamond): Bob", "Result: blue (dot) wins",
                          "Ending: four in a row", ""]  # fmt: skip
    assert lines[-4:] == ["1. 4 4", "2. 5 5", "3. 6 6", "4. 7"]


def tags_site(match: Match) -> str:
    return f"http://testserver/matches/{match.pk}/"


def test_the_pgn_address_keeps_to_pgn(db):
    (alice, token), (bob, _) = player_create_guest_with_token("Alice"), player_create_guest_with_token("Bob")
    match = human_match("connect4", alice, bob)
    answer = client_for(token).get(f"/api/matches/{match.pk}/pgn/")
    assert answer.status_code == 400 and answer.json()["code"] == "no_record"
    chess_match = human_match("chess", alice, bob)
    play(chess_match, ["f2f3", "e7e5", "g2g4", "d8h4"])
    for address in ("pgn", "record"):
        answer = client_for(token).get(f"/api/matches/{chess_match.pk}/{address}/")
        assert answer.status_code == 200 and answer["Content-Type"] == "application/x-chess-pgn; charset=utf-8"
        assert "2. g4 Qh4# { checkmate } 0-1" in answer.content.decode()


def test_a_record_of_a_missing_match_is_not_found(token_client):
    answer = token_client.get("/api/matches/999999/record/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"

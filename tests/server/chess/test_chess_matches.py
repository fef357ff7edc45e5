"""Chess through the server: SAN beside each move, draw claims, PGN downloads, bot games (docs/wire.md)."""

from __future__ import annotations

import csv
import io
import json
import random

import chess.pgn
import jsonschema
import pytest
from rest_framework.test import APIClient

from server.bots.models import BotProfile
from server.matches import selectors, services
from server.matches.errors import GameOver, IllegalMoveError, NoDrawToClaim, NotYourTurn
from server.matches.models import Match, MatchEvent, Move
from server.players.models import Player
from server.players.services import player_create_guest_with_token
from server.research.filters import ExportFilters
from server.research.formats import csv_chunks, game_records
from server.research.notation import standard_notation
from server.research.selectors import MOVE_ROW_COLUMNS, match_rows
from tests.server.conftest import human_match
from tests.support import ROOT

pytestmark = pytest.mark.django_db(transaction=True)

KNIGHT_SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"]
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]
FOOLS_MATE_FENS = [  # the position before each move of FOOLS_MATE
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
]
EXPORT_SCHEMA = jsonschema.Draft202012Validator(json.loads((ROOT / "docs" / "exports.schema.json").read_text()))


def client_for(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def people():
    """A chess match between two guests with tokens: (match, Alice's client, Bob's client)."""
    (alice, alice_token), (bob, bob_token) = (
        player_create_guest_with_token("Alice"),
        player_create_guest_with_token("Bob"),
    )
    return human_match("chess", alice, bob), client_for(alice_token), client_for(bob_token)


def play(match: Match, moves: list[str]) -> None:
    for move in moves:
        match.refresh_from_db()
        services.submit_move(match.pk, match.to_move, move, match.ply)
    match.refresh_from_db()


def move_frames(match: Match) -> list[dict]:
    return [e.frame for e in MatchEvent.objects.filter(match=match).order_by("v") if e.frame["type"] == "move"]


# --- notation ----------------------------------------------------------------------------


def test_san_is_accepted_stored_as_uci_and_shown_as_san(people):
    match, _, _ = people
    play(match, ["e4", "e7e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"])
    moves = list(Move.objects.filter(match=match).values_list("move", flat=True))
    assert moves == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"]
    shown = selectors.match_json(selectors.match_get(match.pk))["moves"]
    assert [m["notation"] for m in shown] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]
    assert [f["notation"] for f in move_frames(match)] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]
    assert move_frames(match)[-1]["move"] == "e1g1"


def test_an_illegal_or_ambiguous_move_is_refused_with_the_reason(people):
    match, _, _ = people
    with pytest.raises(IllegalMoveError, match="no white piece on e3"):
        services.submit_move(match.pk, 0, "e3e4", 0)
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        services.submit_move(match.pk, 0, "Qh5", 0)


def test_other_games_show_their_moves_as_they_are(two_players):
    match, _, _ = two_players
    services.submit_move(match.pk, 0, "4", 0)
    assert selectors.match_json(selectors.match_get(match.pk))["moves"][0]["notation"] == "4"
    assert Move.objects.get(match=match).notation == ""  # nothing stored twice


# --- draw claims ----------------------------------------------------------------------------


def test_threefold_repetition_is_claimed_by_the_player_to_move(people):
    match, alice, bob = people
    play(match, KNIGHT_SHUFFLE)
    answer = alice.post(f"/api/matches/{match.pk}/claim-draw/")
    assert answer.status_code == 409 and answer.json()["code"] == "no_draw_to_claim"
    play(match, KNIGHT_SHUFFLE)
    assert match.state["claimable_draw"] == "threefold repetition"
    answer = bob.post(f"/api/matches/{match.pk}/claim-draw/")
    assert answer.status_code == 409 and answer.json()["code"] == "not_your_turn"
    answer = alice.post(f"/api/matches/{match.pk}/claim-draw/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "finished"
    assert body["result"] == {
        "returns": [0.0, 0.0],
        "winner": None,
        "reason": "threefold repetition",
        "ranking": [],
        "places": [1, 1],
    }
    assert MatchEvent.objects.filter(match=match).order_by("v").last().frame["type"] == "game_over"


def test_a_claim_after_playing_on_is_gone(people):
    match, _, _ = people
    play(match, KNIGHT_SHUFFLE * 2 + ["e2e4"])
    assert match.state["claimable_draw"] is None
    with pytest.raises(NoDrawToClaim):
        services.match_claim_draw(match.pk, 1)


def test_a_claim_against_a_bot_needs_no_agreement(alice):
    bot = BotProfile.objects.get(slug="chess-random")
    match = services.match_create("chess", [services.SeatRequest("human"), services.SeatRequest("bot", bot)], alice)
    with pytest.raises(NoDrawToClaim):
        services.match_claim_draw(match.pk, 0)
    with pytest.raises(NotYourTurn):
        services.match_claim_draw(match.pk, 1)


def test_a_claim_in_a_finished_match_is_refused(people):
    match, _, _ = people
    play(match, FOOLS_MATE)
    with pytest.raises(GameOver):
        services.match_claim_draw(match.pk, 0)


# --- PGN ------------------------------------------------------------------------------------


def test_a_finished_clocked_match_downloads_as_pgn_with_clocks(db):
    (alice, token), (bob, _) = player_create_guest_with_token("Alice"), player_create_guest_with_token("Bob")
    human = services.SeatRequest("human")
    match = services.match_create("chess", [human, human], alice, clock=services.Clock(5, 2), rated=False)
    services.match_join(match.pk, bob)
    play(match, FOOLS_MATE)
    answer = client_for(token).get(f"/api/matches/{match.pk}/pgn/")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/x-chess-pgn; charset=utf-8"
    assert answer["Content-Disposition"] == f'attachment; filename="plyground-{match.pk}.pgn"'
    text = answer.content.decode()
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    tags = dict(game.headers)
    assert tags["White"] == "Alice" and tags["Black"] == "Bob"
    assert (tags["Result"], tags["TimeControl"], tags["Termination"]) == ("0-1", "300+2", "normal")
    assert (tags["WhiteType"], tags["BlackType"]) == ("human", "human")
    assert tags["Event"] == "Plyground casual game" and tags["Site"].endswith(f"/matches/{match.pk}/")
    assert [move.uci() for move in game.mainline_moves()] == FOOLS_MATE
    assert "1. f3 { [%clk 0:05:0" in text and "Qh4#" in text
    left, expected = [300_000, 300_000], []
    for seat, think_ms in Move.objects.filter(match=match).values_list("seat", "think_ms"):
        left[seat] = left[seat] - think_ms + 2000
        expected.append(left[seat] // 1000)
    assert [node.clock() for node in game.mainline()] == expected
    assert expected[-1] >= 303  # two increments, quick moves
    assert game.end().comment.endswith("checkmate")


def test_a_bot_is_marked_as_a_program_and_a_live_match_is_unfinished(token_client):
    bot = BotProfile.objects.get(slug="chess-random")
    match = services.match_create(
        "chess", [services.SeatRequest("human"), services.SeatRequest("bot", bot)], token_client.player
    )
    services.submit_move(match.pk, 0, "e2e4", 0)
    text = token_client.get(f"/api/matches/{match.pk}/pgn/").content.decode()
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.headers["Black"] == bot.name and game.headers["BlackType"] == "program"
    assert game.headers["Result"] == "*" and game.headers["Termination"] == "unterminated"
    assert "TimeControl" not in game.headers and "[%clk" not in text
    assert len(list(game.mainline_moves())) == 2  # the bot replied


def test_pgn_refusals(token_client, two_players):
    match, _, _ = two_players
    answer = token_client.get(f"/api/matches/{match.pk}/pgn/")
    assert answer.status_code == 400 and answer.json()["code"] == "no_record"
    answer = token_client.get("/api/matches/999999/pgn/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


# --- bots -------------------------------------------------------------------------------------


def test_a_bot_game_of_chess_plays_to_a_result(alice):
    """A person moving at random against the Beginner, each reply through the bots' normal turn path."""
    bot = BotProfile.objects.get(slug="chess-beginner")
    bot.time_budget_ms = 50
    bot.save()
    match = services.match_create("chess", [services.SeatRequest("human"), services.SeatRequest("bot", bot)], alice)
    rng = random.Random(18)
    while match.status == Match.Status.ACTIVE:
        services.submit_move(match.pk, 0, rng.choice(selectors.match_json(match)["legal_moves"]), match.ply)
        match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["reason"] in {
        "checkmate", "stalemate", "insufficient material", "fivefold repetition", "75-move rule"
    }  # fmt: skip
    replies = Move.objects.filter(match=match, seat=1)
    assert replies.count() in (match.ply // 2, (match.ply - 1) // 2)
    assert all(m.stats and m.stats["algorithm"] == "alphabeta" for m in replies)
    assert all(m.notation and m.notation != m.move for m in replies)  # SAN beside the UCI


def test_research_exports_carry_the_game_as_pgn():
    assert standard_notation("chess", FOOLS_MATE) == {"format": "pgn", "moves": "1. f3 e5 2. g4 Qh4# 0-1"}
    assert standard_notation("chess", ["e2e5"]) is None


def test_a_chess_match_exports_with_uci_san_fen_and_pgn(people):
    match, _, _ = people
    Player.objects.filter(seats__match=match).update(consent_research=True)  # exports hold only people who agreed
    play(match, FOOLS_MATE)
    (record,) = [r for r in game_records(ExportFilters(games=("chess",))) if r["plies"] == 4]
    EXPORT_SCHEMA.validate(record)
    assert [m["move"] for m in record["moves"]] == FOOLS_MATE
    assert record["notation"] == {"format": "pgn", "moves": "1. f3 e5 2. g4 Qh4# 0-1"}
    assert [m["notation"] for m in record["moves"]] == ["f3", "e5", "g4", "Qh4#"]
    assert [m["position"] for m in record["moves"]] == FOOLS_MATE_FENS
    text = b"".join(csv_chunks(match_rows(ExportFilters(games=("chess",)), MOVE_ROW_COLUMNS))).decode()
    rows = [row for row in csv.DictReader(io.StringIO(text)) if row["match"] == record["match"]]
    assert [row["move"] for row in rows] == FOOLS_MATE
    assert [row["notation"] for row in rows] == ["f3", "e5", "g4", "Qh4#"]
    assert [row["position"] for row in rows] == FOOLS_MATE_FENS

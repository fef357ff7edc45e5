"""Every game writes a record of a played match through one hook (`Game.match_record`)."""

from __future__ import annotations

import io
import random

import chess.pgn
import pytest

from games import registry
from games.base import CHANCE
from games.records import Ending, PlayedMatch, PlayedMove, RecordSeat


def random_match(game_id: str, plies: int, seed: int = 1) -> tuple[PlayedMove, ...]:
    game, rng = registry.get(game_id), random.Random(seed)
    state, moves = game.initial_state(), []
    for _ in range(plies):
        if game.is_terminal(state):
            break
        move = game.rollout_move(state, rng)
        moves.append(PlayedMove(game.to_move(state), move, 10))
        state = game.apply(state, move)
    return tuple(moves)


def played(moves: tuple[PlayedMove, ...], seats: int = 2, **ending: object) -> PlayedMatch:
    names = tuple(RecordSeat(f"P{i}", "human") for i in range(seats))
    return PlayedMatch(moves=moves, seats=names, site="https://plyground.example/matches/1/", date="2026.12.07",
                       **ending)  # type: ignore[arg-type]  # fmt: skip


@pytest.mark.parametrize("game", [game.id for game in registry.all()])
def test_every_game_has_a_record_with_every_move(game: str) -> None:
    rules = registry.get(game)
    moves = random_match(game, 30)
    record = rules.match_record(played(moves, rules.num_players))
    assert record.text.endswith("\n") and record.extension and record.media_type.endswith("charset=utf-8")
    if record.extension == "txt":
        assert record.text.splitlines()[0] == f"Game: {rules.name}"
        written = " ".join(line.split(" ", 1)[1] for line in record.text.split("\n\n", 1)[1].splitlines())
        state, expected = rules.initial_state(), []
        for move in moves:
            expected.append(rules.move_notation(state, move.move))
            state = rules.apply(state, move.move)
        assert written == " ".join(expected)


def test_a_roll_is_written_with_the_move_after_it() -> None:
    moves = random_match("backgammon", 5)
    assert moves[0].seat == CHANCE
    lines = registry.get("backgammon").match_record(played(moves)).text.splitlines()
    assert next(line for line in lines if line.startswith("1. ")).startswith(f"1. {moves[0].move} {moves[1].move}")


def test_chess_writes_pgn_with_clocks_and_its_ending() -> None:
    moves = tuple(PlayedMove(i % 2, move, 1500) for i, move in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]))
    record = registry.get("chess").match_record(
        played(moves, clock=(60_000, 0), ending=Ending.FINISHED, returns=(-1.0, 1.0), winner=1, reason="checkmate")
    )
    assert (record.extension, record.media_type) == ("pgn", "application/x-chess-pgn; charset=utf-8")
    game = chess.pgn.read_game(io.StringIO(record.text))
    assert game is not None and game.headers["Result"] == "0-1" and game.headers["TimeControl"] == "60+0"
    assert [node.clock() for node in game.mainline()] == [58, 58, 57, 57]
    assert game.end().comment.endswith("checkmate")


def test_a_chess_record_of_illegal_moves_is_refused() -> None:
    with pytest.raises(ValueError, match="not a legal chess game"):
        registry.get("chess").match_record(played((PlayedMove(0, "e2e5", 0),)))

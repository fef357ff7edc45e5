"""Tic-tac-toe rules: every win line, draws, illegal moves, notation and JSON round trips."""

from __future__ import annotations

import itertools
import json

import pytest

from games import IllegalMove, registry
from games.tictactoe import LINES, TICTACTOE, TicTacToeState

GAME = TICTACTOE


def play_all(moves: str | list[str]) -> TicTacToeState:
    state = GAME.initial_state()
    for move in moves:
        state = GAME.play(state, move)
    return state


def test_registered_under_its_stable_id() -> None:
    assert registry.get("tictactoe") is GAME
    assert GAME.num_players == 2
    assert not GAME.has_chance


def test_initial_state() -> None:
    state = GAME.initial_state()
    assert GAME.to_move(state) == 0
    assert GAME.legal_moves(state) == [str(i) for i in range(1, 10)]
    assert not GAME.is_terminal(state)
    assert GAME.ply(state) == 0
    with pytest.raises(ValueError, match="not over"):
        GAME.outcome(state)


def test_notation_is_row_major_from_the_top_left() -> None:
    state = play_all(["1", "3", "7"])
    assert GAME.to_json(state)["board"] == [0, None, 1, None, None, None, 0, None, None]
    assert state.board == "X.O...X.."


def test_there_are_eight_lines() -> None:
    assert len(set(LINES)) == 8


def _makes_line(cells: list[int]) -> bool:
    return any(set(cells) >= set(ln) for ln in LINES)


@pytest.mark.parametrize("winner", [0, 1])
@pytest.mark.parametrize("line", LINES, ids=lambda ln: "-".join(str(c + 1) for c in ln))
def test_every_line_wins_for_either_seat(line: tuple[int, int, int], winner: int) -> None:
    off_line = [c for c in range(9) if c not in line]
    # The loser's cells: off the line and never a line of their own.
    loser = next(trio for trio in itertools.combinations(off_line, 3) if not _makes_line(list(trio)))
    if winner == 0:
        moves = [line[0], loser[0], line[1], loser[1], line[2]]
    else:
        moves = [loser[0], line[0], loser[1], line[1], loser[2], line[2]]
    state = play_all([str(c + 1) for c in moves])
    assert GAME.is_terminal(state)
    assert GAME.legal_moves(state) == []
    outcome = GAME.outcome(state)
    assert outcome.winner == winner
    assert outcome.reason == "three in a row"
    assert outcome.returns == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
    assert GAME.returns(state) == list(outcome.returns)
    assert outcome.ranking == (winner, 1 - winner)
    assert GAME.to_json(state)["winning_line"] == [str(c + 1) for c in line]


def test_two_in_a_row_is_not_a_win() -> None:
    state = play_all(["1", "4", "2"])
    assert not GAME.is_terminal(state)
    assert GAME.to_json(state)["winning_line"] == []


def test_win_on_the_ninth_move_is_a_win_not_a_draw() -> None:
    # X: 5 1 6 7 then 9 completes the diagonal 1-5-9; O: 2 3 4 8 holds no line.
    state = play_all(["5", "2", "1", "3", "6", "4", "7", "8", "9"])
    assert GAME.is_terminal(state)
    assert GAME.outcome(state).winner == 0
    assert GAME.outcome(state).reason == "three in a row"
    assert GAME.to_json(state)["winning_line"] == ["1", "5", "9"]


def test_full_board_without_a_line_is_a_draw() -> None:
    state = play_all(["5", "1", "9", "3", "2", "8", "7", "4", "6"])
    assert GAME.is_terminal(state)
    assert GAME.legal_moves(state) == []
    outcome = GAME.outcome(state)
    assert outcome.winner is None
    assert outcome.returns == (0.0, 0.0)
    assert outcome.reason == "board full"
    assert GAME.to_json(state)["winning_line"] == []


@pytest.mark.parametrize("move", ["0", "10", "a", "", " 5", "5 ", "05", "1.0", "-1"])
def test_not_a_cell_says_so(move: str) -> None:
    state = play_all(["5"])
    with pytest.raises(IllegalMove, match="not a cell"):
        GAME.play(state, move)
    assert state == play_all(["5"])


def test_taken_cell_says_so_and_changes_nothing() -> None:
    state = play_all(["5", "1"])
    before = GAME.to_json(state)
    for move in ("5", "1"):
        with pytest.raises(IllegalMove, match=f"cell {move} is already taken"):
            GAME.play(state, move)
    assert GAME.to_json(state) == before
    assert GAME.to_move(state) == 0


@pytest.mark.parametrize("move", [5, None, b"5"])
def test_non_string_moves_are_refused(move: object) -> None:
    with pytest.raises(IllegalMove, match="a move is a string"):
        GAME.play(GAME.initial_state(), move)  # type: ignore[arg-type]


def test_no_move_after_the_game_is_over() -> None:
    state = play_all(["1", "4", "2", "5", "3"])
    assert GAME.is_terminal(state)
    with pytest.raises(IllegalMove, match="the game is over"):
        GAME.play(state, "9")


def test_turns_alternate_and_ply_counts() -> None:
    state = GAME.initial_state()
    for ply, move in enumerate(["5", "1", "9", "3"]):
        assert GAME.ply(state) == ply
        assert GAME.to_move(state) == ply % 2
        state = GAME.play(state, move)
    assert GAME.ply(state) == 4


def test_notation_round_trip() -> None:
    """Every legal move names the cell it fills, and the board reads back as the moves."""
    for move in GAME.legal_moves(GAME.initial_state()):
        state = GAME.play(GAME.initial_state(), move)
        filled = [str(i + 1) for i, c in enumerate(GAME.to_json(state)["board"]) if c is not None]
        assert filled == [move]


@pytest.mark.parametrize("moves", ["", "5", "51", "5193", "51932874", "12345", "519328746"])
def test_json_round_trip(moves: str) -> None:
    state = play_all(moves)
    data = json.loads(json.dumps(GAME.to_json(state)))
    restored = GAME.from_json(data)
    assert restored == state
    assert GAME.key(restored) == GAME.key(state)
    assert GAME.legal_moves(restored) == GAME.legal_moves(state)


@pytest.mark.parametrize(
    "board",
    [
        [None] * 8,
        [None] * 10,
        [2] + [None] * 8,
        ["X"] + [None] * 8,
        [1] + [None] * 8,  # O cannot have moved first
        [0, 0] + [None] * 7,  # X two ahead
        "X........",
        None,
    ],
)
def test_invalid_json_is_refused(board: object) -> None:
    with pytest.raises(ValueError):
        GAME.from_json({"board": board})


@pytest.mark.parametrize(
    "data",
    [{}, [], "X........", None, {"cells": [None] * 9}, {"board": [False] + [None] * 8}, {"board": [0.0] + [None] * 8}],
)
def test_malformed_json_is_a_value_error(data: object) -> None:
    with pytest.raises(ValueError):
        GAME.from_json(data)  # type: ignore[arg-type]

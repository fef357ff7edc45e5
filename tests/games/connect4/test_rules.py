"""Connect Four rules: all 69 winning windows for both seats, draws, full columns,
illegal moves, solver notation and JSON round trips."""

from __future__ import annotations

import json
import random

import pytest

from games import IllegalMove, registry
from games.connect4 import CONNECT4, HEIGHT, WIDTH, Connect4State

GAME = CONNECT4

Cell = tuple[int, int]  # (column 0..6 from the left, row 0..5 from the bottom)


def _windows() -> list[tuple[str, tuple[Cell, ...]]]:
    """The 69 lines of four, computed here independently of the module's tables."""
    out = []
    for name, (dc, dr) in (
        ("vertical", (0, 1)),
        ("horizontal", (1, 0)),
        ("diagonal /", (1, 1)),
        ("diagonal \\", (1, -1)),
    ):
        for col in range(WIDTH):
            for row in range(HEIGHT):
                cells = tuple((col + k * dc, row + k * dr) for k in range(4))
                if all(0 <= c < WIDTH and 0 <= r < HEIGHT for c, r in cells):
                    out.append((name, cells))
    return out


WINDOWS = _windows()


def play_all(moves: str) -> Connect4State:
    state = GAME.initial_state()
    for move in moves:
        state = GAME.play(state, move)
    return state


def grid(state: Connect4State) -> dict[Cell, int]:
    """Occupied cells -> seat, read through the JSON board (rows top to bottom)."""
    board = GAME.to_json(state)["board"]
    return {(c, HEIGHT - 1 - r): v for r, row in enumerate(board) for c, v in enumerate(row) if v is not None}


def complete_windows(cells: dict[Cell, int], seat: int) -> list[tuple[Cell, ...]]:
    return [w for _, w in WINDOWS if all(cells.get(cell) == seat for cell in w)]


def test_registered_under_its_stable_id() -> None:
    assert registry.get("connect4") is GAME
    assert GAME.num_players == 2 and not GAME.has_chance


def test_there_are_69_windows() -> None:
    kinds = [name for name, _ in WINDOWS]
    assert len(WINDOWS) == 69
    assert kinds.count("vertical") == 21
    assert kinds.count("horizontal") == 24
    assert kinds.count("diagonal /") == 12
    assert kinds.count("diagonal \\") == 12


def _sequence_completing(window: tuple[Cell, ...], winner: int, seed: int) -> str | None:
    """A legal game in which `winner`'s last stone completes `window` and nothing else wins first."""
    rng = random.Random(seed)
    target = set(window)
    state = GAME.initial_state()
    heights = [0] * WIDTH
    moves = ""
    support = {c for c, _ in window}
    for _ in range(CELLS_MAX):
        seat = GAME.to_move(state)
        open_cols = [c for c in range(WIDTH) if heights[c] < HEIGHT]
        on_target = [c for c in open_cols if (c, heights[c]) in target]
        off_target = [c for c in open_cols if (c, heights[c]) not in target]
        if seat == winner and on_target:
            col = rng.choice(on_target)
        else:
            if not off_target:
                return None
            below = [c for c in off_target if c in support and any(r > heights[c] for cc, r in window if cc == c)]
            col = rng.choice(below) if below and rng.random() < 0.8 else rng.choice(off_target)
        state = GAME.play(state, str(col + 1))
        heights[col] += 1
        moves += str(col + 1)
        if GAME.is_terminal(state):
            cells = grid(state)
            done = all(cells.get(cell) == winner for cell in window)
            only = complete_windows(cells, winner) == [window] and not complete_windows(cells, 1 - winner)
            return moves if done and only else None
    return None


CELLS_MAX = WIDTH * HEIGHT


@pytest.mark.parametrize("winner", [0, 1])
@pytest.mark.parametrize("window", [w for _, w in WINDOWS], ids=[f"{n} {w[0]}" for n, w in WINDOWS])
def test_every_window_wins_for_either_seat(window: tuple[Cell, ...], winner: int) -> None:
    moves = next(
        (m for seed in range(2000) if (m := _sequence_completing(window, winner, seed)) is not None),
        None,
    )
    assert moves is not None, "could not build a game for this window"
    before = play_all(moves[:-1])
    assert not GAME.is_terminal(before), "the game ended before the window was complete"
    state = GAME.play(before, moves[-1])
    assert GAME.is_terminal(state)
    assert GAME.legal_moves(state) == []
    outcome = GAME.outcome(state)
    assert outcome.winner == winner
    assert outcome.reason == "four in a row"
    assert outcome.returns == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
    assert outcome.ranking == (winner, 1 - winner)
    expected = sorted([HEIGHT - 1 - r, c] for c, r in window)
    assert sorted(GAME.to_json(state)["winning_cells"]) == expected
    with pytest.raises(IllegalMove, match="the game is over"):
        GAME.play(state, GAME.legal_moves(before)[0])


def test_three_in_a_row_and_split_lines_do_not_win() -> None:
    state = play_all("112233")  # seat 0: three on the bottom row
    assert not GAME.is_terminal(state)
    state = play_all("1122" + "7766" + "5")  # seat 0 holds 1 2 _ 5 on the bottom row: no four
    assert not GAME.is_terminal(state)


def test_lines_do_not_wrap_between_columns() -> None:
    """Stones that are adjacent in the bit layout but not on the board never make four."""
    # Seat 0: the top three cells of column 1 and the bottom cell of column 2
    # (consecutive bits but for the spare bit), and the diagonal wrap equivalents.
    board = [[None] * WIDTH for _ in range(HEIGHT)]
    cells = {(0, 3): 0, (0, 4): 0, (0, 5): 0, (1, 0): 0, (0, 0): 1, (0, 1): 1, (0, 2): 1, (2, 0): 1}
    for (c, r), seat in cells.items():
        board[HEIGHT - 1 - r][c] = seat
    state = GAME.from_json({"board": board})
    assert not GAME.is_terminal(state)


def test_random_games_agree_with_a_brute_force_referee() -> None:
    rng = random.Random(4)
    for _ in range(300):
        state = GAME.initial_state()
        while True:
            cells = grid(state)
            expected_over = bool(complete_windows(cells, 0) or complete_windows(cells, 1)) or len(cells) == 42
            assert GAME.is_terminal(state) == expected_over
            if expected_over:
                break
            state = GAME.play(state, rng.choice(GAME.legal_moves(state)))


def test_full_board_without_four_is_a_draw() -> None:
    moves = _draw_sequence()
    state = play_all(moves)
    assert len(moves) == 42
    assert GAME.is_terminal(state)
    assert GAME.legal_moves(state) == []
    outcome = GAME.outcome(state)
    assert outcome.winner is None
    assert outcome.returns == (0.0, 0.0)
    assert outcome.reason == "board full"
    assert GAME.to_json(state)["winning_cells"] == []


def _draw_sequence() -> str:
    rng = random.Random(0)
    for _ in range(100_000):
        state = GAME.initial_state()
        moves = ""
        while not GAME.is_terminal(state):
            move = rng.choice(GAME.legal_moves(state))
            state = GAME.apply(state, move)
            moves += move
        if GAME.outcome(state).winner is None:
            return moves
    raise AssertionError("no drawn game found")


def test_full_column_is_refused_and_state_unchanged() -> None:
    state = play_all("444444")
    assert "4" not in GAME.legal_moves(state)
    assert GAME.legal_moves(state) == ["1", "2", "3", "5", "6", "7"]
    before = GAME.to_json(state)
    with pytest.raises(IllegalMove, match="column 4 is full"):
        GAME.play(state, "4")
    assert GAME.to_json(state) == before
    assert GAME.to_move(state) == 0


@pytest.mark.parametrize("move", ["0", "8", "10", "a", "", " 4", "4 ", "04", "44", "-1"])
def test_not_a_column_says_so(move: str) -> None:
    state = play_all("4")
    with pytest.raises(IllegalMove, match="not a column"):
        GAME.play(state, move)
    assert state == play_all("4")


@pytest.mark.parametrize("move", [4, None, 4.0])
def test_non_string_moves_are_refused(move: object) -> None:
    with pytest.raises(IllegalMove, match="a move is a string"):
        GAME.play(GAME.initial_state(), move)  # type: ignore[arg-type]


def test_stones_drop_to_the_lowest_empty_cell() -> None:
    state = play_all("4413")
    assert grid(state) == {(3, 0): 0, (3, 1): 1, (0, 0): 0, (2, 0): 1}
    assert GAME.to_json(state)["board"][HEIGHT - 1] == [0, None, 1, 0, None, None, None]


def test_solver_notation_round_trip() -> None:
    """A game's moves joined together are a solver input that rebuilds the same position."""
    rng = random.Random(7)
    for _ in range(50):
        state = GAME.initial_state()
        moves = ""
        while not GAME.is_terminal(state) and len(moves) < 30:
            move = rng.choice(GAME.legal_moves(state))
            state = GAME.play(state, move)
            moves += move
        assert GAME.from_moves(moves) == state
        assert GAME.ply(state) == len(moves)


def test_turns_alternate_and_ply_counts() -> None:
    state = GAME.initial_state()
    for ply, move in enumerate("4455"):
        assert GAME.ply(state) == ply
        assert GAME.to_move(state) == ply % 2
        state = GAME.play(state, move)


def test_key_identifies_positions_across_move_orders() -> None:
    a, b = play_all("1234"), play_all("3214")
    assert a == b and GAME.key(a) == GAME.key(b)
    assert GAME.key(play_all("12")) != GAME.key(play_all("21"))


@pytest.mark.parametrize("moves", ["", "4", "4453", "444444", "1122334", "4455667", "4455661712"])
def test_json_round_trip(moves: str) -> None:
    state = play_all(moves)
    restored = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
    assert restored == state
    assert GAME.key(restored) == GAME.key(state)
    assert GAME.legal_moves(restored) == GAME.legal_moves(state)


def _board(cells: dict[Cell, object]) -> list[list[object]]:
    board: list[list[object]] = [[None] * WIDTH for _ in range(HEIGHT)]
    for (c, r), v in cells.items():
        board[HEIGHT - 1 - r][c] = v
    return board


@pytest.mark.parametrize(
    "board",
    [
        [[None] * WIDTH] * (HEIGHT - 1),
        [[None] * (WIDTH + 1)] * HEIGHT,
        _board({(0, 0): 2}),
        _board({(0, 0): "X"}),
        _board({(0, 1): 0}),  # floating stone
        _board({(0, 0): 1}),  # seat 1 cannot have moved first
        _board({(0, 0): 0, (1, 0): 0}),  # seat 0 two stones ahead
        "......",
        None,
    ],
)
def test_invalid_json_is_refused(board: object) -> None:
    with pytest.raises(ValueError):
        GAME.from_json({"board": board})


@pytest.mark.parametrize(
    "data",
    [{}, [], "4453", None, {"cells": _board({})}, {"board": _board({(0, 0): False})}, {"board": _board({(0, 0): 0.0})}],
)
def test_malformed_json_is_a_value_error(data: object) -> None:
    with pytest.raises(ValueError):
        GAME.from_json(data)  # type: ignore[arg-type]

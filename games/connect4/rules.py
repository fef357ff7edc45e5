"""Connect Four: 7 columns, 6 rows, four in a row wins.

Notation: columns "1".."7" from the left, as in the published Connect Four
solver test sets, so the moves of a game joined together ("4453...") are a
solver input.  Seat 0 moves first.  A stone drops to the lowest empty cell of
its column; a full column is not a legal move.  Four stones of one seat in a
row, a column or either diagonal win; a full board (42 stones) without one is a
draw.  Returns are +1 / -1 for a win, 0 / 0 for a draw.

Positions are bitboards, laid out in `games.connect4.bitboard`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.base import Game, Move, Outcome, Seat, is_seat_index
from games.connect4.bitboard import (
    BOARD_MASK,
    BOTTOM,
    BOTTOM_MASK,
    CELLS,
    CENTRE_FIRST,
    H1,
    HEIGHT,
    TOP_MASK,
    WIDTH,
    WINDOWS,
    Bitboard,
    bit,
    has_four,
    winning_cells,
)
from games.connect4.spec import ID, SPEC

if TYPE_CHECKING:
    from games.hooks import Playout, SearchKernel, Solver

COLUMNS: tuple[Move, ...] = tuple(str(c + 1) for c in range(WIDTH))
OPENING: Move = COLUMNS[3]
# Each cell's bit by column and row (0 the bottom), and each row's bits from the top row down,
# as the JSON writes the board; each way to win with its cells as the JSON names them.
_BITS: tuple[tuple[Bitboard, ...], ...] = tuple(tuple(bit(c, r) for r in range(HEIGHT)) for c in range(WIDTH))
_ROW_BITS: tuple[tuple[Bitboard, ...], ...] = tuple(
    tuple(_BITS[c][r] for c in range(WIDTH)) for r in reversed(range(HEIGHT))
)
_WINDOW_CELLS: tuple[tuple[Bitboard, tuple[tuple[int, int], ...]], ...] = tuple(
    (w, tuple((HEIGHT - 1 - r, c) for c in range(WIDTH) for r in range(HEIGHT) if w & _BITS[c][r])) for w in WINDOWS
)
# An open window's worth by the stones in it (four: the game is over, it never counts).
WINDOW_WEIGHTS: tuple[int, ...] = (0, 1, 4, 16, 0)


@dataclass(frozen=True, slots=True)
class Connect4State:
    """`current`: stones of the seat to move; `mask`: all stones; `moves`: stones played."""

    current: Bitboard = 0
    mask: Bitboard = 0
    moves: int = 0

    def stones(self, seat: Seat) -> Bitboard:
        """Stones of `seat` (0 moved first)."""
        return self.current if seat == self.moves % 2 else self.current ^ self.mask


class Connect4(Game[Connect4State]):
    id = ID
    spec = SPEC
    max_length = CELLS
    num_players = 2

    def initial_state(self) -> Connect4State:
        return Connect4State()

    def to_move(self, state: Connect4State) -> Seat:
        return state.moves % 2

    def legal_moves(self, state: Connect4State) -> list[Move]:
        if self.is_terminal(state):
            return []
        return [COLUMNS[c] for c in range(WIDTH) if not state.mask & TOP_MASK[c]]

    def apply(self, state: Connect4State, move: Move) -> Connect4State:
        col = int(move) - 1
        # The opponent's stones become "current"; the new stone lands on the lowest empty cell.
        mask = state.mask | (state.mask + BOTTOM_MASK[col])
        return Connect4State(state.current ^ state.mask, mask, state.moves + 1)

    def why_illegal(self, state: Connect4State, move: Move) -> str:
        if move not in COLUMNS:
            return f"{move!r} is not a column: columns are 1 to 7 from the left"
        return f"column {move} is full"

    def last_mover_won(self, state: Connect4State) -> bool:
        return has_four(state.current ^ state.mask)

    def is_terminal(self, state: Connect4State) -> bool:
        return state.moves == CELLS or self.last_mover_won(state)

    def outcome(self, state: Connect4State) -> Outcome:
        if self.last_mover_won(state):
            winner = (state.moves - 1) % 2
            returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
            return Outcome(returns, winner, "four in a row", (winner, 1 - winner))
        if state.moves == CELLS:
            return Outcome((0.0, 0.0), None, "board full")
        raise ValueError("the game is not over")

    def ply(self, state: Connect4State) -> int:
        return state.moves

    def key(self, state: Connect4State) -> int:
        # Unique per position (Pons): the mask's extra bit marks each column's height.
        return state.current + state.mask

    def to_json(self, state: Connect4State) -> dict[str, Any]:
        """Rows top to bottom, each cell null or the seat whose stone it is."""
        first, second = state.stones(0), state.stones(1)
        board = [[0 if first & b else 1 if second & b else None for b in row] for row in _ROW_BITS]
        winning: list[list[int]] = []
        if has_four(first) or has_four(second):  # a move's position, most of the time: no line to look for
            for window, cells in _WINDOW_CELLS:
                for stones in (first, second):
                    if stones & window == window:
                        winning += [list(cell) for cell in cells]
        return {"board": board, "winning_cells": winning}

    def from_json(self, data: dict[str, Any]) -> Connect4State:
        board = data.get("board") if isinstance(data, dict) else None
        if (
            not isinstance(board, list)
            or len(board) != HEIGHT
            or any(
                not isinstance(row, list)
                or len(row) != WIDTH
                or any(c is not None and not is_seat_index(c) for c in row)
                for row in board
            )
        ):
            raise ValueError("board must be 6 rows of 7 cells, each null, 0 or 1")
        stones = [0, 0]
        for c in range(WIDTH):
            empty_below = False
            for r, row in enumerate(reversed(board)):  # bottom up
                seat = row[c]
                if seat is None:
                    empty_below = True
                elif empty_below:
                    raise ValueError(f"column {c + 1} has a stone floating above an empty cell")
                else:
                    stones[seat] |= _BITS[c][r]
        moves = stones[0].bit_count() + stones[1].bit_count()
        if stones[0].bit_count() - stones[1].bit_count() not in (0, 1):
            raise ValueError("seat 0 moves first: it has as many stones as seat 1 or one more")
        mask = stones[0] | stones[1]
        return Connect4State(stones[moves % 2], mask, moves)

    def from_moves(self, moves: str) -> Connect4State:
        """The position after a solver move string such as "4453"; validates each move."""
        state = self.initial_state()
        for ch in moves:
            state = self.play(state, ch)
        return state

    def order_moves(self, state: Connect4State, moves: Sequence[Move]) -> list[Move]:
        rank = {COLUMNS[c]: r for r, c in enumerate(CENTRE_FIRST)}
        return sorted(moves, key=rank.__getitem__)

    def evaluate(self, state: Connect4State, seat: Seat) -> float:
        """Windows still open to each side, weighted by stones in them, scaled into (-1, 1)."""
        mine, theirs = state.stones(seat), state.stones(1 - seat)
        weights = WINDOW_WEIGHTS
        score = 0
        for window in WINDOWS:
            if not window & theirs:
                score += weights[(window & mine).bit_count()]
            elif not window & mine:
                score -= weights[(window & theirs).bit_count()]
        return max(-0.9, min(0.9, score / 200))

    def evaluate_terms(self, state: Connect4State, seat: Seat) -> tuple[float, float]:
        """`evaluate` split in two: (my open windows, the opponent's), each weighted and /200.

        Play styles weigh the two differently (`ai.evaluation`).
        """
        mine, theirs = state.stones(seat), state.stones(1 - seat)
        weights = WINDOW_WEIGHTS
        own = other = 0
        for window in WINDOWS:
            if not window & theirs:
                own += weights[(window & mine).bit_count()]
            elif not window & mine:
                other += weights[(window & theirs).bit_count()]
        return own / 200, other / 200

    def rollout_move(self, state: Connect4State, rng: random.Random) -> Move:
        """Win if possible, else block the opponent's immediate win, else a random column."""
        possible = (state.mask + BOTTOM) & BOARD_MASK
        for stones in (state.current, state.current ^ state.mask):
            spots = winning_cells(stones, state.mask) & possible
            if spots:
                return COLUMNS[((spots & -spots).bit_length() - 1) // H1]
        return rng.choice(self.legal_moves(state))

    # --- the fast paths on the bitboards (`games.hooks`), imported when first asked for
    def fast_playout(self) -> Playout:
        from games.connect4.playout import playout

        return playout

    def search_kernel(self) -> SearchKernel:
        from games.connect4.kernel import KERNEL

        return KERNEL

    def new_solver(self) -> Solver:
        from games.connect4.solver import Connect4Solver

        return Connect4Solver()

    def opening_move(self, state: Connect4State) -> Move | None:
        """The centre, on the empty board: the first player wins by starting there (Allis 1988)."""
        return OPENING if state.moves == 0 else None

    def standard_notation(self, moves: Sequence[Move]) -> tuple[str, str] | None:
        """The solver test sets' input: the columns played, 1-7 from the left, joined.

        >>> CONNECT4.standard_notation(["4", "4", "5", "3"])
        ('connect4-solver', '4453')
        """
        if not set(COLUMNS).issuperset(moves):
            return None
        return "connect4-solver", "".join(moves)


CONNECT4 = Connect4()

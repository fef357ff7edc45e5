"""Tic-tac-toe on a 3x3 board.

Notation: cells "1".."9", row-major from the top-left::

    1 2 3
    4 5 6
    7 8 9

Seat 0 plays X and moves first; seat 1 plays O.  Three in a row (a row, a
column or either diagonal) wins; a full board without a line is a draw.
Returns are +1 / -1 for a win, 0 / 0 for a draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Game, Move, Outcome, Seat, is_seat_index
from games.tictactoe.spec import ID, SPEC

MARKS = "XO"
EMPTY = "."
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)  # fmt: skip
# Centre, then corners, then edges: the usual strength order of cells.
CELL_ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)


@dataclass(frozen=True, slots=True)
class TicTacToeState:
    board: str = EMPTY * 9  # "X", "O" or "." per cell, row-major

    @property
    def moves_played(self) -> int:
        return 9 - self.board.count(EMPTY)


def _line_winner(board: str) -> tuple[str, tuple[int, int, int]] | None:
    for line in LINES:
        a, b, c = line
        if board[a] != EMPTY and board[a] == board[b] == board[c]:
            return board[a], line
    return None


class TicTacToe(Game[TicTacToeState]):
    id = ID
    spec = SPEC
    num_players = 2

    def initial_state(self) -> TicTacToeState:
        return TicTacToeState()

    def to_move(self, state: TicTacToeState) -> Seat:
        return state.moves_played % 2

    def legal_moves(self, state: TicTacToeState) -> list[Move]:
        if self.is_terminal(state):
            return []
        return [str(i + 1) for i, cell in enumerate(state.board) if cell == EMPTY]

    def apply(self, state: TicTacToeState, move: Move) -> TicTacToeState:
        i = int(move) - 1
        mark = MARKS[state.moves_played % 2]
        return TicTacToeState(state.board[:i] + mark + state.board[i + 1 :])

    def why_illegal(self, state: TicTacToeState, move: Move) -> str:
        if move not in {str(i) for i in range(1, 10)}:
            return f"{move!r} is not a cell: cells are 1 to 9, row by row from the top-left"
        return f"cell {move} is already taken"

    def is_terminal(self, state: TicTacToeState) -> bool:
        return EMPTY not in state.board or _line_winner(state.board) is not None

    def outcome(self, state: TicTacToeState) -> Outcome:
        won = _line_winner(state.board)
        if won is not None:
            winner = MARKS.index(won[0])
            returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
            return Outcome(returns, winner, "three in a row", (winner, 1 - winner))
        if EMPTY not in state.board:
            return Outcome((0.0, 0.0), None, "board full")
        raise ValueError("the game is not over")

    def ply(self, state: TicTacToeState) -> int:
        return state.moves_played

    def to_json(self, state: TicTacToeState) -> dict[str, Any]:
        won = _line_winner(state.board)
        return {
            "board": [None if c == EMPTY else MARKS.index(c) for c in state.board],
            "winning_line": [str(i + 1) for i in won[1]] if won else [],
        }

    def from_json(self, data: dict[str, Any]) -> TicTacToeState:
        board = data.get("board") if isinstance(data, dict) else None
        if not isinstance(board, list) or len(board) != 9 or any(c is not None and not is_seat_index(c) for c in board):
            raise ValueError("board must be a list of 9 cells, each null, 0 or 1")
        text = "".join(EMPTY if c is None else MARKS[c] for c in board)
        xs, os = text.count("X"), text.count("O")
        if not (xs == os or xs == os + 1):
            raise ValueError("X moves first: X has as many marks as O or one more")
        return TicTacToeState(text)

    def order_moves(self, state: TicTacToeState, moves: Sequence[Move]) -> list[Move]:
        rank = {str(c + 1): r for r, c in enumerate(CELL_ORDER)}
        return sorted(moves, key=rank.__getitem__)

    def evaluate(self, state: TicTacToeState, seat: Seat) -> float:
        """Open lines for `seat` minus open lines for the opponent, scaled into (-1, 1)."""
        mine, theirs = MARKS[seat], MARKS[1 - seat]
        score = 0
        for line in LINES:
            cells = [state.board[i] for i in line]
            if theirs not in cells:
                score += cells.count(mine) ** 2
            if mine not in cells:
                score -= cells.count(theirs) ** 2
        return max(-0.9, min(0.9, score / 20))


TICTACTOE = TicTacToe()

"""Tic-tac-toe: the rules (`rules`), the catalogue entry (`spec`).  See `rules` for the notation."""

from games.tictactoe.rules import (
    CELL_ORDER,
    EMPTY,
    LINES,
    MARKS,
    TICTACTOE,
    TicTacToe,
    TicTacToeState,
)

__all__ = [
    "CELL_ORDER",
    "EMPTY",
    "LINES",
    "MARKS",
    "TICTACTOE",
    "TicTacToe",
    "TicTacToeState",
]

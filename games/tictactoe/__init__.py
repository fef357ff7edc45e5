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

GAMES = (TICTACTOE,)  # what the catalogue registers (games/__init__.py)

__all__ = [
    "GAMES",
    "CELL_ORDER",
    "EMPTY",
    "LINES",
    "MARKS",
    "TICTACTOE",
    "TicTacToe",
    "TicTacToeState",
]

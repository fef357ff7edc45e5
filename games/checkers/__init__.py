"""English draughts (checkers): the rules (`rules`), the catalogue entry (`spec`).  See `rules` for the notation."""

from games.checkers.rules import CHECKERS, Checkers, CheckersState, parse

GAMES = (CHECKERS,)  # what the catalogue registers (games/__init__.py)

__all__ = ["CHECKERS", "GAMES", "Checkers", "CheckersState", "parse"]

"""Pure-Python game rules behind one API (docs/design.md §2).  No Django here."""

from games import registry
from games.backgammon import BACKGAMMON
from games.base import CHANCE, Game, IllegalMove, Move, Outcome, Seat, State
from games.chinese_checkers import CHINESE_CHECKERS, CHINESE_CHECKERS_2
from games.connect4 import CONNECT4
from games.othello import OTHELLO
from games.tictactoe import TICTACTOE

registry.register(TICTACTOE)
registry.register(CONNECT4)
registry.register(OTHELLO)
registry.register(BACKGAMMON)
registry.register(CHINESE_CHECKERS)
registry.register(CHINESE_CHECKERS_2)

__all__ = ["CHANCE", "Game", "IllegalMove", "Move", "Outcome", "Seat", "State", "registry"]

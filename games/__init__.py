"""Pure-Python game rules behind one API (docs/design.md §2).  No Django here, and nothing from ``ai``.

`games.base` is the Game API, `games.spec` what the server and browser read about a game,
`games.hooks` the optional fast paths a game offers the searchers.  Each game is a
package, ``games/<id>/``: its rules (``rules.py``), its spec (``spec.py``) and any fast
paths.  Adding one is that package, its board module under
``frontend/static/frontend/js/boards/`` and its tests, plus a line below: the lobby, the
API and the seeded bots read the registry.  The order below is the catalogue's order.
"""

from games import registry
from games.backgammon import BACKGAMMON
from games.base import CHANCE, Game, IllegalMove, Move, Outcome, Seat, State
from games.chess import CHESS
from games.chinese_checkers import CHINESE_CHECKERS, CHINESE_CHECKERS_2
from games.connect4 import CONNECT4
from games.othello import OTHELLO
from games.spec import GameSpec
from games.tictactoe import TICTACTOE

registry.register(TICTACTOE)
registry.register(CONNECT4)
registry.register(OTHELLO)
registry.register(BACKGAMMON)
registry.register(CHINESE_CHECKERS)
registry.register(CHINESE_CHECKERS_2)
registry.register(CHESS)

__all__ = ["CHANCE", "Game", "GameSpec", "IllegalMove", "Move", "Outcome", "Seat", "State", "registry"]

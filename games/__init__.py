"""Pure-Python game rules behind one API (docs/design.md §2).  No Django here, and nothing from ``ai``.

`games.base` is the Game API, `games.spec` what the server and browser read about a game,
`games.hooks` the optional fast paths a game offers the searchers.  Each game is a
package, ``games/<id>/``: its rules (``rules.py``), its spec (``spec.py``) and any fast
paths; the package exports its games as ``GAMES``.  The packages are found here, each
game registered in the catalogue's order (its spec's ``order``), so adding a game
touches nothing outside its package, its board module, its stylesheet and its tests.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from games import registry
from games.base import CHANCE, Game, IllegalMove, Move, Outcome, Seat, State
from games.spec import GameSpec


def _discover() -> list[Game[Any]]:
    """Every game the subpackages of `games` export as ``GAMES``, in catalogue order."""
    found: list[Game[Any]] = []
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            found.extend(getattr(importlib.import_module(f"{__name__}.{module.name}"), "GAMES", ()))
    return sorted(found, key=lambda game: (game.spec.order, game.id))


for _game in _discover():
    registry.register(_game)

__all__ = ["CHANCE", "Game", "GameSpec", "IllegalMove", "Move", "Outcome", "Seat", "State", "registry"]

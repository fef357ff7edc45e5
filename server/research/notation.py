"""Standard notations beside ours, for games that have one other tools read.

Each game says its own (`games.base.Game.standard_notation`); exports carry it beside the
canonical moves (docs/exports.md).

>>> standard_notation("connect4", ["4", "4", "5", "3"])
{'format': 'connect4-solver', 'moves': '4453'}
>>> standard_notation("tictactoe", ["5"]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from games import registry


def standard_notation(game_id: str, moves: Sequence[str]) -> dict[str, str] | None:
    """``{"format", "moves"}`` in the game's standard notation, or None where it has none."""
    written = registry.get(game_id).standard_notation(moves)
    if written is None:
        return None
    name, text = written
    return {"format": name, "moves": text}

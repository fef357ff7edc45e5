"""Standard notations beside ours, for games that have one other tools read.

Each game says its own (`games.base.Game.standard_notation`, `Game.position_notation`);
exports carry them beside the canonical moves (docs/exports.md).

>>> standard_notation("connect4", ["4", "4", "5", "3"])
{'format': 'connect4-solver', 'moves': '4453'}
>>> standard_notation("tictactoe", ["5"]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from games import CHANCE, registry


def standard_notation(game_id: str, moves: Sequence[str]) -> dict[str, str] | None:
    """``{"format", "moves"}`` in the game's standard notation, or None where it has none."""
    written = registry.get(game_id).standard_notation(moves)
    if written is None:
        return None
    name, text = written
    return {"format": name, "moves": text}


@cache
def has_positions(game_id: str) -> bool:
    """Whether the game writes positions down (`Game.position_notation`): decided once per game.

    Exports replay a match's moves only for such games; the others pay nothing.
    """
    game = registry.get(game_id)
    return game.position_notation(game.initial_state()) is not None


def positions_before(game_id: str, moves: Iterable[tuple[int, str]]) -> list[str | None] | None:
    """The position before each of `moves` (``(seat, move)`` in ply order), in the game's notation.

    None for a game without one.  Chance events get None (their position is the next
    move's), and so does every move from one that does not replay (a damaged record):
    an export writes what it can rather than fail.

    >>> positions_before("chess", [(0, "e2e4"), (1, "e7e5")])[1]
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
    >>> positions_before("connect4", [(0, "4")]) is None
    True
    """
    if not has_positions(game_id):
        return None
    game = registry.get(game_id)
    state = game.initial_state()
    positions: list[str | None] = []
    for seat, move in moves:
        if state is None:
            positions.append(None)
            continue
        positions.append(None if seat == CHANCE else game.position_notation(state))
        try:
            state = game.apply(state, move)
        except ValueError:  # not a move of this game (IllegalMove is a ValueError too)
            state = None
    return positions

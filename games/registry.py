"""The catalogue of games, by stable lowercase id (docs/design.md §2)."""

from __future__ import annotations

from typing import Any

from games.base import Game

_GAMES: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    if game.id in _GAMES:
        raise ValueError(f"game id {game.id!r} is registered twice")
    _GAMES[game.id] = game
    return game


def get(game_id: str) -> Game[Any]:
    """The game with this id; `KeyError` naming the known ids otherwise."""
    try:
        return _GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(_GAMES))}") from None


def all() -> list[Game[Any]]:  # noqa: A001 - the name docs/design.md §2 gives
    return list(_GAMES.values())


def ids() -> list[str]:
    """The ids of the games registered now, in catalogue order."""
    return list(_GAMES)

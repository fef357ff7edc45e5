"""The algorithms a bot can search with, in one place (docs/design.md §3).

Each entry says what the admin, the API and the browser need to know of an algorithm:
its id (what a profile stores), its label (what people read), the options it takes
(`ai.types.SearchOptions` subclasses, as a schema) and the games it fits.  Where the
game makes another searcher run (`ai.search.algorithm_for`: alpha-beta on dice is
expectimax, on three or more players max^n), the entry fits the game only when that
is what a profile would mean; the admin refuses the rest with the entry's words.

>>> from games import registry
>>> ALGORITHMS["maxn"].label
'max^n'
>>> ALGORITHMS["maxn"].problem(registry.get("connect4"))
'max^n is for games of three or more players; Connect Four has 2'
>>> [a.id for a in ALGORITHMS.values() if a.supports(registry.get("backgammon"))]
['expectimax', 'mcts', 'random']
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ai.types import ALGORITHMS as ALGORITHM_IDS
from ai.types import AlphaBetaOptions, ExpectimaxOptions, MaxnOptions, MctsOptions, SearchOptions
from games.base import Game


def _alphabeta_problem(game: Game[Any]) -> str:
    if game.num_players > 2:
        return f"alpha-beta is for two players; use max^n (or paranoid) for {game.name}"
    if game.has_chance:
        return f"{game.name} has dice: use expectimax or MCTS"
    return ""


def _maxn_problem(game: Game[Any]) -> str:
    if game.num_players < 3:
        return f"max^n is for games of three or more players; {game.name} has {game.num_players}"
    return ""


def _fits_any(game: Game[Any]) -> str:
    return ""


@dataclass(frozen=True)
class Algorithm:
    id: str  # what a bot profile stores
    label: str  # what people read
    summary: str
    options: type[SearchOptions]
    fit: Callable[[Game[Any]], str]  # why the algorithm does not fit a game, or ""
    uses_opponent_model: bool = False
    counts_iterations: bool = False  # capped by ``max_iterations`` (others by ``max_depth``)

    def problem(self, game: Game[Any]) -> str:
        """Why this algorithm does not fit `game`, in words an admin can act on; "" when it does."""
        return self.fit(game)

    def supports(self, game: Game[Any]) -> bool:
        return not self.fit(game)

    def options_schema(self) -> list[dict[str, Any]]:
        """The options a profile may set, with their JSON type and default."""
        hints = typing.get_type_hints(self.options)
        common = {f.name for f in dataclasses.fields(SearchOptions)}
        return [
            {"name": f.name, **_json_type(hints[f.name]), "default": f.default}
            for f in dataclasses.fields(self.options)
            if f.name not in common
        ]

    def to_json(self, games: list[Game[Any]]) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "summary": self.summary,
            "options": self.options_schema(),
            "uses_opponent_model": self.uses_opponent_model,
            "counts_iterations": self.counts_iterations,
            "games": [game.id for game in games if self.supports(game)],
        }


JSON_TYPES: dict[Any, str] = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}


def _json_type(hint: Any) -> dict[str, Any]:
    """``{"type": "integer | null"}``, with ``"choices"`` for a closed set of strings."""
    if typing.get_origin(hint) is Literal:
        return {"type": "string", "choices": list(typing.get_args(hint))}
    args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    return {"type": " | ".join(JSON_TYPES[a] for a in args)}


ALGORITHMS: dict[str, Algorithm] = {
    a.id: a
    for a in (
        Algorithm(
            "alphabeta",
            "alpha-beta",
            "Looks a fixed number of moves ahead, assuming the best reply (two players, no dice).",
            AlphaBetaOptions,
            _alphabeta_problem,
        ),
        Algorithm(
            "expectimax",
            "expectimax",
            "Looks ahead through the dice, weighing each roll by its chance and the opponent by a model.",
            ExpectimaxOptions,
            _fits_any,
            uses_opponent_model=True,
        ),
        Algorithm(
            "mcts",
            "MCTS",
            "Plays many quick random games from the position and picks the move that wins most.",
            MctsOptions,
            _fits_any,
            counts_iterations=True,
        ),
        Algorithm(
            "maxn",
            "max^n",
            "With three or more players, each assumed to play for their own score.",
            MaxnOptions,
            _maxn_problem,
        ),
        Algorithm("random", "random", "Plays a legal move at random.", SearchOptions, _fits_any),
    )
}
assert tuple(ALGORITHMS) == ALGORITHM_IDS, "the catalogue lists every algorithm a config may name"

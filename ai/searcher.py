"""What a searcher module declares of itself (docs/design.md §3).

Each searcher module ends with ``SEARCHER = Searcher(...)``: its id (what a bot profile
stores), its label and words for people, its options dataclass, its capabilities, which
games a profile may use it for, and the function that runs it.  `ai.catalogue` lists
the modules; everything else (the dispatch, the admin, the API, adaptive strength,
analysis, the bot page) asks a searcher's capabilities, never its id.
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, Protocol

from ai.budget import Deadline
from ai.types import SearchConfig, SearchOptions, SearchResult
from games.base import Game, S


class Capability(StrEnum):
    """The questions asked of a searcher; the JSON form (the API, the page data) is the value."""

    LOOKS_AHEAD = "looks_ahead"  # searches at all: a time budget, a depth and slips mean something
    FULL_WIDTH = "full_width"  # every move at every node, deepening to `max_depth` plies while time lasts
    EXACT_ROOT = "exact_root"  # gives every root move its exact value when asked (``exact_root``, analysis)
    COUNTS_ITERATIONS = "counts_iterations"  # capped by `max_iterations`; adaptive strength scales those
    OPPONENT_MODEL = "opponent_model"  # takes an `opponent_model`
    CHANCE = "chance"  # plays chance nodes (dice) itself
    MANY_PLAYERS = "many_players"  # plays games of three or more seats itself


class Run(Protocol):
    """A search of any game: the state it is given is that game's own (`Game[S]`, `S`)."""

    def __call__(
        self, game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random, /
    ) -> SearchResult: ...


def _fits_any(game: Game[Any]) -> str:
    return ""


@dataclass(frozen=True)
class Searcher:
    id: str  # what a bot profile stores
    label: str  # what people read
    summary: str  # one line, for players
    run: Run  # called with a position that has two or more legal moves
    options: type[SearchOptions] = SearchOptions
    capabilities: frozenset[Capability] = frozenset()
    fit: Callable[[Game[Any]], str] = _fits_any  # why a profile may not use it for a game, or ""
    how: tuple[str, ...] = ()  # the longer story, a paragraph each, for the bot's page
    words: str = ""  # "It ..." on the bot's page from the API (`server.bots.selectors.how_it_plays`)
    option_words: Mapping[str, str] = field(default_factory=dict)  # replace `words` when that option is on

    def can(self, capability: Capability) -> bool:
        return capability in self.capabilities

    def plays(self, game: Game[Any]) -> bool:
        """Whether it runs on `game` itself (`ai.catalogue.runs_as` picks a stand-in otherwise)."""
        return (not game.has_chance or self.can(Capability.CHANCE)) and (
            game.num_players <= 2 or self.can(Capability.MANY_PLAYERS)
        )

    def problem(self, game: Game[Any]) -> str:
        """Why a profile may not use it for `game`, in words an admin can act on; "" when it may."""
        return self.fit(game)

    def supports(self, game: Game[Any]) -> bool:
        return not self.fit(game)

    def describe(self, options: Mapping[str, Any]) -> str:
        """What it does, for a bot's public page, given the profile's options."""
        return next((w for name, w in self.option_words.items() if options.get(name)), self.words or self.label)

    def options_schema(self) -> list[dict[str, Any]]:
        """The options a profile may set, with their JSON type and default."""
        hints = typing.get_type_hints(self.options)
        common = {f.name for f in dataclasses.fields(SearchOptions)}
        return [
            {"name": f.name, **_json_type(hints[f.name]), "default": f.default}
            for f in dataclasses.fields(self.options)
            if f.name not in common
        ]

    def takes_option(self, name: str) -> bool:
        return any(f.name == name for f in dataclasses.fields(self.options))

    def to_json(self, games: list[Game[Any]]) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "summary": self.summary,
            "options": self.options_schema(),
            "capabilities": sorted(self.capabilities),
            "uses_opponent_model": self.can(Capability.OPPONENT_MODEL),
            "counts_iterations": self.can(Capability.COUNTS_ITERATIONS),
            "games": [game.id for game in games if self.supports(game)],
        }


JSON_TYPES: dict[Any, str] = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}


def _json_type(hint: Any) -> dict[str, Any]:
    """``{"type": "integer | null"}``, with ``"choices"`` for a closed set of strings."""
    if typing.get_origin(hint) is Literal:
        return {"type": "string", "choices": list(typing.get_args(hint))}
    args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    return {"type": " | ".join(JSON_TYPES[a] for a in args)}

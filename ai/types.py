"""Plain data passed into and out of every searcher (docs/design.md §3).

`SearchConfig` says how to search; its ``options`` are the chosen algorithm's option
dataclass, a `SearchOptions` subclass its searcher module declares (`ai.catalogue`).  The
JSON form kept with a bot profile (a dict of option names) is parsed where a config
is built, with a clear error for a name or value the algorithm does not take:

>>> SearchConfig(algorithm="maxn", options={"paranoid": True}).options
MaxnOptions(match_id=None, seat=None, opponent_moves=(), exact_root=False, paranoid=True)
>>> SearchConfig(algorithm="mcts", options={"paranoid": True})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown option 'paranoid' for mcts; known: match_id, seat, ..., rollout, rollout_depth
>>> SearchConfig(options={"tt_size": "big"})
Traceback (most recent call last):
...
ValueError: option 'tt_size' is int, not 'big'

`SearchResult` is what comes back; its ``stats`` is a `SearchStats`, the figures a
searcher adds to the move log and exports (`SearchResult.to_json`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol, TypedDict, TypeVar, runtime_checkable

from games.base import Move, Seat

STYLES: tuple[str, ...] = ("balanced", "aggressive", "defensive")

Options = TypeVar("Options", bound="SearchOptions")


S_contra = TypeVar("S_contra", contravariant=True)  # a game's state, as a split heuristic takes it


@runtime_checkable
class SplitEvaluation(Protocol[S_contra]):
    """A game whose heuristic splits into "my chances" and "their chances" (`ai.evaluation`).

    Both are >= 0 in the scale of ``evaluate``; a play style weighs the two.
    """

    def evaluate_terms(self, state: S_contra, seat: Seat) -> tuple[float, float]: ...


# --- options -------------------------------------------------------------------
@dataclass(frozen=True)
class SearchOptions:
    """The options every searcher takes; the server and the analysis set them, not the profile."""

    match_id: int | str | None = None  # per-match memory in this process: MCTS's tree, expectimax's observations
    seat: int | None = None  # keeps the memories of two bots of one match apart
    opponent_moves: tuple[dict[str, Any], ...] = ()  # ``{"state": <game json>, "move": ...}`` the opponent played
    exact_root: bool = False  # expectimax and max^n: every root move gets its exact value (for analysis)

    @classmethod
    def from_json(cls: type[Options], data: Mapping[str, Any]) -> Options:
        """Options from their JSON form; `ValueError` naming an unknown option or a value of the wrong type."""
        known = {f.name: f for f in dataclasses.fields(cls)}
        hints = typing.get_type_hints(cls)
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise ValueError(f"unknown option {name!r} for {cls.algorithm()}; known: {', '.join(known)}")
            values[name] = _checked(name, value, hints[name])
        return cls(**values)

    @classmethod
    def algorithm(cls) -> str:
        from ai.catalogue import SEARCHERS  # the searchers declare their options (they import this module)

        return next((s.id for s in SEARCHERS if s.options is cls), "every searcher")

    def to_json(self) -> dict[str, Any]:
        """The options set to something other than their default, as JSON."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def carried_to(self, cls: type[Options]) -> Options:
        """These options for another searcher (alpha-beta's config running as expectimax): the common ones."""
        if isinstance(self, cls):
            return self
        common = {f.name: getattr(self, f.name) for f in dataclasses.fields(SearchOptions)}
        return cls(**common)


def _checked(name: str, value: Any, hint: Any) -> Any:
    """`value` if it has the type `hint` allows (ints where floats go; a list for a tuple)."""
    allowed = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    for kind in allowed:
        if kind is type(None) and value is None:
            return value
        origin = typing.get_origin(kind)
        if origin is Literal and value in typing.get_args(kind):
            return value
        if origin is tuple and isinstance(value, list | tuple):
            return tuple(value)
        if kind is bool and isinstance(value, bool):
            return value
        if kind in (int, float) and isinstance(value, int | float) and not isinstance(value, bool):
            if kind is int and not isinstance(value, int):
                continue
            return kind(value) if kind is float else value
        if kind is str and isinstance(value, str):
            return value
    wanted = " or ".join(_type_name(k) for k in allowed)
    raise ValueError(f"option {name!r} is {wanted}, not {value!r}")


def _type_name(kind: Any) -> str:
    if typing.get_origin(kind) is Literal:
        return " or ".join(repr(v) for v in typing.get_args(kind))
    if typing.get_origin(kind) is tuple:
        return "a list"
    return "null" if kind is type(None) else str(getattr(kind, "__name__", kind))


# --- the configuration -----------------------------------------------------------
@dataclass(frozen=True)
class SearchConfig:
    algorithm: str = "alphabeta"
    time_budget_ms: int = 1000
    max_depth: int | None = None
    max_iterations: int | None = None
    slip_rate: float = 0.0  # chance of a human-looking slip instead of the best move
    temperature: float = 0.0  # softmax over root values; 0 picks the best
    style: str = "balanced"
    opponent_model: str | None = None  # for expectimax: "uniform", "epsilon:0.3", ...
    seed: int | None = None
    # The algorithm's options; a mapping (their JSON form) is parsed into them.
    options: SearchOptions = field(default_factory=SearchOptions)

    def __post_init__(self) -> None:
        from ai import catalogue  # the searchers declare their options (they import this module)

        options_type = catalogue.get(self.algorithm).options
        if self.style not in STYLES:
            raise ValueError(f"unknown style {self.style!r}; known: {', '.join(STYLES)}")
        if self.time_budget_ms <= 0:
            raise ValueError("time_budget_ms must be positive")
        object.__setattr__(self, "options", _parsed_options(self.algorithm, options_type, self.options))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SearchConfig:
        """A config from its JSON form (what a bot profile stores, `to_json`'s output)."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown search setting {unknown[0]!r}; known: {', '.join(sorted(known))}")
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["options"] = self.options.to_json()
        return out


def _parsed_options(
    algorithm: str, cls: type[SearchOptions], options: SearchOptions | Mapping[str, Any] | None
) -> SearchOptions:
    if options is None or isinstance(options, Mapping):
        return cls.from_json(options or {})
    if type(options) is SearchOptions:
        return options.carried_to(cls)
    if not isinstance(options, cls):
        raise ValueError(f"{algorithm} takes {cls.__name__}, not {type(options).__name__}")
    return options


# --- the result ------------------------------------------------------------------
class SearchStats(TypedDict, total=False):
    """What a search adds to the move's figures; each searcher fills its own part."""

    # every searcher
    seed: int | None
    requested: str  # the algorithm asked for, when the game made another one run (`ai.search`)
    forced: bool  # one legal move: nothing was searched
    fallback_from: str  # a searcher's illegal move, replaced (never expected)
    choice: str  # a weakened pick: "best", "slip" or "temperature" (`ai.weakening`)
    best_move: str  # the move the search preferred, when the weakened pick is another
    root_values: dict[Move, float]
    source: str  # a move no search chose: "book" (an opening book) or "tablebase" (an endgame table)
    book_share: float  # a book move's weight over the weights of the position's book moves
    cube: dict[str, Any]  # a doubling-cube decision (`ai.cube`): the move and the equities behind it
    # alpha-beta
    score: float
    plies_to_end: int
    complete: bool  # every line reached the end of the game
    kernel: str
    tt_hit_rate: float
    trap: dict[str, Any]
    exact: str  # perfect play: "opening", "solved" or "won"
    exact_score: int
    move_scores: dict[Move, int]
    # expectimax
    opponent_model: dict[str, Any]
    # max^n
    paranoid: bool
    root_vectors: dict[Move, list[float]]
    # MCTS
    iterations: int
    reused_visits: int
    visits: dict[Move, int]
    values: dict[Move, float]
    c: float


@dataclass
class SearchResult:
    move: str
    value: float = 0.0  # for the seat to move, in the game's utility scale
    depth: int = 0
    nodes: int = 0
    elapsed_ms: float = 0.0
    pv: list[str] = field(default_factory=list)
    algorithm: str = "random"
    stats: SearchStats = field(default_factory=lambda: SearchStats())

    def to_json(self) -> dict[str, Any]:
        """JSON-safe figures for move logs and exports."""
        elapsed_s = self.elapsed_ms / 1000
        return {
            "algorithm": self.algorithm,
            "move": self.move,
            "value": round(self.value, 6),
            "depth": self.depth,
            "nodes": self.nodes,
            "nps": int(self.nodes / elapsed_s) if elapsed_s > 0 else 0,
            "elapsed_ms": round(self.elapsed_ms, 3),
            "pv": list(self.pv),
            **self.stats,
        }

"""Optional fast paths a game offers the searchers (docs/design.md §2, §3).

The Game API in `games.base` is enough for every searcher.  A game may also offer
faster ways to do what the searchers do anyway, on its own internal encoding; each is
a small protocol here, returned by a `Game` method that answers None when the game has
none:

- `Game.fast_playout()` -> `Playout`: a whole MCTS rollout in one call;
- `Game.new_solver()` -> `Solver`: exact values (endgames, ``ai.solve``);
- `Game.opening_move(state)`: a proven book move;
- `Game.search_kernel()` -> `SearchKernel`: alpha-beta's negamax on the game's encoding;
- `Game.search_engine()` -> `SearchEngine`: a whole alpha-beta search of the game's own
  (its evaluation, ordering and pruning), what ``AlphaBetaOptions.engine`` asks for.

Games never import ``ai``: what a kernel needs from the searcher that drives it (its
tables, its clock, its score scale, its evaluation weights) comes in a `KernelSetup`,
and the kernel reports back with a `KernelTally`.  The driver is ``ai.kernel_search``.
A kernel must compute exactly what the generic search computes, node for node; where
it cannot (a subclass changed the evaluation, say) `SearchKernel.supports` says no.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from games.base import Game, Move, Seat

# The transposition table's layout, as the searcher keeps it: a list of slots, each None
# or ``(key, depth, bound, score, move, age)``, indexed by ``key & mask``.
EXACT: Final = 0
LOWER: Final = 1  # the true value is at least the score (a fail high)
UPPER: Final = 2  # the true value is at most the score (a fail low)
NO_MOVE: Final = -1  # a move code meaning none (killers not yet set, a leaf's best move)


class Playout(Protocol):
    """Play `state` out to the end; one reward in [0, 1] per seat, or None to decline.

    `heuristic` asks for the game's rollout policy (`Game.rollout_move`) rather than
    uniform random moves.
    """

    def __call__(self, state: Any, rng: random.Random, heuristic: bool) -> list[float] | None: ...


class Solver(Protocol):
    """Exact game-theoretic scores for the seat to move, in the game's own convention.

    Positive when the side to move wins, 0 a draw; a game may grade wins (sooner is
    larger).  Keeps its tables between calls.  `deadline` is a `time.monotonic()`
    instant or None; past it a call raises `TimeoutError`.  `nodes` counts the work.
    """

    nodes: int
    deadline: float | None

    def solve_state(self, state: Any, weak: bool = False) -> int:
        """The exact score of a live `state`, or with `weak` only its sign."""
        ...

    def move_scores(self, state: Any) -> dict[Move, int]:
        """The exact score of every legal move, for the seat to move."""
        ...

    def wins(self, state: Any) -> bool:
        """Whether the seat to move at a live `state` can force a win: one null-window probe,
        cheaper than a weak solve (which also tells a draw from a loss)."""
        ...


@dataclass(frozen=True)
class ScoreScale:
    """How the driving search scores positions, which a kernel must reproduce."""

    win: float  # a won terminal scores utility * win minus the plies it took
    decisive: float  # scores beyond this are proven results
    complete: int  # the table depth of a subtree searched to the end of the game
    null_width: float  # the width of a null window


@dataclass(frozen=True)
class StyleWeights:
    """The evaluator's play style: weights on "my chances" and "theirs", and draw contempt."""

    balanced: bool  # the plain evaluation, no weighting
    mine: float
    theirs: float
    limit: float  # weighted values are clipped to (-limit, limit)
    draw_value: float  # a draw, for the seat that searches


@dataclass
class KernelSetup:
    """What one pass of a kernel reads from the searcher that drives it.

    `killers` (two move codes per ply) and `history` (a count per move code) belong to
    the searcher and persist between passes; the kernel updates them in place.  `stop()`
    is called every so often and raises to abandon the search.
    """

    slots: list[Any] | None  # the transposition table's slots, or None without one
    table_mask: int
    table_age: int
    killers: list[list[int]]
    history: list[int]
    stop: Callable[[], None]
    style: StyleWeights
    scale: ScoreScale
    root_seat: Seat
    nodes: int  # the searcher's count so far; the kernel counts on from it
    depth_cut: bool


@dataclass(frozen=True)
class KernelTally:
    """What a pass did: the node count and depth-cut flag to write back, and table traffic."""

    nodes: int
    depth_cut: bool
    probes: int
    hits: int
    stores: int


class KernelPass(Protocol):
    """One pass of a kernel, bound to a `KernelSetup`; `finish()` once, also after a raise."""

    def negamax(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Fail-soft value of the live `state` for the seat to move, ``depth >= 1``."""
        ...

    def search_root(
        self, state: Any, depth: int, moves: list[Move], exact_all: bool, root_values: dict[Move, float]
    ) -> tuple[Move, float]:
        """One principal-variation-search iteration over the root `moves`, in order."""
        ...

    def finish(self) -> KernelTally: ...


class SearchKernel(Protocol):
    """A game's alpha-beta negamax on its internal encoding (``ai.kernel_search`` drives it)."""

    name: str  # recorded in the search's stats
    move_codes: int  # moves are coded 0 .. move_codes - 1 in killers, history and the table

    def supports(self, game: Game[Any], state: Any) -> bool:
        """True where the kernel computes exactly what the generic search would."""
        ...

    def start(self, setup: KernelSetup) -> KernelPass: ...

    def move_text(self, state: Any, code: int) -> Move | None:
        """The move string of a move code stored in the table, or None if not legal in `state`."""
        ...


@dataclass(frozen=True)
class EngineResult:
    """What a `SearchEngine` found: scores on the searcher's `ScoreScale` for the seat to move."""

    move: Move
    score: float  # a heuristic value in (-max_utility, max_utility), or a proven one beyond `scale.decisive`
    depth: int  # the deepest iteration finished (0: none; the move is the first one ordered)
    nodes: int
    pv: list[Move]  # the expected line, `move` first


class SearchEngine(Protocol):
    """A game's complete alpha-beta search (iterative deepening to a depth or a deadline)."""

    name: str  # recorded in the search's stats

    def supports(self, game: Game[Any], state: Any) -> bool:
        """True where the engine searches this game and position (an unchanged evaluation, say)."""
        ...

    def search(
        self, state: Any, scale: ScoreScale, deadline: float | None, max_depth: int, max_nodes: int = 0
    ) -> EngineResult:
        """The best move of `state` (two or more legal moves): `deadline` a time.monotonic() instant
        or None, `max_nodes` a cap on nodes (0: none)."""
        ...

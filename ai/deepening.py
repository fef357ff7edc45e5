"""Iterative deepening under a deadline, one driver for alpha-beta, expectimax and max^n (docs/design.md §3).

A searcher gives the driver one iteration at a time: "search the root moves in this
order to this depth, writing each move's value as it is known".  The driver runs
depth 1, 2, ... until the deadline (`Timeout`), the depth limit, or the searcher says
that deeper changes nothing; it keeps the result of the last finished iteration, and
of an unfinished one what can be trusted.

>>> from ai.types import SearchResult
>>> class Toy:
...     nodes, depth_cut = 0, False
...     def iterate(self, depth, moves, values):
...         self.depth_cut = True  # a line stopped at the depth limit: deeper may change things
...         for move in moves:
...             self.nodes += 1
...             values[move] = depth if move == "b" else 1.0
>>> result = SearchResult(move="a")
>>> deepen(Toy(), result, ["a", "b"], range(1, 4))
{'b': 3, 'a': 1.0}
>>> result.move, result.value, result.depth
('b', 3, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from ai import progress
from ai.budget import Timeout
from ai.types import SearchResult
from games.base import Move

Values = dict[Move, float]


class Iterative(Protocol):
    """What the driver needs of a searcher."""

    nodes: int
    depth_cut: bool  # set by an iteration that stopped somewhere at the depth limit

    def iterate(self, depth: int, moves: list[Move], values: Values) -> None:
        """One iteration over the root moves in order; fills `values`; may raise `Timeout`."""


def by_value(moves: list[Move], best: Move, values: Values) -> list[Move]:
    """The next iteration's order: best first (stable: ties keep the game's order)."""
    return sorted(moves, key=lambda m: -values[m])


def same(score: float) -> float:
    return score


def deepen(
    searcher: Iterative,
    result: SearchResult,
    moves: list[Move],
    depths: Iterable[int],
    *,
    utility: Callable[[float], float] = same,
    reorder: Callable[[list[Move], Move, Values], list[Move]] = by_value,
    finished: Callable[[int, Move, float], bool] | None = None,
    trust_unfinished: bool = True,
) -> Values:
    """Deepen over `depths`, adopting each iteration into `result`; the last finished iteration's values.

    `utility` turns a root score into `result.value`.  `finished(depth, move, score)`, if
    given, hears of each finished iteration after it is adopted and says whether to stop
    (by default: when no line stopped at the depth limit, deeper changes nothing).
    With `trust_unfinished` false an iteration the deadline cuts short changes nothing: the
    result and the values come from one finished iteration (analysis compares them).
    """
    values: Values = {}
    for depth in depths:
        searcher.depth_cut = False
        partial: Values = {}
        try:
            searcher.iterate(depth, moves, partial)
        except Timeout:
            if trust_unfinished:
                adopt_unfinished(result, partial, utility)
            break
        values = partial
        progress.report(depth, searcher.nodes)
        move = max(partial, key=partial.__getitem__)
        result.move, result.value, result.depth, result.pv = move, utility(partial[move]), depth, [move]
        stop = finished(depth, move, partial[move]) if finished is not None else not searcher.depth_cut
        moves = reorder(moves, move, partial)
        if stop:
            break
    return values


def adopt_unfinished(result: SearchResult, partial: Values, utility: Callable[[float], float] = same) -> None:
    """Take from an iteration the deadline cut short what can be trusted.

    The previous best move was searched first, so a move that beat it in the unfinished
    iteration is better still; otherwise the previous result stands.
    """
    if result.depth and result.move in partial:
        move = max(partial, key=partial.__getitem__)
        if partial[move] > partial[result.move]:
            result.move, result.value, result.pv = move, utility(partial[move]), [move]

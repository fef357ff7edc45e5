"""Progress reports from a running search: ``choose_move(..., on_progress=callback)``.

A searcher calls `report` after each completed iteration of iterative deepening
(alpha-beta, expectimax, max^n) and every `MCTS_EVERY` MCTS iterations.  The callback
gets figures only -- ``{"depth", "nodes", "elapsed_ms"}``, plus ``"iterations"`` for
MCTS -- never the move, value or line the search prefers, so a page may show them
while the bot is still thinking.  It runs on the searching thread, inside the budget:
keep it cheap (throttle there), and do not raise from it.

>>> from games import registry
>>> import ai
>>> game = registry.get("tictactoe")
>>> seen = []
>>> _ = ai.choose_move(game, game.initial_state(), ai.SearchConfig(time_budget_ms=200), on_progress=seen.append)
>>> sorted(seen[-1])
['depth', 'elapsed_ms', 'nodes']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

OnProgress = Callable[[dict[str, Any]], None]
MCTS_EVERY = 256  # MCTS iterations between two reports

_listener: ContextVar[tuple[OnProgress, float] | None] = ContextVar("ai_progress", default=None)


@contextmanager
def listening(on_progress: OnProgress | None) -> Iterator[None]:
    """Send the reports of the searches in this block to `on_progress` (None: nowhere)."""
    token = _listener.set((on_progress, time.perf_counter()) if on_progress is not None else None)
    try:
        yield
    finally:
        _listener.reset(token)


def active() -> bool:
    return _listener.get() is not None


def report(depth: int, nodes: int, **more: Any) -> None:
    """Called by searchers with their figures so far; costs one lookup when nobody listens."""
    listener = _listener.get()
    if listener is None:
        return
    on_progress, started = listener
    on_progress(
        {"depth": depth, "nodes": nodes, "elapsed_ms": round((time.perf_counter() - started) * 1000, 1), **more}
    )

"""One search the server runs: plain data in, plain data out, no Django (docs/design.md §4).

Kept free of Django so that the embedded mode can run it in a process pool while Celery
workers and tests run the very same function.  Bot turns (`server.bots.turn`) and
analyses and hints (`server.analysis.positions`) both search through `run_search`.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ai
from games import registry

log = logging.getLogger(__name__)

# Recorded with every bot move as its stats' ``search_version`` (exports: which release of the search chose it).
SEARCH_VERSION = "plyground-ai 0.1"

OnProgress = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class SearchRequest:
    """What to search and within which time: a position of `game` and `ai.SearchConfig` fields.

    Without a `deadline` the search takes its configuration's own budget from its start.
    """

    game: str
    state: dict[str, Any]
    config: dict[str, Any]  # ai.SearchConfig fields
    deadline: float | None = None  # epoch seconds: the search's start plus the budget
    queued_at: float | None = None  # epoch seconds: when it was queued (waiting for a worker is not thinking)
    started_at: float = 0.0  # epoch seconds: when a worker took it (0: when it was queued)
    min_think_ms: int = 0  # a human-like pause: the result is not returned sooner than this
    options: dict[str, Any] | None = None  # the match's game options (`Game.with_options`)


def search(
    game_id: str,
    state: dict[str, Any],
    config: ai.SearchConfig,
    deadline: float | None = None,
    on_progress: OnProgress | None = None,
    options: dict[str, Any] | None = None,
) -> ai.SearchResult:
    """`ai.choose_move` on a position given as JSON.

    Without a `deadline` (analyses, hints) the budget starts in `ai.choose_move`: the
    garbage earlier searches left is collected before it (`run_search` does so for a turn).
    `options` are the match's game options: the game is searched as they configure it.
    """
    if deadline is None:
        ai.collect_between_searches()
    game = registry.get(game_id).with_options(options or {})
    return ai.choose_move(game, game.from_json(state), config, deadline=deadline, on_progress=on_progress)


def run_search(request: SearchRequest, on_progress: OnProgress | None = None) -> tuple[ai.SearchResult, dict[str, Any]]:
    """Search `request` under the budget rules; the result and its figures (JSON-safe).

    The budget runs from the search's start: a wait for a process of a local pool after
    the worker took the request moves the deadline too, and so does the collection of the
    garbage earlier searches left (`ai.budget.collect_between_searches`).  `on_progress`
    hears the search's figures while it runs (`ai.progress`), never its move.
    """
    # What earlier searches left for the collector, collected now that it costs this search
    # none of its time: its budget starts below (and its deadline moves by the wait).
    ai.collect_between_searches()
    started = time.time()
    deadline = request.deadline
    since = request.started_at or request.queued_at
    if deadline is not None and since is not None:
        deadline += max(0.0, started - since)
    config = ai.SearchConfig(**request.config)
    result = search(request.game, request.state, config, deadline, on_progress, request.options)
    pause_until = started + request.min_think_ms / 1000
    if deadline is not None:
        pause_until = min(pause_until, deadline)
    if time.time() < pause_until:
        time.sleep(pause_until - time.time())
    finished = time.time()
    stats = result.to_json()
    stats["budget_ms"] = config.time_budget_ms
    if request.queued_at is not None:
        stats["queued_ms"] = round((started - request.queued_at) * 1000, 1)
    if deadline is not None:
        stats["deadline_slack_ms"] = round((deadline - finished) * 1000, 1)
    # The think time (taken out of a bot move's stats when it is stored): search and pause.
    stats.update(think_ms=round((finished - started) * 1000, 1), seed=config.seed, search_version=SEARCH_VERSION)
    return result, stats


# In a pool process: where its searches' progress goes (the pool's initializer sets it).
_progress_queue: Any = None


def start_search_process(queue: Any, warm_up: bool = True) -> None:
    """The pool's initializer: this process's searches may put their progress on `queue`, and it
    warms up (`warm`) before it takes its first search."""
    global _progress_queue
    _progress_queue = queue
    if warm_up:
        warm()


def progress_queue() -> Any:
    """The queue of this pool process (None outside a pool: in a Celery worker, inline, in tests)."""
    return _progress_queue


def warm() -> None:
    """Get this process ready to search before it takes work: every game's fast paths built and
    searched once (`ai.warm_up`), so the first bot reply is as quick as the next."""
    took = ai.warm_up()
    log.info("search process %d warmed up in %.2f s", os.getpid(), sum(took.values()))


def started() -> None:
    """Nothing: a task that makes the pool start a process (its initializer warms it up)."""

"""The embedded mode's search processes: one pool for bot turns, analyses and hints (docs/design.md §4).

Searches run in these processes, never on the event loop nor in a web request.  What
runs there must be importable without Django (`server.search.job`, `server.bots.turn`,
`server.analysis.positions`); progress comes back on `progress`, a queue the pool's
user drains in the server process.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, wait
from typing import Any

from django.conf import settings

from server.search.job import start_search_process, started

WARM_UP_TIMEOUT_S = 60


class SearchPool:
    """`settings.BOT_POOL_SIZE` spawned processes, their imports done before the first search."""

    _instance: SearchPool | None = None

    def __init__(self, size: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.progress = context.SimpleQueue()
        self.executor = ProcessPoolExecutor(
            size,
            mp_context=context,
            initializer=start_search_process,
            initargs=(self.progress, settings.SEARCH_WARM_UP),
        )

    @classmethod
    def instance(cls) -> SearchPool:
        """The pool, its processes started and their imports done."""
        if cls._instance is None:
            cls._instance = cls(settings.BOT_POOL_SIZE)
            wait(cls._instance.warm_up(), timeout=WARM_UP_TIMEOUT_S)
        return cls._instance

    def warm_up(self) -> list[Future[Any]]:
        """Start the processes now, so the first search pays neither for their imports nor their warm-up."""
        workers: int = self.executor._max_workers  # type: ignore[attr-defined]  # private, not in typeshed
        return [self.executor.submit(started) for _ in range(workers)]

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        return self.executor.submit(fn, *args)

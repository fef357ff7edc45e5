"""Deadlines: every searcher is anytime and checks the clock between steps."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager


class Deadline:
    """A point on the monotonic clock; `expired()` is cheap enough for hot loops."""

    __slots__ = ("at",)

    def __init__(self, at: float) -> None:
        self.at = at

    @classmethod
    def after_ms(cls, ms: float) -> Deadline:
        return cls(time.monotonic() + ms / 1000)

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def remaining_ms(self) -> float:
        return max(0.0, (self.at - time.monotonic()) * 1000)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage-collector pauses inside a search, and none right after it.

    A full collection in a process holding a big heap (a Django worker, a search tree,
    a transposition table) takes tens of milliseconds: longer than a whole step between
    two clock checks.  The collector is off while a search runs (the searchers' own
    structures have no cycles: reference counting frees them).  Leaving, what the search
    left alive is frozen (`gc.freeze`), so the young collection that would otherwise come
    with the next allocation, after the deadline, has nothing to scan; the next search
    unfreezes it again (into the oldest generation, collected as usual), so nothing is
    kept from the collector for longer than one move.  A process that relies on
    `gc.freeze` itself (copy-on-write after a fork) should not run searches.
    """
    enabled = gc.isenabled()
    gc.unfreeze()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.enable()

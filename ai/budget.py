"""Deadlines: every searcher is anytime and checks the clock between steps."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

# The longest step seen between two looks at the clock is kept back from the time left,
# up to this share of the budget: see `Deadline.expired`.
STEP_MARGIN_SHARE: Final = 0.25


class Timeout(Exception):
    """The deadline passed in the middle of a search."""


class Deadline:
    """A point on the monotonic clock; `expired()` is cheap enough for hot loops.

    `expired()` also learns how long a step between two of its calls can take — a step
    of the search, or the time the process sat descheduled on a busy machine — and says
    the deadline has passed once less than the longest such step is left (at most
    `STEP_MARGIN_SHARE` of the budget): the next step is likely to take as long.  On an
    idle machine with short steps this changes nothing.
    """

    __slots__ = ("at", "last", "margin", "max_margin")

    def __init__(self, at: float) -> None:
        self.at = at
        self.last = 0.0  # the previous look at the clock; 0: none yet
        self.margin = 0.0
        self.max_margin = max(0.0, (at - time.monotonic()) * STEP_MARGIN_SHARE)

    @classmethod
    def after_ms(cls, ms: float) -> Deadline:
        return cls(time.monotonic() + ms / 1000)

    def expired(self) -> bool:
        now = time.monotonic()
        if self.last:
            step = now - self.last
            if step > self.margin:
                self.margin = min(step, self.max_margin)
        self.last = now
        return now + self.margin >= self.at

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

"""Deadlines (docs/design.md §3): every searcher is anytime and checks the clock between steps."""

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
    """The deadline passed in the middle of a search: the searcher unwinds to its last finished result."""


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
    with the next allocation, after the deadline, has nothing to scan.  The next search
    unfreezes it, but with the collector off until it freezes it again: a cycle that
    became garbage by then (the caller's, made during a search or just before it) would
    never be collected.  So a process that searches move after move calls
    `collect_between_searches` where no budget runs (`server.search.job` does, before a
    search's clock starts).  A process that relies on `gc.freeze` itself (copy-on-write
    after a fork) should not run searches.
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


# A full collection once what searches froze has grown by this share since the last one:
# CPython's own rule for its oldest generation (a quarter), so the collections' cost (a
# full collection scans every object: benchmarks/README.md, "A worker's memory") follows
# what was allocated, not the number of moves.
FROZEN_GROWTH_SHARE: Final = 0.25

_frozen_after_collection = 0  # objects alive (then frozen) after this process's last full collection


def collect_between_searches() -> bool:
    """A full collection of what searches froze, once it has grown by `FROZEN_GROWTH_SHARE`.

    Call it where a pause costs no search its time: before a search's clock starts.
    What survives is frozen again, as `collector_paused` leaves it.  Returns whether it
    collected.
    """
    global _frozen_after_collection
    if gc.get_freeze_count() <= _frozen_after_collection * (1 + FROZEN_GROWTH_SHARE):
        return False
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _frozen_after_collection = gc.get_freeze_count()
    return True

"""A deadline that tests can count on: a search stopped after so many looks at the clock.

Searchers look at their `Deadline` between steps (`ai.budget`); this one answers by a count,
not the clock, so the same search stops at the same node in every run, on any machine, under
any load.  What a search does with wall-clock time is measured in `benchmarks/budget_overshoot.py`.
"""

from __future__ import annotations

import time

from ai.budget import Deadline

FAR: float = 3600.0  # seconds: what `remaining_ms` reports, so no searcher cuts its own share short


class CountedDeadline(Deadline):
    """Expired from the `looks`-th call of `expired()` on (at once with 0); `looks_taken` counts every call."""

    def __init__(self, looks: int) -> None:
        super().__init__(time.monotonic() + FAR)
        self.looks = looks
        self.looks_taken = 0

    def expired(self) -> bool:
        self.looks_taken += 1
        return self.looks_taken > self.looks

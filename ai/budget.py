"""Deadlines: every searcher is anytime and checks the clock between steps."""

from __future__ import annotations

import time


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

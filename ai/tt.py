"""A bounded transposition table with depth-preferred replacement.

Slots are a fixed-size list indexed by the position key's hash, so memory never
grows past `size` entries.  A slot is overwritten when the new entry was searched
at least as deep, belongs to the same position, or is left over from an earlier
search (`new_search()` ages the table); otherwise the deeper entry stays.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final, TypeAlias

EXACT: Final = 0
LOWER: Final = 1  # the true value is at least `score` (a fail high)
UPPER: Final = 2  # the true value is at most `score` (a fail low)

Entry: TypeAlias = tuple[Hashable, int, int, float, "str | None", int]  # key, depth, flag, score, move, age

DEFAULT_SIZE: Final = 1 << 18


class TranspositionTable:
    __slots__ = ("age", "hits", "mask", "probes", "slots", "stores")

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        size = max(1, size)
        size = 1 << (size - 1).bit_length()  # a power of two, so a mask replaces modulo
        self.mask = size - 1
        self.slots: list[Entry | None] = [None] * size
        self.age = 0
        self.hits = 0
        self.probes = 0
        self.stores = 0

    def __len__(self) -> int:
        return len(self.slots)

    def new_search(self) -> None:
        """Mark every stored entry as old: the next stores may replace them first."""
        self.age += 1

    def probe(self, key: Hashable) -> tuple[int, int, float, str | None] | None:
        """(depth, flag, score, move) stored for `key`, or None."""
        self.probes += 1
        entry = self.slots[hash(key) & self.mask]
        if entry is None or entry[0] != key:
            return None
        self.hits += 1
        return entry[1], entry[2], entry[3], entry[4]

    def store(self, key: Hashable, depth: int, flag: int, score: float, move: str | None) -> None:
        index = hash(key) & self.mask
        old = self.slots[index]
        if old is None or depth >= old[1] or old[5] != self.age:
            if move is None and old is not None and old[0] == key:
                move = old[4]  # keep the best move we knew for this position
            self.slots[index] = (key, depth, flag, score, move, self.age)
            self.stores += 1

    def used(self) -> int:
        return sum(1 for entry in self.slots if entry is not None)

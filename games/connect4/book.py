"""Connect Four's opening book: the proven outcome of every position with `PLY` stones, made by our own solver.

Each entry is one little-endian 64-bit word, ``symmetric key << 2 | (value + 1)``: the
position's key (``current + mask``, `games.connect4.bitboard`), the smaller of its own
and its mirror image's (a position and its mirror share an entry, which halves the book),
and its value for the side to move, 1 a win, 0 a draw, -1 a loss (the sign of the
solver's score: the weak solve, several times cheaper than exact scores).  Sorted by key,
so a look-up is a binary search.  Positions the solver never asks about are left out:
those already won, and those where the side to move wins at once.

The compiled solver reads the book as bounds where its search meets a position with
`PLY` stones, so every position with fewer stones is solved by a search down to the book
(see benchmarks/README.md, "Connect Four opening book": its size, the time to build it
and to solve from its edge).  Built by ``python -m games.connect4.book build``, checked
by re-solving a sample (tests/games/connect4/test_book.py).
"""

from __future__ import annotations

import argparse
import lzma
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from games.connect4.bitboard import BOARD_MASK, BOTTOM, COLUMN_MASK, H1, TOP_MASK, WIDTH, has_four, winning_cells

PATH: Final = Path(__file__).with_name("book.xz")
MAGIC: Final = b"C4BOOK1\n"


def mirror_key(key: int) -> int:
    """The key of the mirror image: the 7-bit columns of `key` in reverse order (a key never
    carries from one column into the next)."""
    out = 0
    for col in range(WIDTH):
        out |= ((key >> (col * H1)) & 127) << ((WIDTH - 1 - col) * H1)
    return out


def symmetric_key(key: int) -> int:
    return min(key, mirror_key(key))


@dataclass(frozen=True)
class Book:
    ply: int
    entries: bytes  # sorted little-endian u64 words, as above

    def __len__(self) -> int:
        return len(self.entries) // 8

    def key_at(self, index: int) -> int:
        return int.from_bytes(self.entries[index * 8 : index * 8 + 8], "little")

    def value(self, current: int, mask: int) -> int | None:
        """The outcome for the side to move of a position with `ply` stones, or None if not in the book."""
        wanted = symmetric_key(current + mask)
        lo, hi = 0, len(self)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.key_at(mid) >> 2 < wanted:
                lo = mid + 1
            else:
                hi = mid
        if lo < len(self) and self.key_at(lo) >> 2 == wanted:
            return (self.key_at(lo) & 3) - 1
        return None


def load(path: Path = PATH) -> Book | None:
    """The book stored at `path`, or None if there is none (the solver then searches without)."""
    if not path.exists():
        return None
    data = lzma.decompress(path.read_bytes())
    if not data.startswith(MAGIC) or (len(data) - len(MAGIC) - 1) % 8:
        raise ValueError(f"{path} is not a Connect Four book")
    return Book(ply=data[len(MAGIC)], entries=data[len(MAGIC) + 1 :])


def save(book: Book, path: Path = PATH) -> None:
    path.write_bytes(lzma.compress(MAGIC + bytes([book.ply]) + book.entries, preset=9 | lzma.PRESET_EXTREME))


def positions(ply: int, prefix: str = "") -> Iterator[tuple[str, int, int]]:
    """``(moves, current, mask)`` of every position with `ply` stones the book holds, one per
    mirror pair, in the order of a depth-first walk (neighbours share their subtrees); with
    `prefix`, only those its moves lead to (a part of the book)."""
    seen: set[int] = set()

    def walk(moves: str, current: int, mask: int) -> Iterator[tuple[str, int, int]]:
        if len(moves) == ply:
            key = symmetric_key(current + mask)
            possible = (mask + BOTTOM) & BOARD_MASK
            if key not in seen and not winning_cells(current, mask) & possible:
                seen.add(key)
                yield moves, current, mask
            return
        for col in range(WIDTH):
            if mask & TOP_MASK[col]:
                continue
            move = (mask + (1 << (col * H1))) & COLUMN_MASK[col]
            if has_four(current | move):
                continue  # the game is over there
            yield from walk(moves + str(col + 1), current ^ mask, mask | move)

    current = mask = 0
    for ch in prefix:
        col = int(ch) - 1
        current, mask = current ^ mask, mask | ((mask + (1 << (col * H1))) & COLUMN_MASK[col])
    yield from walk(prefix, current, mask)


def build(ply: int, prefix: str = "", report_every: int = 1000) -> Book:
    """Solve (weakly) every position of `positions(ply, prefix)` with the compiled solver, no book."""
    from games.connect4 import _solver

    kernel = _solver.Kernel()
    words = []
    started = time.perf_counter()
    for count, (_moves, current, mask) in enumerate(positions(ply, prefix), 1):
        score = kernel.solve(current, mask, ply, -1, 1)  # beyond the window when it is found early
        value = (score > 0) - (score < 0)
        words.append(symmetric_key(current + mask) << 2 | (value + 1))
        if count % report_every == 0:
            print(f"{count} positions, {kernel.nodes:,} nodes, {time.perf_counter() - started:.0f} s", flush=True)
    words.sort()
    return Book(ply=ply, entries=b"".join(w.to_bytes(8, "little") for w in words))


def sample(book: Book, count: int, seed: int) -> list[tuple[int, int, int]]:
    """`count` entries drawn with `seed`: ``(current, mask, value)``, the position rebuilt from its key."""
    rng = random.Random(seed)
    out = []
    for index in rng.sample(range(len(book)), min(count, len(book))):
        word = book.key_at(index)
        current, mask = split_key(word >> 2)
        out.append((current, mask, (word & 3) - 1))
    return out


def split_key(key: int) -> tuple[int, int]:
    """``(current, mask)`` from ``current + mask``: in each column, ``current + mask + 1`` is
    ``current`` with one more bit on top, where the first empty cell is."""
    current = mask = 0
    for col in range(WIDTH):
        column = ((key >> (col * H1)) & 127) + 1
        height = column.bit_length() - 1
        mask |= ((1 << height) - 1) << (col * H1)
        current |= (column ^ (1 << height)) << (col * H1)
    return current, mask


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.connect4.book", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["build", "info"])
    parser.add_argument("--ply", type=int, default=8)
    parser.add_argument("--prefix", default="", help="only the positions these moves lead to")
    parser.add_argument("--out", type=Path, default=PATH)
    args = parser.parse_args(argv)
    if args.command == "build":
        started = time.perf_counter()
        book = build(args.ply, args.prefix)
        save(book, args.out)
        print(f"{len(book)} positions at ply {book.ply} in {time.perf_counter() - started:.0f} s: {args.out}")
    else:
        stored = load(args.out)
        print("no book" if stored is None else f"{len(stored)} positions at ply {stored.ply}")


BOOK: Final = load()

if __name__ == "__main__":
    main(sys.argv[1:])

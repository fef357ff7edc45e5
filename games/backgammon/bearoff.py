"""The one-sided bear-off database: for every home board, how many rolls bearing off takes.

A side with every checker on its home board's six points (or off) bears off alone: its
checkers can no longer meet the other side's.  For each of the 54,264 ways to put up to
15 checkers on six points (`POSITIONS`), the database holds the exact distribution of the
number of rolls to bear them all off, and, for boards of all 15 checkers, of the number of
rolls to bear off the first (what saves a gammon), as GNU Backgammon's one-sided database
does (``makebearoff -o 6``).

Both come from dynamic programming over the 21 rolls: a board's distribution is one roll
plus the mixture, over the rolls, of the distribution after the play that leaves the fewest
rolls expected (the same best play as gnubg's).  Boards are ranked as gnubg ranks them
(`index`: the board's combination of checkers and point separators), so position n here is
position n of ``bearoffdump gnubg_os0.bd -n n``.

``python -m games.backgammon.bearoff build`` computes the tables (1.5 CPU minutes) and writes
`DATABASE_FILE`: each distribution in 1/65535ths as 16-bit integers, xz-compressed (703 kB;
gnubg's ``gnubg_os0.bd`` of the same: 1.47 MB).
The file is read on first use (`database`).

>>> database().expected_rolls((1, 0, 0, 0, 0, 0))
1.0
"""

from __future__ import annotations

import functools
import lzma
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

POINTS: Final = 6  # the home board's points
CHECKERS: Final = 15
POSITIONS: Final = math.comb(CHECKERS + POINTS, POINTS)  # 54,264 boards, the empty one included
WIDTH: Final = 32  # rolls 0..31 kept: no board needs more than 30 (15 checkers on the 6-point and 2-1 every time)
SCALE: Final = 65535  # a probability is stored in 1/65535ths
DATABASE_FILE: Final = Path(__file__).with_name("bearoff.xz")
MAGIC: Final = b"PLYBEAROFF6x15\n"

Home = tuple[int, ...]  # checkers on the 1- to 6-point (index 0 is the 1-point)
Distribution = npt.NDArray[np.float64]  # P(exactly k rolls), k = 0 .. WIDTH - 1

# The 21 distinct rolls, each with its weight among the 36.
ROLLS: Final = tuple((d, d, 1) for d in range(1, 7)) + tuple((a, b, 2) for a in range(1, 7) for b in range(a + 1, 7))


def index(home: Home) -> int:
    """gnubg's rank of a board (``PositionBearoff``): the board as a row of checkers and point
    separators, the rank of the separators' places among all such rows."""
    places = POINTS + CHECKERS
    spot = POINTS - 1 + sum(home)
    bits = 1 << spot
    for n in home[:-1]:
        spot -= n + 1
        bits |= 1 << spot
    rank, left = 0, POINTS
    for k in range(places, 0, -1):
        if k == left:
            break
        if bits >> (k - 1) & 1:
            rank += math.comb(k - 1, left)
            left -= 1
    return rank


def boards(points: int = POINTS, checkers: int = CHECKERS) -> Iterator[Home]:
    """Every board of up to `checkers` checkers on `points` points."""
    if points == 0:
        yield ()
        return
    for n in range(checkers + 1):
        for rest in boards(points - 1, checkers - n):
            yield (n, *rest)


def pips(home: Home) -> int:
    return sum((p + 1) * n for p, n in enumerate(home))


def after_die(home: Home, die: int) -> set[Home]:
    """The boards one die can leave: a checker moves `die` pips down or off, exactly or, from the
    highest point when none is higher, with a larger die.  An empty board stays empty."""
    highest = max((p for p in range(POINTS) if home[p]), default=-1)
    if highest < 0:
        return {home}
    found = set()
    for p in range(highest + 1):
        if home[p] and (p + 1 >= die or p == highest):
            board = list(home)
            board[p] -= 1
            if p + 1 > die:
                board[p - die] += 1
            found.add(tuple(board))
    return found


def after_roll(home: Home, a: int, b: int) -> set[Home]:
    """The boards a roll can leave.  In a bear-off every die can be played while a checker is left,
    so both dice (four on a double) are played in either order."""
    if a == b:
        found = {home}
        for _ in range(4):
            found = {board for start in found for board in after_die(start, a)}
        return found
    return {c for first, second in ((a, b), (b, a)) for m in after_die(home, first) for c in after_die(m, second)}


def build() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(rolls to bear off, rolls to bear off the first checker), one row per board by `index`,
    each the distribution under the play leaving the fewest rolls expected (for the first
    checker, the fewest expected to the first checker off)."""
    order = sorted(boards(), key=lambda home: (pips(home), home))  # every play lowers the pips
    rank = {home: index(home) for home in order}
    off = np.zeros((POSITIONS, WIDTH))
    first = np.zeros((POSITIONS, WIDTH))
    mean_off = np.zeros(POSITIONS)
    mean_first = np.zeros(POSITIONS)
    for home in order:
        row = rank[home]
        if sum(home) < CHECKERS:  # a checker is off already (the empty board: all of them)
            first[row, 0] = 1.0
        if not sum(home):
            off[row, 0] = 1.0
            continue
        for a, b, weight in ROLLS:
            after = [rank[board] for board in after_roll(home, a, b)]
            best = min(after, key=lambda r: (mean_off[r], r))
            off[row, 1:] += weight * off[best, :-1]
            if sum(home) == CHECKERS:
                best = min(after, key=lambda r: (mean_first[r], r))
                first[row, 1:] += weight * first[best, :-1]
        off[row] /= 36
        mean_off[row] = off[row] @ np.arange(WIDTH)
        if sum(home) == CHECKERS:
            first[row] /= 36
            mean_first[row] = first[row] @ np.arange(WIDTH)
    return off, first


def encode(off: npt.NDArray[np.float64], first: npt.NDArray[np.float64]) -> bytes:
    """The file's bytes: `MAGIC`, then both tables in 1/65535ths (little-endian 16-bit), xz-compressed."""
    tables = np.concatenate([off, first]).clip(0.0, 1.0)
    return lzma.compress(MAGIC + np.rint(tables * SCALE).astype("<u2").tobytes(), preset=9 | lzma.PRESET_EXTREME)


def decode(data: bytes) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    try:
        data = lzma.decompress(data)
    except lzma.LZMAError as error:
        raise ValueError("not a bear-off database of this format") from error
    if not data.startswith(MAGIC):
        raise ValueError("not a bear-off database of this format")
    raw = np.frombuffer(data[len(MAGIC) :], dtype="<u2").astype(np.float64)
    tables = raw.reshape(2 * POSITIONS, WIDTH)
    tables /= tables.sum(axis=1, keepdims=True)  # each row exactly a distribution again
    return tables[:POSITIONS], tables[POSITIONS:]


class Database:
    """The two tables, by board, kept as P(at least k rolls) in single precision (14 MB in all),
    what the race's sums use; each table's means and variances beside them."""

    def __init__(self, off: npt.NDArray[np.float64], first: npt.NDArray[np.float64]) -> None:
        rolls = np.arange(WIDTH)
        self.off_means = off @ rolls
        self.off_vars = off @ rolls**2 - self.off_means**2
        self.first_means = first @ rolls
        self.first_vars = first @ rolls**2 - self.first_means**2
        self.off_at_least = _at_least(off)
        self.first_at_least = _at_least(first)

    @property
    def off(self) -> npt.NDArray[np.float64]:
        """[board, k] = P(bearing every checker off takes exactly k rolls)."""
        return _exactly(self.off_at_least)

    @property
    def first(self) -> npt.NDArray[np.float64]:
        """[board, k] = P(the first checker comes off at roll k); at roll 0 when one is off already."""
        return _exactly(self.first_at_least)

    def rolls(self, home: Home) -> Distribution:
        """P(bearing every checker of `home` off takes exactly k rolls), k = 0 .. 31."""
        return _exactly(self.off_at_least[index(home)])

    def first_off(self, home: Home) -> Distribution:
        """P(the first checker of `home` comes off at roll k); at roll 0 when one is off already."""
        return _exactly(self.first_at_least[index(home)])

    def expected_rolls(self, home: Home) -> float:
        return float(self.off_means[index(home)])


def _at_least(table: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
    """[board, k] = P(at least k rolls): 1 minus the cumulative sum before k."""
    return np.asarray(1.0 - (np.cumsum(table, axis=-1) - table), dtype=np.float32)


def _exactly(at_least: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    wide = at_least.astype(np.float64)
    beyond = np.zeros((*wide.shape[:-1], 1))
    return np.asarray(wide - np.concatenate((wide[..., 1:], beyond), axis=-1), dtype=np.float64)


@functools.cache
def database() -> Database:
    """The database, read from `DATABASE_FILE` on first use (about 0.1 s)."""
    return Database(*decode(DATABASE_FILE.read_bytes()))


def main(argv: list[str]) -> None:
    if argv[1:] != ["build"]:
        raise SystemExit("usage: python -m games.backgammon.bearoff build")
    DATABASE_FILE.write_bytes(encode(*build()))
    print(f"{DATABASE_FILE}: {DATABASE_FILE.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv)

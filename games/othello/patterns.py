"""A pattern evaluation of Othello positions, as Logistello and Edax have it.

The board is read through 46 lines and blocks of squares (`PATTERNS`: each edge with its two
X-squares, the 2x5 and 3x3 corner blocks, the second to fourth rows and columns, the diagonals
of four to eight squares).  Each arrangement of a pattern's squares (empty, the mover's, the
opponent's: a base-3 number, its *index*) has a weight in discs, one table per pattern shape
shared by the shape's copies around the board, and one set of tables per game phase
(`PHASES`, by the number of discs on the board).  The value adds the 46 weights, a weight for
each side's number of legal moves and a constant: the final disc difference the position
promises the mover, as fitted by least squares on positions of games scored by the exact
solver (``benchmarks/othello_patterns.py``, which also says how well it predicts).

`evaluate` (the game's evaluation named ``"patterns"``, the Master's) uses it from `FROM_DISCS`
discs on, where its labels are the solver's or close to them; earlier positions keep the
hand-written evaluation, which beat the early phases in play.

The weights (``patterns.bin.xz``, int16 in 1/`UNIT` discs) are read at import; arrangements that
are mirror images of each other share a weight, so a position and its eight reflections and
rotations get the same value.

Speed: the evaluation runs at every leaf of the Master's search.  The indices of all 46 patterns
come from one sum of eight table entries per side (`_ROW_TABLE`): each entry packs, for one
row's eight squares, what they add to every pattern's index, 32 bits a pattern, with each
pattern's place in the flat weight table added in (`_BASE`); `pattern_indices` is the plain
reference the tests compare it with.

>>> from games.othello import OTHELLO
>>> start = OTHELLO.initial_state()
>>> abs(disc_value(*start.own_opp())) < 4
True
"""

from __future__ import annotations

import lzma
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final, TypeAlias

from games.base import Seat
from games.othello.rules import OTHELLO, Bitboard, OthelloState, Square, move_mask

Pattern: TypeAlias = tuple[Square, ...]

WEIGHTS_FILE: Final = Path(__file__).with_name("patterns.bin.xz")
UNIT: Final = 128  # a stored weight of 128 is one disc
PHASE_DISCS: Final = 5  # a phase spans this many disc counts: 4-8 discs, 9-13, ... 59-64
PHASES: Final = 12
# Before this many discs the search's leaves get the hand-written evaluation (`Othello.evaluate`):
# the early phases, fitted on the results of noisy games far ahead, lost to it (benchmarks/README.md).
FROM_DISCS: Final = 40


def _square(r: int, c: int) -> Square:
    return r * 8 + c


# The shapes, each as its squares in the a1 corner or along the top edge (row, column).
SHAPES: Final[dict[str, tuple[tuple[int, int], ...]]] = {
    "edge_x": tuple((0, c) for c in range(8)) + ((1, 1), (1, 6)),
    "corner_2x5": tuple((r, c) for r in range(2) for c in range(5)),
    "corner_3x3": tuple((r, c) for r in range(3) for c in range(3)),
    "row_2": tuple((1, c) for c in range(8)),
    "row_3": tuple((2, c) for c in range(8)),
    "row_4": tuple((3, c) for c in range(8)),
    "diagonal_8": tuple((i, i) for i in range(8)),
    "diagonal_7": tuple((i, i + 1) for i in range(7)),
    "diagonal_6": tuple((i, i + 2) for i in range(6)),
    "diagonal_5": tuple((i, i + 3) for i in range(5)),
    "diagonal_4": tuple((i, i + 4) for i in range(4)),
}

# The eight symmetries of the board, on (row, column).
SYMMETRIES: Final[tuple[Callable[[int, int], tuple[int, int]], ...]] = (
    lambda r, c: (r, c),
    lambda r, c: (r, 7 - c),
    lambda r, c: (7 - r, c),
    lambda r, c: (7 - r, 7 - c),
    lambda r, c: (c, r),
    lambda r, c: (c, 7 - r),
    lambda r, c: (7 - c, r),
    lambda r, c: (7 - c, 7 - r),
)


def _copies(shape: tuple[tuple[int, int], ...]) -> list[Pattern]:
    """The shape's images under the symmetries, one per set of squares, its squares in the image's order."""
    seen: set[frozenset[Square]] = set()
    out: list[Pattern] = []
    for sym in SYMMETRIES:
        squares = tuple(_square(*sym(r, c)) for r, c in shape)
        if frozenset(squares) not in seen:
            seen.add(frozenset(squares))
            out.append(squares)
    return out


SHAPE_NAMES: Final = tuple(SHAPES)
SHAPE_SIZES: Final = tuple(3 ** len(SHAPES[name]) for name in SHAPE_NAMES)
SHAPE_OFFSETS: Final = tuple(sum(SHAPE_SIZES[:i]) for i in range(len(SHAPE_NAMES)))
PATTERN_WEIGHTS: Final = sum(SHAPE_SIZES)  # entries of a phase's pattern tables
MOBILITY_OWN: Final = PATTERN_WEIGHTS  # then the weight of each of the mover's legal moves,
MOBILITY_OPP: Final = PATTERN_WEIGHTS + 1  # of each of the opponent's,
BIAS: Final = PATTERN_WEIGHTS + 2  # and the constant
PHASE_WEIGHTS: Final = PATTERN_WEIGHTS + 3

# Every pattern on the board: (shape number, squares); a pattern's index reads its squares as
# base-3 digits, the first square the lowest: 0 empty, 1 the mover's disc, 2 the opponent's.
PATTERNS: Final[tuple[tuple[int, Pattern], ...]] = tuple(
    (shape, squares) for shape, name in enumerate(SHAPE_NAMES) for squares in _copies(SHAPES[name])
)


def phase(own: Bitboard, opp: Bitboard) -> int:
    """The phase of a position: its discs, 4-8 the first, 59-64 the last."""
    return min(PHASES - 1, ((own | opp).bit_count() - 4) // PHASE_DISCS)


def pattern_indices(own: Bitboard, opp: Bitboard) -> list[int]:
    """Each pattern's index into its shape's table (the reference `_flat_indices` is checked against)."""
    out = []
    for _, squares in PATTERNS:
        index = 0
        for i, sq in enumerate(squares):
            index += 3**i * (1 if own >> sq & 1 else 2 if opp >> sq & 1 else 0)
        out.append(index)
    return out


def _row_tables() -> tuple[tuple[int, ...], ...]:
    """For each row and each byte of it: its squares' share of every pattern's index, 32 bits a pattern."""
    tables = []
    for row in range(8):
        entries = []
        for byte in range(256):
            packed = 0
            for k, (_, squares) in enumerate(PATTERNS):
                share = sum(3**i for i, sq in enumerate(squares) if sq // 8 == row and byte >> (sq % 8) & 1)
                packed |= share << (32 * k)
            entries.append(packed)
        tables.append(tuple(entries))
    return tuple(tables)


_ROW_TABLE: Final = _row_tables()
_BASE: Final = sum(SHAPE_OFFSETS[shape] << (32 * k) for k, (shape, _) in enumerate(PATTERNS))
_PACKED_BYTES: Final = 4 * len(PATTERNS)


def _packed(b: Bitboard) -> int:
    r0, r1, r2, r3, r4, r5, r6, r7 = _ROW_TABLE
    return (
        r0[b & 255]
        + r1[b >> 8 & 255]
        + r2[b >> 16 & 255]
        + r3[b >> 24 & 255]
        + r4[b >> 32 & 255]
        + r5[b >> 40 & 255]
        + r6[b >> 48 & 255]
        + r7[b >> 56]
    )


def _flat_indices(own: Bitboard, opp: Bitboard) -> memoryview:
    """Every pattern's place in a phase's flat weight table (its shape's offset plus its index)."""
    packed = _BASE + _packed(own) + 2 * _packed(opp)
    return memoryview(packed.to_bytes(_PACKED_BYTES, "little")).cast("I")


def load_weights(path: Path = WEIGHTS_FILE) -> tuple[array[int], ...]:
    """The fitted weights, one flat int16 table a phase; all zero when the file is missing."""
    if not path.exists():
        return tuple(array("h", bytes(2 * PHASE_WEIGHTS)) for _ in range(PHASES))
    data = array("h", lzma.decompress(path.read_bytes()))
    if len(data) != PHASES * PHASE_WEIGHTS:
        raise ValueError(f"{path.name} holds {len(data)} weights, not {PHASES} phases of {PHASE_WEIGHTS}")
    return tuple(data[p * PHASE_WEIGHTS : (p + 1) * PHASE_WEIGHTS] for p in range(PHASES))


WEIGHTS: Final = load_weights()


def disc_value(own: Bitboard, opp: Bitboard, weights: Sequence[array[int]] = WEIGHTS) -> float:
    """The final disc difference the position promises the mover (`own` to move), as fitted.

    A finished game (neither side can move) gets its disc difference.
    """
    mine, theirs = move_mask(own, opp).bit_count(), move_mask(opp, own).bit_count()
    if not mine and not theirs:
        return float(own.bit_count() - opp.bit_count())
    return _fitted(own, opp, mine, theirs, weights)


def _fitted(own: Bitboard, opp: Bitboard, mine: int, theirs: int, weights: Sequence[array[int]]) -> float:
    table = weights[min(PHASES - 1, ((own | opp).bit_count() - 4) // PHASE_DISCS)]
    packed = _BASE + _packed(own) + 2 * _packed(opp)
    total: int = sum(map(table.__getitem__, memoryview(packed.to_bytes(_PACKED_BYTES, "little")).cast("I")))
    return float(total + table[MOBILITY_OWN] * mine + table[MOBILITY_OPP] * theirs + table[BIAS]) / UNIT


def evaluate(state: OthelloState, seat: Seat) -> float:
    """`disc_value` for `seat` on `Othello.evaluate`'s scale: discs / 64, within (-0.95, 0.95); a finished
    game +-0.99 (0 a draw)."""
    own, opp = state.own_opp()
    if (own | opp).bit_count() < FROM_DISCS:
        return OTHELLO.evaluate(state, seat)
    mine, theirs = move_mask(own, opp).bit_count(), move_mask(opp, own).bit_count()
    if not mine and not theirs:
        diff = own.bit_count() - opp.bit_count()
        value = 0.0 if diff == 0 else (0.99 if diff > 0 else -0.99)
        return value if state.seat == seat else -value
    value = max(-0.95, min(0.95, _fitted(own, opp, mine, theirs, WEIGHTS) / 64))
    return value if state.seat == seat else -value

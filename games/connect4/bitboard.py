"""Connect Four's bitboards: the layout, its masks and line tricks, computed once here.

The layout of Pons' solver: bit ``col * 7 + row``, row 0 at the bottom, one spare bit on
top of each column so that shifts never carry a line from one column into the next.  A
position is ``(current, mask, moves)``: the stones of the seat to move, all stones, and
how many were played.  The rules (`games.connect4.rules`), the solver, the search
kernel and the playouts all read these tables.

>>> has_four(bit(0, 0) | bit(1, 0) | bit(2, 0) | bit(3, 0))
True
>>> winning_cells(bit(0, 0) | bit(1, 0) | bit(2, 0), bit(0, 0) | bit(1, 0) | bit(2, 0)) == bit(3, 0)
True
"""

from __future__ import annotations

from typing import Final, TypeAlias

Bitboard: TypeAlias = int
Column: TypeAlias = int  # 0..6 from the left

WIDTH: Final = 7
HEIGHT: Final = 6
H1: Final = HEIGHT + 1
CELLS: Final = WIDTH * HEIGHT
BOTTOM_MASK: Final[tuple[Bitboard, ...]] = tuple(1 << (c * H1) for c in range(WIDTH))
TOP_MASK: Final[tuple[Bitboard, ...]] = tuple(1 << (c * H1 + HEIGHT - 1) for c in range(WIDTH))
COLUMN_MASK: Final[tuple[Bitboard, ...]] = tuple(((1 << HEIGHT) - 1) << (c * H1) for c in range(WIDTH))
BOARD_MASK: Final[Bitboard] = sum(COLUMN_MASK)
BOTTOM: Final[Bitboard] = sum(BOTTOM_MASK)  # the bottom cell of every column
TOP_ROW: Final[Bitboard] = sum(TOP_MASK)  # the top cell of every column: set in `mask` when it is full
CENTRE_FIRST: Final[tuple[Column, ...]] = (3, 2, 4, 1, 5, 0, 6)
COLUMN_MASKS_CENTRE_FIRST: Final[tuple[Bitboard, ...]] = tuple(COLUMN_MASK[c] for c in CENTRE_FIRST)
# Shifts of the four line directions: vertical, horizontal, and the two diagonals.
DIRECTIONS: Final = (1, H1, H1 - 1, H1 + 1)


def bit(col: Column, row: int) -> Bitboard:
    return 1 << (col * H1 + row)


def _windows() -> tuple[Bitboard, ...]:
    """Every set of four cells in a line: the 69 ways to win."""
    out = []
    for col in range(WIDTH):
        for row in range(HEIGHT):
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(col + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < WIDTH and 0 <= r < HEIGHT for c, r in cells):
                    out.append(sum(bit(c, r) for c, r in cells))
    return tuple(out)


WINDOWS: Final = _windows()


def has_four(stones: Bitboard) -> bool:
    """True if `stones` hold four in a line in any direction."""
    for shift in DIRECTIONS:
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def winning_cells(stones: Bitboard, mask: Bitboard) -> Bitboard:
    """Empty cells that would complete four in a line for `stones`.

    Unrolled for speed (the solver and the playouts call it at every node); the search
    kernel and the solver's closure inline the same lines, unmasked.
    """
    # vertical
    r = (stones << 1) & (stones << 2) & (stones << 3)
    # horizontal (shift 7)
    p = (stones << 7) & (stones << 14)
    r |= p & (stones << 21)
    r |= p & (stones >> 7)
    p = (stones >> 7) & (stones >> 14)
    r |= p & (stones << 7)
    r |= p & (stones >> 21)
    # diagonal (shift 6)
    p = (stones << 6) & (stones << 12)
    r |= p & (stones << 18)
    r |= p & (stones >> 6)
    p = (stones >> 6) & (stones >> 12)
    r |= p & (stones << 6)
    r |= p & (stones >> 18)
    # anti-diagonal (shift 8)
    p = (stones << 8) & (stones << 16)
    r |= p & (stones << 24)
    r |= p & (stones >> 8)
    p = (stones >> 8) & (stones >> 16)
    r |= p & (stones << 8)
    r |= p & (stones >> 24)
    return r & (BOARD_MASK ^ mask)


def drop(mask: Bitboard, col: Column) -> Bitboard:
    """The cell a stone dropped in `col` lands on."""
    return (mask + BOTTOM_MASK[col]) & COLUMN_MASK[col]

"""Connect Four, as a package (docs/design.md §2).

- `rules`: the Game, its notation (columns "1".."7") and its state;
- `bitboard`: the board layout, its masks and line tricks, computed once;
- `spec`: display name, seats, board module and seeded bot ladder;
- the fast paths the searchers may use (`games.hooks`): `solver` (exact values, after
  Pons; its search compiled in `_solver.c` where built), `kernel` (alpha-beta's negamax on
  the bitboards), `playout` (MCTS rollouts);
- `book`: the opening book's format, builder and loader (the solver reads it where present).
"""

from games.connect4.bitboard import (
    BOARD_MASK,
    BOTTOM,
    BOTTOM_MASK,
    CELLS,
    CENTRE_FIRST,
    COLUMN_MASK,
    DIRECTIONS,
    H1,
    HEIGHT,
    TOP_MASK,
    WIDTH,
    WINDOWS,
    Bitboard,
    bit,
    has_four,
    winning_cells,
)
from games.connect4.rules import COLUMNS, CONNECT4, Connect4, Connect4State

GAMES = (CONNECT4,)  # what the catalogue registers (games/__init__.py)

__all__ = [
    "GAMES",
    "BOARD_MASK",
    "BOTTOM",
    "BOTTOM_MASK",
    "CELLS",
    "CENTRE_FIRST",
    "COLUMNS",
    "COLUMN_MASK",
    "CONNECT4",
    "DIRECTIONS",
    "H1",
    "HEIGHT",
    "TOP_MASK",
    "WIDTH",
    "WINDOWS",
    "Bitboard",
    "Connect4",
    "Connect4State",
    "bit",
    "has_four",
    "winning_cells",
]

"""Chinese checkers, ``chinese-checkers`` for three and ``chinese-checkers-2`` for two.

The rules (`rules`, which documents the notation) and the catalogue entries (`spec`).
"""

from games.chinese_checkers.rules import (
    ALL_TRIANGLES,
    CELL_OF,
    CHINESE_CHECKERS,
    CHINESE_CHECKERS_2,
    COORDS,
    DIRECTIONS,
    DISTANCE,
    FILLED_DISTANCE,
    HOLES,
    INDEX,
    NAMES,
    NEIGHBOURS,
    PASS,
    PIECES,
    ROWS,
    SEATING,
    TRIANGLES,
    Cell,
    Cells,
    ChineseCheckers,
    ChineseCheckersState,
    TwoPlayerChineseCheckers,
)

GAMES = (CHINESE_CHECKERS, CHINESE_CHECKERS_2)  # what the catalogue registers (games/__init__.py)

__all__ = [
    "GAMES",
    "ALL_TRIANGLES",
    "CELL_OF",
    "CHINESE_CHECKERS",
    "CHINESE_CHECKERS_2",
    "COORDS",
    "DIRECTIONS",
    "DISTANCE",
    "FILLED_DISTANCE",
    "HOLES",
    "INDEX",
    "NAMES",
    "NEIGHBOURS",
    "PASS",
    "PIECES",
    "ROWS",
    "SEATING",
    "TRIANGLES",
    "Cell",
    "Cells",
    "ChineseCheckers",
    "ChineseCheckersState",
    "TwoPlayerChineseCheckers",
]

"""A tapered piece-square evaluation: PeSTO's tables (Ronald Friederich's PeSTO engine,
published on the Chess Programming Wiki, "PeSTO's Evaluation Function").

Each piece scores its material plus a square bonus, once for the middlegame and once for
the endgame; the game phase (24 with all minor and major pieces on the board, 0 with none:
N = B = 1, R = 2, Q = 4) blends the two.  Scores are centipawns from white's side.

The tables are combined with the piece values and mirrored for black once, at import;
an evaluation is then a scan of twelve bitboards with no allocation beyond ints.

>>> import chess
>>> evaluate_board(chess.Board())
0
>>> evaluate_board(chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")) > 900
True
"""

from __future__ import annotations

from typing import Final

import chess

Centipawns = int

# Material, in PeSTO's order: pawn, knight, bishop, rook, queen, king.
MG_VALUE: Final = (82, 337, 365, 477, 1025, 0)
EG_VALUE: Final = (94, 281, 297, 512, 936, 0)
PHASE_WEIGHT: Final = (0, 1, 1, 2, 4, 0)
FULL_PHASE: Final = 24

# Square bonuses as printed: rank 8 first, files a..h, from white's side.
# fmt: off
MG_PAWN = (
      0,   0,   0,   0,   0,   0,  0,   0,
     98, 134,  61,  95,  68, 126, 34, -11,
     -6,   7,  26,  31,  65,  56, 25, -20,
    -14,  13,   6,  21,  23,  12, 17, -23,
    -27,  -2,  -5,  12,  17,   6, 10, -25,
    -26,  -4,  -4, -10,   3,   3, 33, -12,
    -35,  -1, -20, -23, -15,  24, 38, -22,
      0,   0,   0,   0,   0,   0,  0,   0,
)
EG_PAWN = (
      0,   0,   0,   0,   0,   0,   0,   0,
    178, 173, 158, 134, 147, 132, 165, 187,
     94, 100,  85,  67,  56,  53,  82,  84,
     32,  24,  13,   5,  -2,   4,  17,  17,
     13,   9,  -3,  -7,  -7,  -8,   3,  -1,
      4,   7,  -6,   1,   0,  -5,  -1,  -8,
     13,   8,   8,  10,  13,   0,   2,  -7,
      0,   0,   0,   0,   0,   0,   0,   0,
)
MG_KNIGHT = (
    -167, -89, -34, -49,  61, -97, -15, -107,
     -73, -41,  72,  36,  23,  62,   7,  -17,
     -47,  60,  37,  65,  84, 129,  73,   44,
      -9,  17,  19,  53,  37,  69,  18,   22,
     -13,   4,  16,  13,  28,  19,  21,   -8,
     -23,  -9,  12,  10,  19,  17,  25,  -16,
     -29, -53, -12,  -3,  -1,  18, -14,  -19,
    -105, -21, -58, -33, -17, -28, -19,  -23,
)
EG_KNIGHT = (
    -58, -38, -13, -28, -31, -27, -63, -99,
    -25,  -8, -25,  -2,  -9, -25, -24, -52,
    -24, -20,  10,   9,  -1,  -9, -19, -41,
    -17,   3,  22,  22,  22,  11,   8, -18,
    -18,  -6,  16,  25,  16,  17,   4, -18,
    -23,  -3,  -1,  15,  10,  -3, -20, -22,
    -42, -20, -10,  -5,  -2, -20, -23, -44,
    -29, -51, -23, -15, -22, -18, -50, -64,
)
MG_BISHOP = (
    -29,   4, -82, -37, -25, -42,   7,  -8,
    -26,  16, -18, -13,  30,  59,  18, -47,
    -16,  37,  43,  40,  35,  50,  37,  -2,
     -4,   5,  19,  50,  37,  37,   7,  -2,
     -6,  13,  13,  26,  34,  12,  10,   4,
      0,  15,  15,  15,  14,  27,  18,  10,
      4,  15,  16,   0,   7,  21,  33,   1,
    -33,  -3, -14, -21, -13, -12, -39, -21,
)
EG_BISHOP = (
    -14, -21, -11,  -8, -7,  -9, -17, -24,
     -8,  -4,   7, -12, -3, -13,  -4, -14,
      2,  -8,   0,  -1, -2,   6,   0,   4,
     -3,   9,  12,   9, 14,  10,   3,   2,
     -6,   3,  13,  19,  7,  10,  -3,  -9,
    -12,  -3,   8,  10, 13,   3,  -7, -15,
    -14, -18,  -7,  -1,  4,  -9, -15, -27,
    -23,  -9, -23,  -5, -9, -16,  -5, -17,
)
MG_ROOK = (
     32,  42,  32,  51, 63,  9,  31,  43,
     27,  32,  58,  62, 80, 67,  26,  44,
     -5,  19,  26,  36, 17, 45,  61,  16,
    -24, -11,   7,  26, 24, 35,  -8, -20,
    -36, -26, -12,  -1,  9, -7,   6, -23,
    -45, -25, -16, -17,  3,  0,  -5, -33,
    -44, -16, -20,  -9, -1, 11,  -6, -71,
    -19, -13,   1,  17, 16,  7, -37, -26,
)
EG_ROOK = (
    13, 10, 18, 15, 12,  12,   8,   5,
    11, 13, 13, 11, -3,   3,   8,   3,
     7,  7,  7,  5,  4,  -3,  -5,  -3,
     4,  3, 13,  1,  2,   1,  -1,   2,
     3,  5,  8,  4, -5,  -6,  -8, -11,
    -4,  0, -5, -1, -7, -12,  -8, -16,
    -6, -6,  0,  2, -9,  -9, -11,  -3,
    -9,  2,  3, -1, -5, -13,   4, -20,
)
MG_QUEEN = (
    -28,   0,  29,  12,  59,  44,  43,  45,
    -24, -39,  -5,   1, -16,  57,  28,  54,
    -13, -17,   7,   8,  29,  56,  47,  57,
    -27, -27, -16, -16,  -1,  17,  -2,   1,
     -9, -26,  -9, -10,  -2,  -4,   3,  -3,
    -14,   2, -11,  -2,  -5,   2,  14,   5,
    -35,  -8,  11,   2,   8,  15,  -3,   1,
     -1, -18,  -9,  10, -15, -25, -31, -50,
)
EG_QUEEN = (
     -9,  22,  22,  27,  27,  19,  10,  20,
    -17,  20,  32,  41,  58,  25,  30,   0,
    -20,   6,   9,  49,  47,  35,  19,   9,
      3,  22,  24,  45,  57,  40,  57,  36,
    -18,  28,  19,  47,  31,  34,  39,  23,
    -16, -27,  15,   6,   9,  17,  10,   5,
    -22, -23, -30, -16, -16, -23, -36, -32,
    -33, -28, -22, -43,  -5, -32, -20, -41,
)
MG_KING = (
    -65,  23,  16, -15, -56, -34,   2,  13,
     29,  -1, -20,  -7,  -8,  -4, -38, -29,
     -9,  24,   2, -16, -20,   6,  22, -22,
    -17, -20, -12, -27, -30, -25, -14, -36,
    -49,  -1, -27, -39, -46, -44, -33, -51,
    -14, -14, -22, -46, -44, -30, -15, -27,
      1,   7,  -8, -64, -43, -16,   9,   8,
    -15,  36,  12, -54,   8, -28,  24,  14,
)
EG_KING = (
    -74, -35, -18, -18, -11,  15,   4, -17,
    -12,  17,  14,  17,  17,  38,  23,  11,
     10,  17,  23,  15,  20,  45,  44,  13,
     -8,  22,  24,  27,  26,  33,  26,   3,
    -18,  -4,  21,  24,  27,  23,   9, -11,
    -19,  -3,  11,  21,  23,  16,   7,  -9,
    -27, -11,   4,  13,  14,   4,  -5, -17,
    -53, -34, -21, -11, -28, -14, -24, -43,
)
# fmt: on

MG_TABLES: Final = (MG_PAWN, MG_KNIGHT, MG_BISHOP, MG_ROOK, MG_QUEEN, MG_KING)
EG_TABLES: Final = (EG_PAWN, EG_KNIGHT, EG_BISHOP, EG_ROOK, EG_QUEEN, EG_KING)


def _signed_tables(tables: tuple[tuple[int, ...], ...], values: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Per (piece type, colour): value + bonus by python-chess square (a1 = 0), negative for black.

    The printed tables put a8 first, so a white piece on square s reads entry s ^ 56
    and a black one, seeing the board from the other side, entry s.
    """
    out: list[tuple[int, ...]] = []
    for table, value in zip(tables, values, strict=True):
        out.append(tuple(value + table[sq ^ 56] for sq in chess.SQUARES))  # white
        out.append(tuple(-(value + table[sq]) for sq in chess.SQUARES))  # black
    return out


# Indexed by 2 * (piece_type - 1) + (0 for white, 1 for black).
MG_SIGNED: Final = _signed_tables(MG_TABLES, MG_VALUE)
EG_SIGNED: Final = _signed_tables(EG_TABLES, EG_VALUE)
_PIECE_KEYS: Final = tuple(
    (2 * (pt - 1) + (0 if colour else 1), pt, colour) for pt in chess.PIECE_TYPES for colour in chess.COLORS
)


def evaluate_board(board: chess.BaseBoard) -> Centipawns:
    """PeSTO's tapered score of the pieces on `board`, in centipawns, positive when white is better."""
    mg = eg = phase = 0
    for index, piece_type, colour in _PIECE_KEYS:
        mg_table, eg_table = MG_SIGNED[index], EG_SIGNED[index]
        weight = PHASE_WEIGHT[piece_type - 1]
        bb = board.pieces_mask(piece_type, colour)
        while bb:
            sq = (bb & -bb).bit_length() - 1
            bb &= bb - 1
            mg += mg_table[sq]
            eg += eg_table[sq]
            phase += weight
    phase = min(phase, FULL_PHASE)  # early promotions can push it past the start position's
    return round((mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE)  # round: symmetric in the colours


def game_phase(board: chess.BaseBoard) -> int:
    """24 with every minor and major piece on the board, down to 0 with none."""
    phase = sum(
        PHASE_WEIGHT[pt - 1] * len(board.pieces(pt, colour)) for pt in chess.PIECE_TYPES for colour in chess.COLORS
    )
    return min(phase, FULL_PHASE)


# The Game API's heuristic lies in (-max_utility, max_utility): centipawns are divided by
# this and clipped, so a queen is worth about 0.1 and the scale stays additive (delta pruning).
CENTIPAWNS_PER_UTILITY: Final = 10_000
EVALUATION_LIMIT: Final = 0.95


def to_utility(centipawns: float, max_utility: float = 1.0) -> float:
    """Centipawns on the Game API's heuristic scale, inside (-max_utility, max_utility)."""
    value = centipawns / CENTIPAWNS_PER_UTILITY * max_utility
    limit = EVALUATION_LIMIT * max_utility
    return max(-limit, min(limit, value))


def evaluate_for(board: chess.BaseBoard, white: bool, max_utility: float = 1.0) -> float:
    """The evaluation for the side `white` says, on the Game API's scale."""
    score = evaluate_board(board)
    return to_utility(score if white else -score, max_utility)

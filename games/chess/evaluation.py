"""A tapered evaluation: PeSTO's tables (Ronald Friederich's PeSTO engine, published on the
Chess Programming Wiki, "PeSTO's Evaluation Function") and the classic terms they lack.

Each piece scores its material plus a square bonus, once for the middlegame and once for
the endgame; passed, isolated and doubled pawns, the bishop pair, rooks on open files,
mobility, attacks on the king's zone and the king's pawn shelter add to the two scores
(`structure_terms`); the game phase (24 with all minor and major pieces on the board, 0
with none: N = B = 1, R = 2, Q = 4) blends them.  Scores are centipawns from white's side.

The tables are combined with the piece values and mirrored for black once, at import; the
terms that only pawns and kings decide are kept per pawn structure (a search meets the same
few again and again).  The compiled engine (games/chess/_engine.c) scores the same, from the
values here (`TERMS`); tests compare the two.  The ladder below the Master scores with the
tables alone (``terms=False``: the evaluation its ratings were measured with); the Master
and the analysis with the terms (`Chess.evaluation("terms")`).

>>> import chess
>>> evaluate_board(chess.Board())
0
>>> evaluate_board(chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")) > 900
True
"""

from __future__ import annotations

import functools
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


# --- Terms beyond the tables -----------------------------------------------------------------
# (middlegame, endgame) centipawns.  The terms are the published classic ones: Stockfish 11's
# passed pawns, rooks on open files and isolated pawns; Fruit 2.1's mobility, bishop pair and
# doubled pawns; the Chess Programming Wiki's king attack ("King Safety": attack units on the
# squares around the king, scaled by how many pieces attack them); a pawn shelter and storm
# after Stockfish's.  Their values were fitted by benchmarks/chess_tune.py (Texel's method) on
# 31,914 quiet positions Stockfish scored at depth 8, each value keeping its sign; not fitted
# (not linear in their value): PASSED_KING_CAP, MOBILITY_OFFSET, ATTACK_UNITS, and the
# 19/8 and 1 of the passed pawn's king distances.  The hand-set values before:
# benchmarks/results/chess_terms_hand_set.json.

# A passed pawn by its rank seen from its own side (0 = first rank).
PASSED_MG: Final = (0, 1, 0, 13, 8, 65, 18, 0)
PASSED_EG: Final = (0, 26, 26, 37, 46, 0, 0, 0)
# In the endgame, a passed pawn four or more ranks up gains weight w = 5 * rank - 13 times:
# 19/8 of the enemy king's distance to the square in front of it less its own king's distance
# (capped at 5), and FREE_BLOCK (the square in front empty) or FREE_PATH (all squares to queen).
PASSED_KING_CAP: Final = 5
FREE_BLOCK: Final = 2
FREE_PATH: Final = 5
ISOLATED: Final = (17, 2)  # a pawn with no own pawn on the files beside it
DOUBLED: Final = (0, 29)  # a pawn with an own pawn in front of it on its file
BISHOP_PAIR: Final = (42, 58)
ROOK_SEMI_OPEN: Final = (16, 33)  # no own pawn on the rook's file
ROOK_OPEN: Final = (29, 22)  # no pawn at all
# Mobility: squares a piece attacks that hold no own piece, less the piece's usual count,
# times its weight.  Knight, bishop, rook, queen (Fruit's offsets).
MOBILITY_OFFSET: Final = (4, 6, 7, 13)
MOBILITY_MG: Final = (0, 4, 0, 0)
MOBILITY_EG: Final = (9, 11, 5, 6)
# King safety, middlegame only.  The king's zone is its square and those it attacks; each
# enemy knight, bishop, rook or queen attacking the zone adds its units per square attacked;
# the sum, times ATTACK_WEIGHT[number of attackers] / 100, is the penalty.
ATTACK_UNITS: Final = (20, 20, 40, 80)
ATTACK_WEIGHT: Final = (0, 6, 29, 35, 71, 94, 97, 99)
# On the king's file and the two beside it (the king's file taken as b..g): the nearest own
# pawn not behind the king, by its rank from the king's side (0: none); the nearest enemy pawn
# there, by the same rank, when no own pawn stands just in front of it; a file with no pawn.
SHELTER: Final = (-30, -9, -12, -23, -17, -20, -59, -36)
STORM: Final = (0, 0, -22, -33, -23, 0, 0, 0)
OPEN_FILE_NEAR_KING: Final = -14

# All of the above in one flat sequence, the order `set_evaluation` of games/chess/_engine.c reads.
TERMS: Final = (
    *PASSED_MG, *PASSED_EG, PASSED_KING_CAP, FREE_BLOCK, FREE_PATH, *ISOLATED, *DOUBLED, *BISHOP_PAIR,
    *ROOK_SEMI_OPEN, *ROOK_OPEN, *MOBILITY_OFFSET, *MOBILITY_MG, *MOBILITY_EG, *ATTACK_UNITS,
    *ATTACK_WEIGHT, *SHELTER, *STORM, OPEN_FILE_NEAR_KING,
)  # fmt: skip

Bitboard = int
_ADJACENT: Final = tuple(
    (chess.BB_FILES[f - 1] if f > 0 else 0) | (chess.BB_FILES[f + 1] if f < 7 else 0) for f in range(8)
)
# Squares on the same file ahead of `sq`, for white [0] and black [1]; and on the three files.
_FRONT: Final = (
    tuple(chess.BB_FILES[sq & 7] & ~((2 << sq) - 1) for sq in chess.SQUARES),
    tuple(chess.BB_FILES[sq & 7] & ((1 << sq) - 1) for sq in chess.SQUARES),
)
_PASSED_SPAN: Final = tuple(
    tuple(
        front | ((front << 1) & ~chess.BB_FILE_A & chess.BB_ALL) | ((front >> 1) & ~chess.BB_FILE_H) for front in fronts
    )
    for fronts in _FRONT
)
# Squares on the king's rank and ahead of it, for white [0] and black [1], by the king's rank.
_NOT_BEHIND: Final = (
    tuple(chess.BB_ALL & ~((1 << (8 * rank)) - 1) for rank in range(8)),
    tuple((1 << (8 * rank + 8)) - 1 for rank in range(8)),
)


def _distance(a: chess.Square, b: chess.Square) -> int:
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


# A passed pawn's free-path bonus, left for the position: (sign, squares in front, the square
# in front, weight).
Passer = tuple[int, Bitboard, Bitboard, int]


@functools.lru_cache(maxsize=1 << 14)
def _pawn_terms(
    white_pawns: Bitboard, black_pawns: Bitboard, kings: tuple[int, int]
) -> tuple[int, int, tuple[Passer, ...]]:
    """The terms that only the pawns and kings decide, (mg, eg) from white's side, and the passed
    pawns far enough up for a free-path bonus.  A search meets the same few pawn structures again
    and again: they are computed once each."""
    mg = eg = 0
    passers: list[Passer] = []
    for side, sign, own_pawns, their_pawns in ((0, 1, white_pawns, black_pawns), (1, -1, black_pawns, white_pawns)):
        king, their_king = kings[side], kings[1 - side]
        bb = own_pawns
        while bb:
            sq = (bb & -bb).bit_length() - 1
            bb &= bb - 1
            if not own_pawns & _ADJACENT[sq & 7]:
                mg -= sign * ISOLATED[0]
                eg -= sign * ISOLATED[1]
            front = _FRONT[side][sq]
            if own_pawns & front:
                mg -= sign * DOUBLED[0]
                eg -= sign * DOUBLED[1]
            elif not their_pawns & _PASSED_SPAN[side][sq]:
                rank = 7 - (sq >> 3) if side else sq >> 3
                mg += sign * PASSED_MG[rank]
                eg += sign * PASSED_EG[rank]
                if rank >= 3:
                    weight = 5 * rank - 13
                    block = sq - 8 if side else sq + 8
                    theirs = min(_distance(their_king, block), PASSED_KING_CAP) if their_king >= 0 else PASSED_KING_CAP
                    ours = min(_distance(king, block), PASSED_KING_CAP) if king >= 0 else PASSED_KING_CAP
                    eg += sign * (19 * theirs * weight // 8 - ours * weight)
                    passers.append((sign, front, chess.BB_SQUARES[block], weight))
        if king >= 0:  # the king's shelter, and the pawns storming it
            mg += sign * _shelter(king, own_pawns, their_pawns, side)
    return mg, eg, tuple(passers)


def _shelter(king: chess.Square, own_pawns: Bitboard, their_pawns: Bitboard, side: int) -> int:
    """The shelter and storm of the king on `king` whose pawns are `own_pawns`: mg, positive when sound."""
    rank = king >> 3
    ahead = _NOT_BEHIND[side][rank]
    centre = min(max(king & 7, 1), 6)
    score = 0
    for f in (centre - 1, centre, centre + 1):
        file = chess.BB_FILES[f]
        ours = own_pawns & file & ahead
        theirs = their_pawns & file & ahead
        if not (own_pawns | their_pawns) & file:
            score += OPEN_FILE_NEAR_KING
        if ours:
            nearest = (ours & -ours).bit_length() - 1 if side == 0 else ours.bit_length() - 1
            score += SHELTER[nearest >> 3 if side == 0 else 7 - (nearest >> 3)]
        else:
            score += SHELTER[0]
        if theirs:
            nearest = (theirs & -theirs).bit_length() - 1 if side == 0 else theirs.bit_length() - 1
            blocker = nearest - 8 if side == 0 else nearest + 8
            if not 0 <= blocker < 64 or not own_pawns & chess.BB_SQUARES[blocker]:
                score += STORM[nearest >> 3 if side == 0 else 7 - (nearest >> 3)]
    return score


def _piece_terms(board: chess.BaseBoard, colour: chess.Color, their_king: chess.Square) -> tuple[int, int]:
    """`colour`'s bishop pair, rooks on open files, mobility and attack on the enemy king (mg, eg),
    positive when they favour it."""
    own = board.occupied_co[colour]
    own_pawns = board.pawns & own
    all_pawns = board.pawns
    occupied = board.occupied
    mg = eg = 0
    if chess.popcount(board.bishops & own) >= 2:
        mg += BISHOP_PAIR[0]
        eg += BISHOP_PAIR[1]
    zone = _ZONE[their_king] if their_king >= 0 else 0
    attackers = units = 0
    for index, pieces in enumerate((board.knights, board.bishops, board.rooks, board.queens)):
        bb = pieces & own
        while bb:
            sq = (bb & -bb).bit_length() - 1
            bb &= bb - 1
            if index == 0:
                attacks = chess.BB_KNIGHT_ATTACKS[sq]
            else:
                attacks = 0
                if index != 2:
                    attacks = chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occupied]
                if index != 1:
                    attacks |= (
                        chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occupied]
                        | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occupied]
                    )
                if index == 2:  # a rook on a file without own pawns
                    file = chess.BB_FILES[sq & 7]
                    if not own_pawns & file:
                        bonus = ROOK_SEMI_OPEN if all_pawns & file else ROOK_OPEN
                        mg += bonus[0]
                        eg += bonus[1]
            mobility = chess.popcount(attacks & ~own) - MOBILITY_OFFSET[index]
            mg += MOBILITY_MG[index] * mobility
            eg += MOBILITY_EG[index] * mobility
            hits = attacks & zone
            if hits:
                attackers += 1
                units += ATTACK_UNITS[index] * chess.popcount(hits)
    mg += units * ATTACK_WEIGHT[min(attackers, 7)] // 100
    return mg, eg


_ZONE: Final = tuple(chess.BB_KING_ATTACKS[sq] | chess.BB_SQUARES[sq] for sq in chess.SQUARES)


def structure_terms(board: chess.BaseBoard) -> tuple[int, int]:
    """The terms beyond PeSTO's tables, (mg, eg) centipawns from white's side: passed, isolated and
    doubled pawns, the bishop pair, rooks on open files, mobility, king attack, shelter and storm."""
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    white_king = (board.kings & white).bit_length() - 1
    black_king = (board.kings & black).bit_length() - 1
    mg, eg, passers = _pawn_terms(board.pawns & white, board.pawns & black, (white_king, black_king))
    occupied = board.occupied
    for sign, front, block, weight in passers:
        if not occupied & front:
            eg += sign * FREE_PATH * weight
        elif not occupied & block:
            eg += sign * FREE_BLOCK * weight
    white_mg, white_eg = _piece_terms(board, chess.WHITE, black_king)
    black_mg, black_eg = _piece_terms(board, chess.BLACK, white_king)
    return mg + white_mg - black_mg, eg + white_eg - black_eg


def evaluate_board(board: chess.BaseBoard, terms: bool = True) -> Centipawns:
    """The tapered score of the pieces on `board`, in centipawns, positive when white is better:
    PeSTO's tables plus the terms of `structure_terms` (the tables alone without `terms`)."""
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
    if terms:
        terms_mg, terms_eg = structure_terms(board)
        mg += terms_mg
        eg += terms_eg
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


def evaluate_for(board: chess.BaseBoard, white: bool, max_utility: float = 1.0, terms: bool = True) -> float:
    """The evaluation for the side `white` says, on the Game API's scale."""
    score = evaluate_board(board, terms)
    return to_utility(score if white else -score, max_utility)

"""What chess tells alpha-beta, on python-chess boards: the search hooks of `Chess`.

- Move ordering by MVV-LVA: the most valuable victim first, taken by the least valuable
  attacker; promotions by the piece gained; quiet moves after, in generation order.
- Quiescence: captures and queen promotions (every evasion when in check).
- Delta pruning: the most a capture can gain, with a margin for the square bonuses.
- Static exchange evaluation (SEE): what a capture wins or loses once every piece bearing on
  the square, x-rays included, has recaptured least valuable first (pins are ignored).
- Null-move pruning: a pass, refused in check and when the side to move has nothing but
  pawns and its king (zugzwang is common there and a pass would lie about the position).

>>> board = chess.Board("4k3/8/8/3q4/4P3/8/8/4K2R w K - 0 1")
>>> noisy_moves(board)
['e4d5']
>>> null_move(board).turn == chess.BLACK
True
>>> null_move(chess.Board("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1")) is None
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

import chess

from games.base import Move
from games.chess.evaluation import CENTIPAWNS_PER_UTILITY, EG_VALUE, MG_VALUE

# Piece values for ordering and delta pruning (index: python-chess piece type; 0 unused).
ORDER_VALUE: Final = (0, 1, 3, 3, 5, 9, 100)
GAIN_CP: Final = (0, *(max(mg, eg) for mg, eg in zip(MG_VALUE[:5], EG_VALUE[:5], strict=True)), 0)
DELTA_MARGIN_CP: Final = 200  # square bonuses and a positional swing a capture may bring on top of the piece
QUIET: Final = 0

# A move's python-chess object by its UCI text.  A search asks for the same few thousand moves
# again and again, and parsing each time (`chess.Move.from_uci`) was 8 % of the Master's time
# (`benchmarks/chess_search.py --where-time-goes`).  The objects are never changed once made.
parsed_move = functools.lru_cache(maxsize=8192)(chess.Move.from_uci)


def mvv_lva(board: chess.Board, move: chess.Move) -> int:
    """Ordering score of a capture or promotion (0 for a quiet move): victims first, cheap attackers first."""
    score = QUIET
    if board.is_capture(move):
        victim = board.piece_type_at(move.to_square) or chess.PAWN  # en passant: the square is empty
        attacker = board.piece_type_at(move.from_square) or chess.PAWN
        score += 1000 * ORDER_VALUE[victim] - ORDER_VALUE[attacker]
    if move.promotion:
        score += 1000 * ORDER_VALUE[move.promotion]
    return score


def order_moves(board: chess.Board, moves: Sequence[Move]) -> list[Move]:
    """Captures and promotions by MVV-LVA, then the quiet moves in the order given."""
    scored = [(mvv_lva(board, parsed_move(m)), i, m) for i, m in enumerate(moves)]
    scored.sort(key=lambda entry: (-entry[0], entry[1]))
    return [m for _, _, m in scored]


def noisy_moves(board: chess.Board) -> list[Move]:
    """What quiescence searches: captures and queen promotions by MVV-LVA; every evasion when in check."""
    if board.is_check():
        return order_moves(board, [m.uci() for m in board.generate_legal_moves()])
    moves = list(board.generate_legal_captures())  # capture-promotions among them
    promoting = _promoting_pawns(board)
    if promoting:
        moves += board.generate_legal_moves(promoting, ~board.occupied & chess.BB_ALL)
    # An under-promotion is never worth a quiescence node.
    scored = [(mvv_lva(board, m), m.uci()) for m in moves if m.promotion in (None, chess.QUEEN)]
    scored.sort(key=lambda pair: -pair[0])
    return [uci for _, uci in scored]


def _promoting_pawns(board: chess.Board) -> chess.Bitboard:
    seventh = chess.BB_RANK_7 if board.turn == chess.WHITE else chess.BB_RANK_2
    return board.pawns & board.occupied_co[board.turn] & seventh


def is_tactical(board: chess.Board, move: Move) -> bool:
    """A capture or a promotion: changes the material balance."""
    parsed = parsed_move(move)
    return parsed.promotion is not None or board.is_capture(parsed)


def capture_gain(board: chess.Board, move: Move, max_utility: float = 1.0) -> float:
    """The most `move` can raise the evaluation, margin included, on the Game API's scale."""
    parsed = parsed_move(move)
    gain = DELTA_MARGIN_CP
    if board.is_capture(parsed):
        gain += GAIN_CP[board.piece_type_at(parsed.to_square) or chess.PAWN]
    if parsed.promotion:
        gain += GAIN_CP[parsed.promotion] - GAIN_CP[chess.PAWN]
    return gain / CENTIPAWNS_PER_UTILITY * max_utility


SEE_VALUE: Final = (0, 100, 320, 330, 500, 900, 20_000)  # centipawns; the king: no one trades into it


def see(board: chess.Board, move: chess.Move) -> int:
    """Static exchange evaluation of `move`, in centipawns for the mover.

    >>> see(chess.Board("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1"), chess.Move.from_uci("d1d5"))
    -800
    >>> see(chess.Board("4k3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1"), chess.Move.from_uci("d2d5"))
    100
    """
    target = move.to_square
    victim = chess.PAWN if board.is_en_passant(move) else board.piece_type_at(target) or 0
    mover = board.piece_type_at(move.from_square) or chess.PAWN
    gains = [SEE_VALUE[victim] + (SEE_VALUE[move.promotion] - SEE_VALUE[chess.PAWN] if move.promotion else 0)]
    on_square = move.promotion or mover  # the piece that now stands on the target, next to be taken
    occupied = board.occupied & ~chess.BB_SQUARES[move.from_square]
    side = not board.turn
    while True:
        attackers = board.attackers_mask(side, target, occupied) & occupied
        if not attackers:
            break
        for piece_type in chess.PIECE_TYPES:  # the least valuable attacker takes first
            candidates = attackers & board.pieces_mask(piece_type, side)
            if candidates:
                break
        gains.append(SEE_VALUE[on_square] - gains[-1])
        on_square = piece_type
        occupied &= ~(candidates & -candidates)
        side = not side
    while len(gains) > 1:  # each side may stop taking when taking on would lose
        last = gains.pop()
        gains[-1] = -max(-gains[-1], last)
    return gains[0]


def exchange_value(board: chess.Board, move: Move, max_utility: float = 1.0) -> float:
    """`see` of a capture or promotion on the Game API's scale (0 for a quiet move)."""
    parsed = parsed_move(move)
    if not (parsed.promotion or board.is_capture(parsed)):
        return 0.0
    return see(board, parsed) / CENTIPAWNS_PER_UTILITY * max_utility


def only_pawns(board: chess.Board, colour: chess.Color) -> bool:
    """The side has no piece but pawns and its king."""
    pieces = board.knights | board.bishops | board.rooks | board.queens
    return not pieces & board.occupied_co[colour]


def null_move(board: chess.Board) -> chess.Board | None:
    """`board` with the turn passed (en passant rights lost), or None where a pass must not be tried."""
    if board.is_check() or only_pawns(board, board.turn):
        return None
    passed = board.copy(stack=False)
    passed.push(chess.Move.null())
    return passed

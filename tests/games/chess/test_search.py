"""Chess search: mates found with and without the refinements, null move never tried in
check, quiescence that sees a recapture a plain depth-limited search walks into and never
stands pat in check."""

from __future__ import annotations

import random

import chess
import pytest

import ai
from ai.alphabeta import AlphaBeta, is_decisive, plies_to_end
from ai.scores import INF
from games import registry
from games.chess.search import mvv_lva, see

CHESS = registry.get("chess")
PAWN = 0.01  # about a pawn on `Chess.evaluate`'s scale
REFINED = {
    "check_extension": True,
    "null_move": True,
    "lmr": True,
    "delta_pruning": True,
    "see_pruning": True,
    "tactical_first": True,
}

# (FEN, moves to mate for the side to move); distances checked by brute force.
MATES = [
    ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 1),
    ("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2),
    ("3k4/8/8/8/8/8/R7/1R4K1 w - - 0 1", 3),
]


def search(fen: str, depth: int, **options: object) -> ai.SearchResult:
    config = ai.SearchConfig(max_depth=depth, time_budget_ms=120_000, seed=1, options=options)
    return ai.choose_move(CHESS, CHESS.from_fen(fen), config)


@pytest.mark.parametrize("refined", [False, True], ids=["plain", "refined"])
@pytest.mark.parametrize(("fen", "mate_in"), MATES)
def test_finds_the_shortest_mate(fen, mate_in, refined):
    result = search(fen, 2 * mate_in - 1, **(REFINED if refined else {}))
    assert result.stats["plies_to_end"] == 2 * mate_in - 1
    assert result.value > 0.99
    state = CHESS.from_fen(fen)
    for move in result.pv:  # the principal variation plays the mate out
        state = CHESS.play(state, move)
    if len(result.pv) == 2 * mate_in - 1:
        assert CHESS.outcome(state).reason == "checkmate"


class RecordingChess(type(CHESS)):
    """Chess that remembers every position a null move was asked for."""

    def __init__(self) -> None:
        self.asked: list[object] = []

    def null_move(self, state):
        self.asked.append(state)
        return super().null_move(state)


def test_null_move_is_never_tried_in_check():
    game = RecordingChess()
    # A middle game with checks on both sides within reach.
    state = game.from_fen("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5")
    ai.choose_move(game, state, ai.SearchConfig(max_depth=4, time_budget_ms=120_000, options={"null_move": True}))
    assert game.asked, "the search never tried a null move"
    assert not [s for s in game.asked if s.board.is_check()]


def test_no_null_move_in_a_pawn_ending():
    state = CHESS.from_fen("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1")
    assert CHESS.null_move(state) is None
    assert CHESS.null_move(CHESS.from_fen("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1")) is not None


def test_quiescence_sees_the_recapture_a_plain_search_misses():
    fen = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1"  # Qxd5?? exd5 loses the queen for a pawn
    assert search(fen, 1, quiescence=False).move == "d1d5"
    assert search(fen, 1).move != "d1d5"
    assert search(fen, 1, delta_pruning=True).move != "d1d5"


def test_refinements_search_fewer_nodes_in_a_middle_game():
    fen = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8"
    plain, refined = search(fen, 4), search(fen, 4, **REFINED)
    assert refined.nodes < plain.nodes
    assert refined.move in CHESS.legal_moves(CHESS.from_fen(fen))


def test_noisy_moves_are_the_captures_and_queen_promotions_most_valuable_victim_first():
    rng = random.Random(3)
    for _ in range(40):
        state = CHESS.initial_state()
        for _ in range(rng.randrange(10, 80)):
            if CHESS.is_terminal(state):
                break
            state = CHESS.apply(state, rng.choice(CHESS.legal_moves(state)))
        if CHESS.is_terminal(state):
            continue
        board = state.board
        noisy = CHESS.noisy_moves(state)
        if board.is_check():
            assert sorted(noisy) == sorted(CHESS.legal_moves(state))
        else:
            noisy_kinds = (m for m in board.legal_moves if m.promotion or board.is_capture(m))
            expected = {m.uci() for m in noisy_kinds if m.promotion in (None, chess.QUEEN)}
            assert sorted(noisy) == sorted(expected)
        assert CHESS.is_quiet(state) == (not noisy)
        scores = [mvv_lva(board, chess.Move.from_uci(m)) for m in noisy]
        assert scores == sorted(scores, reverse=True) or board.is_check()


def test_promotions_without_capture_are_noisy():
    state = CHESS.from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert CHESS.noisy_moves(state)[0] == "b7b8q"
    assert not CHESS.is_quiet(state)


@pytest.mark.parametrize(
    ("fen", "move", "value"),
    [
        ("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", -400),  # the rook is lost for a pawn
        ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100),  # the rook behind (an x-ray) wins the pawn
        ("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5", 900),  # undefended queen
        ("4k3/8/1n6/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5", 800),  # the knight takes back a pawn
        ("4k3/8/8/8/8/8/p7/1R2K3 b - - 0 1", "a2b1q", 500 + 900 - 100),  # a capture that promotes
    ],
)
def test_static_exchange_evaluation(fen, move, value):
    assert see(chess.Board(fen), chess.Move.from_uci(move)) == value


def test_see_pruning_keeps_quiescence_from_the_losing_capture():
    fen = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1"
    assert search(fen, 1, see_pruning=True).move != "d1d5"


# Black is in check and up a queen's worth of material; its one reply, Nf8, is taken with mate.
MATED_AFTER_EVASION = "4Q2k/6pp/4n3/8/8/7K/1r6/q7 b - - 0 1"
# Black in check from a knight that also attacks its queen: every reply loses the queen.
FORKED = "2q1k3/8/3N4/8/8/8/r7/7K b - - 0 1"


def quiescence_value(fen: str, alpha: float = -INF, **refinements: bool) -> tuple[float, float]:
    """(static evaluation, quiescence value above `alpha`) of the position for the side to move."""
    state = CHESS.from_fen(fen)
    seat = CHESS.to_move(state)
    searcher = AlphaBeta(CHESS, **refinements)
    searcher.root_seat = seat
    return CHESS.evaluate(state, seat), searcher.quiesce(state, seat, alpha, INF, 0, 0)


def test_quiescence_in_check_does_not_stand_pat_on_a_mate():
    static, value = quiescence_value(MATED_AFTER_EVASION)
    assert static > 0  # material says black is better
    assert is_decisive(value) and plies_to_end(value) == -2  # Nf8, Qxf8#


def test_quiescence_in_check_sees_the_material_every_evasion_loses():
    static, value = quiescence_value(FORKED)
    assert value < static - 3 * PAWN  # the queen goes: far below what standing pat would claim
    assert value > 0  # still a rook up


def test_a_one_ply_search_finds_the_mate_behind_a_check_at_its_horizon():
    # Qe8+ Nf8 Qxf8#: the reply and the mate are in quiescence, past the one ply searched.
    result = search("7k/6pp/4n3/8/Q7/7K/1r6/q7 w - - 0 1", 1)
    assert result.move == "a4e8"
    assert result.stats["plies_to_end"] == 3


def test_delta_and_see_pruning_never_skip_an_evasion():
    assert quiescence_value(FORKED, delta_pruning=True, see_pruning=True) == quiescence_value(FORKED)


# Not in check, a capture that mates: Rxa8# wins only a knight by material.
MATING_CAPTURE = "n5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


@pytest.mark.parametrize("refinements", [{}, {"delta_pruning": True}, REFINED])
def test_delta_pruning_never_skips_a_capture_that_mates(refinements):
    """Delta pruning sees a knight where the game ends: with alpha far above what the material
    could reach, the capture is still searched, and mates.  (SEE pruning still skips a losing
    exchange that checks, as Stockfish's quiescence does: checking every one cost 40% more
    nodes, `benchmarks/chess_search.py`.)"""
    alpha = CHESS.max_utility / 2  # far above any material balance, short of a proven result
    _, value = quiescence_value(MATING_CAPTURE, alpha, **refinements)
    assert is_decisive(value) and plies_to_end(value) == 1

"""The tapered evaluation: symmetric, material first, the phase blends the two scores, and the
terms beyond PeSTO's tables point the right way."""

from __future__ import annotations

import chess
import pytest

from games import registry
from games.chess.evaluation import EVALUATION_LIMIT, evaluate_board, game_phase, structure_terms
from games.chess.spec import SPEC

CHESS = registry.get("chess")
POSITIONS = [
    chess.STARTING_FEN,
    "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/1r6 b - - 0 40",
    "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
]


def test_the_start_position_is_level():
    assert evaluate_board(chess.Board()) == 0
    assert game_phase(chess.Board()) == 24


@pytest.mark.parametrize("fen", POSITIONS)
def test_mirroring_the_colours_negates_the_score(fen):
    board = chess.Board(fen)
    assert evaluate_board(board.mirror()) == -evaluate_board(board)


@pytest.mark.parametrize("fen", POSITIONS)
def test_the_game_api_value_is_zero_sum_and_in_range(fen):
    state = CHESS.from_fen(fen)
    white, black = CHESS.evaluate(state, 0), CHESS.evaluate(state, 1)
    assert white == -black
    assert abs(white) <= EVALUATION_LIMIT * CHESS.max_utility


def test_an_extra_knight_outweighs_any_square_bonus():
    board = chess.Board("4k3/8/8/8/8/8/8/N3K3 w - - 0 1")  # the knight on its worst square
    assert evaluate_board(board) > 150


def test_the_king_goes_to_the_centre_in_the_endgame_and_stays_home_in_the_middlegame():
    ending_home = evaluate_board(chess.Board("4k3/pppp4/8/8/8/8/PPPP4/6K1 w - - 0 1"))
    ending_centre = evaluate_board(chess.Board("4k3/pppp4/8/8/4K3/8/PPPP4/8 w - - 0 1"))
    assert ending_centre > ending_home
    full = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"
    middle_home = evaluate_board(chess.Board(full.replace("RNBQ1BNR", "RNBQKBNR")))
    middle_centre = evaluate_board(chess.Board("rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"))
    assert middle_home > middle_centre


def terms(fen: str) -> tuple[int, int]:
    return structure_terms(chess.Board(fen))


def test_a_passed_pawn_is_worth_more_the_further_up_and_the_freer_its_path():
    # White's d-pawn against a black pawn on the a-file: passed; against one on the e-file: not.
    passed = evaluate_board(chess.Board("4k3/p7/8/3P4/8/8/8/4K3 w - - 0 1"))
    held = evaluate_board(chess.Board("4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1"))
    assert passed > held
    further = evaluate_board(chess.Board("4k3/p7/3P4/8/8/8/8/4K3 w - - 0 1"))
    assert further > passed
    blocked = terms("3nk3/p7/3P4/8/8/8/8/4K3 w - - 0 1")
    free = terms("4k2n/p7/3P4/8/8/8/8/4K3 w - - 0 1")
    assert free[1] > blocked[1]


def test_the_endgame_pays_the_king_near_its_passed_pawn_and_the_enemy_king_far():
    near = terms("8/8/8/2KP4/8/8/8/7k w - - 0 1")
    far = terms("8/8/8/3P4/8/8/8/K3k3 w - - 0 1")
    assert near[1] > far[1]


def test_doubled_and_isolated_pawns_cost():
    sound = terms("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1")
    doubled = terms("4k3/pp6/8/8/8/P7/P7/4K3 w - - 0 1")
    isolated = terms("4k3/pp6/8/8/8/8/P1P5/4K3 w - - 0 1")
    assert sound[1] > doubled[1] and sound[1] > isolated[1]


def test_the_bishop_pair_and_a_rook_on_an_open_file_pay():
    pair = terms("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1")
    two_knights = terms("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1")
    assert pair[0] - two_knights[0] > 0
    open_file = terms("4k3/pp3ppp/8/8/8/8/PP3PPP/3RK3 w - - 0 1")
    closed = terms("4k3/pp3ppp/8/8/8/8/PP3PPP/R3K3 w - - 0 1")
    assert open_file[0] > closed[0]


def test_an_open_king_and_pieces_on_its_zone_cost_in_the_middlegame():
    sheltered = terms("r4rk1/5ppp/8/8/8/8/5PPP/R4RK1 w - - 0 1")
    opened = terms("r4rk1/5ppp/8/8/8/8/8/R4RK1 w - - 0 1")  # white's king without its pawns
    assert opened[0] < sheltered[0]
    quiet = terms("6k1/5ppp/8/8/8/2N5/1B3PPP/3Q2K1 w - - 0 1")
    attacking = terms("6k1/5ppp/7N/6Q1/8/1B6/5PPP/6K1 w - - 0 1")
    assert attacking[0] > quiet[0]


@pytest.mark.parametrize("fen", POSITIONS)
def test_the_terms_are_symmetric_in_the_colours(fen):
    board = chess.Board(fen)
    mg, eg = structure_terms(board)
    assert structure_terms(board.mirror()) == (-mg, -eg)


def test_the_ladder_scores_with_the_tables_alone_and_the_master_with_the_terms():
    # The ladder's ratings were measured on PeSTO's tables alone: `evaluate` stays that; the Master
    # (and the analysis, which searches with its options) names the evaluation with the terms.
    state = CHESS.from_fen("4k3/p7/3P4/8/8/8/8/4K3 w - - 0 1")
    with_terms = CHESS.evaluation("terms")
    assert with_terms is not None and CHESS.evaluation("unknown") is None
    board = state.board
    assert CHESS.evaluate(state, 0) == pytest.approx(evaluate_board(board, terms=False) / 10_000)
    assert with_terms(state, 0) == pytest.approx(evaluate_board(board) / 10_000)
    assert with_terms(state, 0) > CHESS.evaluate(state, 0)  # the passed pawn's bonus
    named = {bot.slug: (bot.settings.get("search_options") or {}).get("evaluation") for bot in SPEC.ladder}
    assert named.pop("chess-master") == "terms"
    assert set(named.values()) == {None}

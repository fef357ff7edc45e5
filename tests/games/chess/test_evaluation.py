"""PeSTO's tapered evaluation: symmetric, material first, the phase blends the two tables."""

from __future__ import annotations

import chess
import pytest

from games import registry
from games.chess.evaluation import EVALUATION_LIMIT, evaluate_board, game_phase

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

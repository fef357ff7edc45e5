"""Values read as winning chances: the reported chess game, where a queen up stayed "near 0" for 60 plies."""

from __future__ import annotations

import random

from games import registry
from server.analysis import positions

CHESS = registry.get("chess")
QUEEN = 0.09  # a queen up, on chess's scale of a won game (PeSTO's queen, 900-odd centipawns)


def test_a_queen_up_for_sixty_plies_keeps_the_graph_near_a_sure_win():
    """1.d4 e5 2.dxe5 Qg5?? 3.Bxg5, then 60 plies where white stays a queen up: every point of the graph
    gives white at least 95% (the old graph plotted the raw 0.09, a tenth of its height)."""
    opening = ["d2d4", "e7e5", "d4e5", "d8g5", "c1g5"]
    state = CHESS.initial_state()
    for m in opening:
        state = CHESS.apply(state, m)
    rng, moves = random.Random(3), list(opening)
    while len(moves) < len(opening) + 60:
        quiet = [m for m in CHESS.legal_moves(state) if not CHESS.is_tactical(state, m)]
        move = rng.choice(quiet or CHESS.legal_moves(state))  # the values below are given, not searched
        moves.append(move)
        state = CHESS.apply(state, move)
        assert not CHESS.is_terminal(state)
    searched = []
    for ply, move in enumerate(moves):
        white_value = 0.0 if ply < 3 else 0.01 if ply == 3 else QUEEN  # before the blunder: black a pawn down
        mover_value = white_value if ply % 2 == 0 else -white_value
        searched.append({"best_move": move, "value": mover_value, "depth": 4, "nodes": 1, "exact": False})
    searched[3]["best_move"] = "d7d6"  # black's best was not 2...Qg5
    plies = positions.ply_results("chess", [(ply, ply % 2, m) for ply, m in enumerate(moves)], searched)
    blunder = plies[3]
    assert blunder["class"] == "blunder" and blunder["notation"] == "Qg5" and blunder["best_notation"] == "d6"
    assert blunder["played_text"] == "-9.00" and blunder["value_text"] == "-1.00"
    after = [p["seat_chances"][0] for p in plies[4:]]
    assert len(after) == 61 and min(after) > 0.95
    assert all(p["class"] is None for p in plies[4:])  # keeping a queen up gives nothing away


def test_a_mate_reads_as_mate_in_n_and_a_proven_result_as_itself():
    chances = CHESS.spec.chances
    assert chances.text(0.997, proven=True, plies_to_end=3) == "#2"
    assert chances.expected_score(0.997, proven=True) == 1.0
    connect4 = registry.get("connect4").spec.chances
    assert connect4.text(0.0) == "50%" and connect4.text(-1.0, proven=True) == "loss"
    assert registry.get("backgammon").spec.chances.text(0.4231) == "+0.423"

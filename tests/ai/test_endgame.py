"""The exact endgame option: solved moves where affordable, ordinary search otherwise."""

from __future__ import annotations

import ai
from ai.budget import Deadline
from ai.endgame import exact_move
from games import registry

CONNECT4 = registry.get("connect4")
# From the published end-game set: the side to move wins (score 6).
WON = "67152117737262713366376314254"


def test_the_first_move_is_the_centre():
    result = ai.choose_move(
        CONNECT4, CONNECT4.initial_state(), ai.SearchConfig(time_budget_ms=100, options={"opening_book": True})
    )
    assert result.move == "4" and result.stats["exact"] == "opening"


def test_a_solved_endgame_plays_a_move_that_keeps_the_win():
    for moves in (WON, "44444333336766"):  # the second: a 2 s search alone threw this win away
        state = CONNECT4.from_moves(moves)
        assert ai.solve(CONNECT4, state) > 0
        # A budget far above the solve's ~2.5 s of CPU, so a busy machine does not turn it into a search.
        config = ai.SearchConfig(time_budget_ms=20000, options={"exact_endgame": 14})
        result = ai.choose_move(CONNECT4, state, config)
        assert result.stats.get("exact") == "won" and result.value == 1
        assert -ai.solve(CONNECT4, CONNECT4.play(state, result.move)) > 0


def test_without_a_win_the_exact_scores_choose_the_best_draw_or_the_slowest_loss():
    state = CONNECT4.from_moves("4444433333676646")
    result = ai.choose_move(CONNECT4, state, ai.SearchConfig(time_budget_ms=5000, options={"exact_endgame": 14}))
    assert result.stats["exact"] == "solved" and result.stats["exact_score"] == ai.solve(CONNECT4, state) < 0
    assert -ai.solve(CONNECT4, CONNECT4.play(state, result.move)) == result.stats["exact_score"]


def test_out_of_time_gives_way_to_the_ordinary_search():
    early = CONNECT4.from_moves("4453")
    assert exact_move(CONNECT4, early, Deadline.after_ms(1000), from_ply=14) is None  # too early
    assert exact_move(CONNECT4, early, Deadline.after_ms(1), from_ply=0) is None  # no time
    result = ai.choose_move(CONNECT4, early, ai.SearchConfig(time_budget_ms=60, options={"exact_endgame": 0}))
    assert result.move in CONNECT4.legal_moves(early) and "exact" not in result.stats


def test_other_games_ignore_the_option():
    ttt = registry.get("tictactoe")
    assert exact_move(ttt, ttt.initial_state(), Deadline.after_ms(100), from_ply=0) is None

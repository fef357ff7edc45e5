"""The exact endgame option: solved moves where affordable, ordinary search otherwise."""

from __future__ import annotations

import ai
from ai import endgame
from ai.budget import Deadline
from ai.endgame import exact_move
from ai.types import SearchResult
from games import registry
from games.connect4.solver import Connect4Solver

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
        # A budget far above the solve's ~2.5 s of CPU: a loaded machine must not turn it into a search.
        config = ai.SearchConfig(time_budget_ms=120_000, options={"exact_endgame": 14})
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


# A drawn middle game from the published solver positions (Test_L2_R1, score 0): columns 2, 3
# and 4 draw, 5 and 7 lose.
DRAWN = "5611761122133562247367317662"


class UnfinishedSolver(Connect4Solver):
    """A solver that runs out of time: after `finishes` solves, or in every exact scoring."""

    def __init__(self, finishes: int, scores: bool = False) -> None:
        super().__init__()
        self.finishes, self.scores = finishes, scores

    def solve_state(self, state, weak=False):
        self.spend()
        return super().solve_state(state, weak)

    def wins(self, state):
        self.spend()
        return super().wins(state)

    def spend(self):
        self.finishes -= 1
        if self.finishes < 0:
            raise TimeoutError("out of time")

    def move_scores(self, state):
        if not self.scores:
            raise TimeoutError("out of time")
        return super().move_scores(state)


def test_an_unfinished_exact_solve_still_plays_the_proven_draw(monkeypatch):
    state = CONNECT4.from_moves(DRAWN)
    solved = exact_move(CONNECT4, state, Deadline.after_ms(60_000), from_ply=14)
    assert solved is not None and solved.stats["exact"] == "solved"
    monkeypatch.setitem(endgame._SOLVERS, "connect4", UnfinishedSolver(finishes=99))
    kept = exact_move(CONNECT4, state, Deadline.after_ms(60_000), from_ply=14)
    assert kept is not None and kept.stats["exact"] == "drawn"
    assert kept.move == solved.move and kept.value == 0  # the move the finished solve plays


def test_the_search_after_an_unfinished_solve_is_held_to_a_proven_draw(monkeypatch):
    state = CONNECT4.from_moves(DRAWN)
    # 4 does not lose (one probe), then the weak solves: 4 and 3 draw, 5 loses; then out of time.
    monkeypatch.setitem(endgame._SOLVERS, "connect4", UnfinishedSolver(finishes=4))
    assert exact_move(CONNECT4, state, Deadline.after_ms(60_000), from_ply=14) is None
    losing = SearchResult(move="5", value=0.1, pv=["5"], algorithm="alphabeta")
    endgame.keep_proven(CONNECT4, state, losing)
    assert losing.move == "4" and losing.stats["exact"] == "kept draw" and losing.stats["best_move"] == "5"
    drawing = SearchResult(move="3", value=0.1, pv=["3"], algorithm="alphabeta")
    endgame.keep_proven(CONNECT4, state, drawing)
    assert drawing.move == "3"  # proved to draw: the search's own choice among draws stands
    unproven = SearchResult(move="2", value=0.1, pv=["2"], algorithm="alphabeta")
    endgame.keep_proven(CONNECT4, state, unproven)
    assert unproven.move == "4"  # nobody proved 2: a proven draw is not traded for it


def test_only_one_probe_is_needed_to_hold_the_search_to_a_move_that_does_not_lose(monkeypatch):
    state = CONNECT4.from_moves(DRAWN)
    monkeypatch.setitem(endgame._SOLVERS, "connect4", UnfinishedSolver(finishes=1))  # the first probe only
    assert exact_move(CONNECT4, state, Deadline.after_ms(60_000), from_ply=14) is None
    risky = SearchResult(move="7", value=0.2, pv=["7"], algorithm="alphabeta")
    endgame.keep_proven(CONNECT4, state, risky)
    assert risky.move == "4" and ai.solve(CONNECT4, CONNECT4.play(state, "4")) == 0  # 7 loses; 4 keeps the draw


def test_a_win_the_search_proved_itself_is_kept():
    state = CONNECT4.from_moves(DRAWN)
    endgame._PROVEN["connect4"] = (CONNECT4.key(state), {"4": endgame.NOT_LOSING})
    won = SearchResult(move="2", value=0.99, pv=["2"], algorithm="alphabeta", stats={"plies_to_end": 3})
    endgame.keep_proven(CONNECT4, state, won)
    assert won.move == "2"


def test_the_not_losing_probe_agrees_with_the_exact_score():
    solver = Connect4Solver()
    for moves in (DRAWN, DRAWN + "5", DRAWN + "57"):  # late positions: exact scores are quick
        state = CONNECT4.from_moves(moves)
        for move in CONNECT4.legal_moves(state):
            after = CONNECT4.play(state, move)
            if not CONNECT4.is_terminal(after):
                assert solver.wins(after) == (Connect4Solver().solve_state(after) > 0)


def test_the_master_keeps_the_draw_when_its_solver_cannot_finish(monkeypatch):
    state = CONNECT4.from_moves(DRAWN)
    monkeypatch.setitem(endgame._SOLVERS, "connect4", UnfinishedSolver(finishes=3))
    config = ai.SearchConfig(time_budget_ms=500, options={"exact_endgame": 14}, seed=1)
    result = ai.choose_move(CONNECT4, state, config)
    assert result.move in ("2", "3", "4")

"""Progress reports: `choose_move(..., on_progress=f)` hears depth and nodes, never the move."""

from __future__ import annotations

import pytest

import ai
from ai import progress
from games import registry

FIGURES = {"depth", "nodes", "elapsed_ms", "iterations"}


@pytest.mark.parametrize(
    ("game_id", "config"),
    [
        ("connect4", ai.SearchConfig("alphabeta", time_budget_ms=2000, max_depth=5, seed=1)),
        ("othello", ai.SearchConfig("alphabeta", time_budget_ms=2000, max_depth=3, seed=1)),
        ("backgammon", ai.SearchConfig("expectimax", time_budget_ms=2000, max_depth=1, seed=1)),
        ("chinese-checkers", ai.SearchConfig("maxn", time_budget_ms=2000, max_depth=2, seed=1)),
        ("connect4", ai.SearchConfig("mcts", time_budget_ms=2000, max_iterations=600, seed=1)),
    ],
)
def test_each_searcher_reports_as_it_goes_and_never_the_move(game_id, config):
    game = registry.get(game_id)
    state = game.initial_state()
    if game.to_move(state) == -1:  # backgammon opens with a roll
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    reports = []
    result = ai.choose_move(game, state, config, on_progress=reports.append)
    assert reports, "no progress was reported"
    for figures in reports:
        assert set(figures) <= FIGURES  # figures only: no move, value or line
        assert all(isinstance(v, int | float) for v in figures.values())
    nodes = [r["nodes"] for r in reports]
    assert nodes == sorted(nodes) and nodes[-1] <= result.nodes
    if config.algorithm == "mcts":
        assert [r["iterations"] for r in reports] == [256, 512]
    else:
        assert [r["depth"] for r in reports] == list(range(1, result.depth + 1))
    # Listening changes nothing about the search.
    assert ai.choose_move(game, state, config).move == result.move


def test_nobody_listens_outside_a_search():
    game = registry.get("tictactoe")
    reports = []
    ai.choose_move(game, game.initial_state(), ai.SearchConfig(time_budget_ms=200), on_progress=reports.append)
    assert reports and not progress.active()
    heard = len(reports)
    ai.choose_move(game, game.initial_state(), ai.SearchConfig(time_budget_ms=200))
    assert len(reports) == heard  # a later search without a callback reports to nobody

"""MCTS: convergence to the minimax move, statistics, tree reuse, chance, rollout options."""

from __future__ import annotations

import pytest

import ai
from ai import mcts
from games import registry
from tests.ai.trees import TreeGame, exact_value

TICTACTOE = registry.get("tictactoe")
CONNECT4 = registry.get("connect4")


def mcts_config(iterations: int, seed: int = 1, **options) -> ai.SearchConfig:
    return ai.SearchConfig(
        algorithm="mcts", time_budget_ms=60_000, max_iterations=iterations, seed=seed, options=options
    )


def best_moves(game, state) -> set[str]:
    seat = game.to_move(state)
    values = {}
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        values[move] = game.returns(child)[seat] if game.is_terminal(child) else -exact_value(game, child)
    top = max(values.values())
    return {m for m, v in values.items() if v == top}


# Positions with one right move: win at once, block, or take the only drawing cell.
POSITIONS = [
    [0, 0, None, 1, 1, None, None, None, None],  # X wins on 3
    [0, None, None, None, 1, None, None, None, 0],  # O to move: an edge holds, a corner loses
    [0, 0, None, None, 1, None, None, None, None],  # O must block on 3
    [1, None, None, None, 0, None, None, None, 0],  # X to move, fork chances
]


@pytest.mark.parametrize("board", POSITIONS)
def test_converges_to_the_minimax_move(board):
    state = TICTACTOE.from_json({"board": board})
    right = best_moves(TICTACTOE, state)
    result = ai.choose_move(TICTACTOE, state, mcts_config(4000))
    assert result.move in right


def test_visit_share_of_the_right_move_grows_with_iterations():
    state = TICTACTOE.from_json({"board": [0, 0, None, None, 1, None, None, None, None]})
    shares = []
    for n in (50, 500, 5000):
        visits = ai.choose_move(TICTACTOE, state, mcts_config(n)).stats["visits"]
        shares.append(visits["3"] / sum(visits.values()))
    assert shares[0] < shares[2] and shares[2] > 0.5


def test_connect4_finds_the_win_and_the_block_with_both_rollouts():
    for rollout in ("random", "heuristic"):
        win = ai.choose_move(CONNECT4, CONNECT4.from_moves("445566"), mcts_config(3000, rollout=rollout))
        assert win.move in ("3", "7")
        block = ai.choose_move(CONNECT4, CONNECT4.from_moves("4455661"), mcts_config(3000, rollout=rollout))
        assert block.move in ("3", "7")


def test_rollout_cutoff_uses_the_evaluation():
    result = ai.choose_move(CONNECT4, CONNECT4.from_moves("44"), mcts_config(300, rollout_depth=4))
    assert result.move in CONNECT4.legal_moves(CONNECT4.from_moves("44"))
    with pytest.raises(ValueError, match="rollout"):
        ai.choose_move(CONNECT4, CONNECT4.initial_state(), mcts_config(10, rollout="clever"))


def test_stats_have_visits_and_values_per_root_move():
    state = CONNECT4.from_moves("4453")
    data = ai.choose_move(CONNECT4, state, mcts_config(500)).to_json()
    assert set(data["visits"]) == set(CONNECT4.legal_moves(state))
    assert sum(data["visits"].values()) == 500
    assert data["move"] == max(data["visits"], key=data["visits"].get)  # the most visited
    assert all(-1 <= v <= 1 for v in data["values"].values())
    assert data["pv"][0] == data["move"]


def test_deterministic_for_a_seed():
    state = CONNECT4.from_moves("4453")
    runs = [ai.choose_move(CONNECT4, state, mcts_config(400, seed=9)).stats["visits"] for _ in range(2)]
    assert runs[0] == runs[1]


def test_tree_is_reused_within_a_match():
    mcts.forget_trees()
    state = CONNECT4.from_moves("44")
    config = mcts_config(2000, match_id="m-1")
    first = ai.choose_move(CONNECT4, state, config)
    assert first.stats["reused_visits"] == 0
    state = CONNECT4.play(CONNECT4.play(state, first.move), "4")
    second = ai.choose_move(CONNECT4, state, config)
    assert second.stats["reused_visits"] > 0
    other = ai.choose_move(CONNECT4, state, mcts_config(10, match_id="m-2"))
    assert other.stats["reused_visits"] == 0


def test_chance_nodes_are_sampled_by_probability():
    game = TreeGame([[0, 8], [3, 3]], chance_depths=[1], max_utility=10)
    result = ai.choose_move(game, (), mcts_config(2000, c=0.5))
    assert result.move == "0"  # 4 on average against a sure 3


def test_progressive_bias_can_be_turned_off():
    state = CONNECT4.from_moves("4453")
    result = ai.choose_move(CONNECT4, state, mcts_config(200, progressive_bias=0))
    assert result.move in CONNECT4.legal_moves(state)

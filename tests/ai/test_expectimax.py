"""Expectimax: chance nodes, opponent models, the gamble against a fallible opponent."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ai
from ai import opponents
from ai.evaluation import Evaluator
from ai.expectimax import Expectimax
from ai.opponents import OpponentModel
from tests.ai.trees import TreeGame

INF = float("inf")
# A safe +3 (both replies give 3) against a gamble: +1 if the opponent finds the best
# reply, +10 if it misses it.
GAMBLE = [[3, 3], [1, 10]]


def pick(game, model=None, **options):
    config = ai.SearchConfig(algorithm="expectimax", opponent_model=model, options=options)
    return ai.choose_move(game, (), config)


def test_minimax_takes_the_safe_move():
    assert pick(TreeGame(GAMBLE)).move == "0"
    assert ai.choose_move(TreeGame(GAMBLE), (), ai.SearchConfig()).move == "0"  # alpha-beta agrees


def test_epsilon_optimal_opponent_makes_the_gamble_worth_it():
    # epsilon 2/3: best reply with probability 1/3 + 2/3 * 1/2 = 2/3 of the time.
    result = pick(TreeGame(GAMBLE), "epsilon:0.6667")
    assert result.move == "1"
    assert result.value == pytest.approx(1 / 3 * 1 + 2 / 3 * 5.5, abs=0.05)  # 4.0 > 3
    # An opponent that finds the reply 90% of the time: the gamble is worth 1.9, the safe move 3.
    assert pick(TreeGame(GAMBLE), "epsilon:0.2").move == "0"


def test_uniform_and_softmax_models():
    assert pick(TreeGame(GAMBLE), "uniform").move == "1"  # 5.5 on average
    result = pick(TreeGame(GAMBLE), "softmax:0.5")
    assert result.stats["opponent_model"]["kind"] == "softmax"


def test_adaptive_model_exploits_a_weak_opponent_and_respects_a_strong_one():
    weak = [{"state": {"path": [1]}, "move": "1"}] * 12  # kept missing the reply that holds MAX to 1
    strong = [{"state": {"path": [1]}, "move": "0"}] * 12
    assert pick(TreeGame(GAMBLE), "adaptive").move == "0"  # no evidence yet: assume a strong player
    assert pick(TreeGame(GAMBLE), "adaptive", opponent_moves=weak).move == "1"
    result = pick(TreeGame(GAMBLE), "adaptive", opponent_moves=strong)
    assert result.move == "0"
    assert result.stats["opponent_model"]["epsilon"] < 0.1


def test_adaptive_model_learns_from_the_match_memory():
    from games import registry

    game = registry.get("tictactoe")
    options = {"match_id": "adaptive-test"}
    config = ai.SearchConfig(algorithm="expectimax", opponent_model="adaptive", options=options, seed=1)
    state = game.initial_state()
    for _ in range(3):  # the bot moves, the opponent replies with the worst-looking cell
        result = ai.choose_move(game, state, config)
        state = game.play(state, result.move)
        if game.is_terminal(state):
            break
        glance = opponents.shallow_values(game, state, Evaluator(game))
        state = game.play(state, min(glance, key=glance.get))
        if game.is_terminal(state):
            break
    if not game.is_terminal(state):
        eps = ai.choose_move(game, state, config).stats["opponent_model"]["epsilon"]
        assert eps > opponents.PRIOR_EPSILON


def test_chance_nodes_take_the_expectation():
    game = TreeGame([[0, 8], [3, 3]], chance_depths=[1], max_utility=10)
    result = pick(game)
    assert result.move == "0"
    assert result.value == pytest.approx(4.0, abs=0.05)


def brute(game, state, model: OpponentModel, seat=0) -> float:
    if game.is_terminal(state):
        return game.returns(state)[seat] * (1 - 1e-3 * len(state))
    values = [brute(game, game.apply(state, m), model, seat) for m in game.legal_moves(state)]
    mover = game.to_move(state)
    if mover == -1:
        return sum(values) / len(values)
    if mover == seat:
        return max(values)
    if model.kind == "optimal":
        return min(values)
    e = 1.0 if model.kind == "uniform" else model.epsilon
    return (1 - e) * min(values) + e * sum(values) / len(values)


leaf = st.integers(-9, 9)


def tree(depth: int):
    return leaf if depth == 0 else st.lists(tree(depth - 1), min_size=1, max_size=3)


@settings(max_examples=80, deadline=None)
@given(tree(4), st.sampled_from(["optimal", "uniform", "epsilon:0.3"]), st.sampled_from([(), (1,), (2,), (1, 3)]))
def test_pruned_values_equal_the_full_expectation(t, spec, chance):
    game = TreeGame(t, chance_depths=chance, max_utility=9)
    if not isinstance(t, list):
        return
    model = opponents.build(spec, game, (), Evaluator(game), {})
    expected = brute(game, (), model)
    searcher = Expectimax(game, 0, model, Evaluator(game), None)
    assert searcher.value((), 99, -INF, INF, 0) == pytest.approx(expected)
    # A narrow window still answers on the right side of it.
    lo, hi = expected - 0.5, expected + 0.5
    assert lo < searcher.value((), 99, lo, hi, 0) < hi


def test_bounds_pruning_skips_work():
    rng = random.Random(2)
    t = [[[rng.randint(-9, 9) for _ in range(3)] for _ in range(3)] for _ in range(4)]
    game = TreeGame(t, chance_depths=[1], max_utility=9)
    Expectimax(game, 0, OpponentModel("optimal"), Evaluator(game), None).value((), 99, -INF, INF, 0)
    assert len(game.examined) < 36


def test_backgammon_like_chance_positions_work_through_choose_move():
    from games import registry

    game = registry.get("backgammon")
    state = game.initial_state()
    rng = random.Random(0)
    while game.to_move(state) == -1:
        state = game.apply(state, game.rollout_move(state, rng))
    result = ai.choose_move(game, state, ai.SearchConfig(algorithm="expectimax", time_budget_ms=150, seed=1))
    assert result.move in game.legal_moves(state)

"""Max^n with shallow pruning, and paranoid search, on three-seat trees and Chinese checkers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ai
from ai.evaluation import Evaluator
from ai.maxn import MaxN
from games import registry
from tests.ai.trees import ThreeSeatTree


def plain_maxn(game, state):
    if game.is_terminal(state):
        return list(game.returns(state))
    seat = game.to_move(state)
    children = [plain_maxn(game, game.apply(state, m)) for m in game.legal_moves(state)]
    return max(children, key=lambda v: v[seat])  # the first best, as max^n takes it


def paranoid(game, state, seat=0):
    if game.is_terminal(state):
        return game.returns(state)[seat]
    values = [paranoid(game, game.apply(state, m), seat) for m in game.legal_moves(state)]
    return max(values) if game.to_move(state) == seat else min(values)


def vec(a: int, b: int) -> tuple[int, int, int]:
    return (a, b, -a - b)


# The textbook three-seat tree: seat 0 picks among seat 1's choices among seat 2's leaves.
TREE = [
    [[vec(3, 3), vec(1, 4)], [vec(2, 2), vec(4, 1)]],
    [[vec(1, 5), vec(5, 1)], [vec(6, 0), vec(0, 6)]],
]


def test_maxn_follows_each_seat_own_interest():
    game = ThreeSeatTree(TREE, max_utility=12)
    result = ai.choose_move(game, (), ai.SearchConfig(algorithm="maxn"))
    expected = plain_maxn(game, ())
    assert result.value == pytest.approx(expected[0], abs=0.05)
    assert result.algorithm == "maxn"


def test_alphabeta_on_three_seats_runs_maxn():
    game = ThreeSeatTree(TREE, max_utility=12)
    result = ai.choose_move(game, (), ai.SearchConfig(algorithm="alphabeta"))
    assert result.algorithm == "maxn" and result.stats["requested"] == "alphabeta"


def test_paranoid_assumes_a_coalition():
    game = ThreeSeatTree(TREE, max_utility=12)
    result = ai.choose_move(game, (), ai.SearchConfig(algorithm="maxn", options={"paranoid": True}))
    assert result.value == pytest.approx(paranoid(game, ()), abs=0.05)
    assert result.stats["paranoid"] is True


leaf = st.tuples(st.integers(-4, 4), st.integers(-4, 4)).map(lambda ab: vec(*ab))


def tree(depth: int):
    return leaf if depth == 0 else st.lists(tree(depth - 1), min_size=1, max_size=3)


@settings(max_examples=80, deadline=None)
@given(tree(4))
def test_shallow_pruning_keeps_the_max_n_value(t):
    game = ThreeSeatTree(t, max_utility=8)
    expected = plain_maxn(game, ())[0]
    total = len(game.examined)
    game.examined.clear()
    searcher = MaxN(game, Evaluator(game), None)
    searcher.root_seat = 0
    assert searcher.maxn((), 99, 0, None, -float("inf"))[0] == pytest.approx(expected * (1 - 4e-3))
    assert len(game.examined) <= total


def test_chinese_checkers_three_seats():
    game = registry.get("chinese-checkers")
    state = game.initial_state()
    for paranoid_option in (False, True):
        config = ai.SearchConfig(algorithm="maxn", time_budget_ms=150, seed=1, options={"paranoid": paranoid_option})
        result = ai.choose_move(game, state, config)
        assert result.move in game.legal_moves(state)
        assert result.depth >= 1

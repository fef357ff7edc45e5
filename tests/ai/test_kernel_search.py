"""A game's search kernel (Connect Four's bitboards) searches exactly what the generic alpha-beta searches."""

from __future__ import annotations

import random
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ai
from ai.evaluation import Evaluator
from ai.kernel_search import KernelAlphaBeta
from games import registry
from games.connect4 import Connect4
from games.connect4.kernel import KERNEL, window_totals
from tests.ai.trees import minimax, random_position

INF = float("inf")
CONNECT4 = registry.get("connect4")


def comparable(result: ai.SearchResult) -> dict:
    data = result.to_json()
    for timing in ("elapsed_ms", "nps", "kernel"):
        data.pop(timing, None)
    return data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10_000),
    st.integers(0, 34),
    st.integers(1, 5),
    st.sampled_from(["balanced", "aggressive", "defensive"]),
    st.booleans(),
)
def test_kernel_gives_the_generic_result_node_for_node(seed, plies, depth, style, weakened):
    state = random_position(CONNECT4, random.Random(seed), plies)
    if CONNECT4.is_terminal(state) or len(CONNECT4.legal_moves(state)) < 2:
        return
    levers = {"slip_rate": 0.5, "temperature": 0.2} if weakened else {}
    config = {"time_budget_ms": 600_000, "max_depth": depth, "style": style, "seed": seed, **levers}
    fast = ai.choose_move(CONNECT4, state, ai.SearchConfig(**config))
    generic = ai.choose_move(CONNECT4, state, ai.SearchConfig(**config, options={"fast": False}))
    assert fast.stats["kernel"] == "connect4-bitboard" and "kernel" not in generic.stats
    assert comparable(fast) == comparable(generic)  # move, value, depth, nodes, pv, root values


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 30), st.integers(1, 3))
def test_kernel_negamax_is_the_minimax_value(seed, plies, depth):
    state = random_position(CONNECT4, random.Random(seed), plies)
    if CONNECT4.is_terminal(state):
        return
    seat = CONNECT4.to_move(state)
    for use_tt in (True, False):
        searcher = KernelAlphaBeta(CONNECT4, KERNEL, use_tt=use_tt)
        searcher.root_seat = seat
        assert searcher.negamax(state, seat, depth, -INF, INF, 0) == minimax(CONNECT4, state, depth)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 41))
def test_window_totals_are_the_games_evaluation(seed, plies):
    state = random_position(CONNECT4, random.Random(seed), plies)
    packed = window_totals(state)
    totals = (packed & 0xFFFF, packed >> 16)
    for seat in (0, 1):
        own, other = CONNECT4.evaluate_terms(state, seat)
        assert (own, other) == (totals[seat] / 200, totals[1 - seat] / 200)


def test_the_kernel_is_used_only_where_it_computes_the_same():
    state = CONNECT4.initial_state()
    assert CONNECT4.search_kernel() is KERNEL and KERNEL.supports(CONNECT4, state)

    class Tweaked(Connect4):
        def evaluate(self, state, seat):
            return 0.0

    assert not KERNEL.supports(Tweaked(), state)
    result = ai.choose_move(CONNECT4, state, ai.SearchConfig(max_depth=2, options={"ordering": False}))
    assert "kernel" not in result.stats


def test_kernel_keeps_to_its_deadline_and_styles_change_its_values():
    state = CONNECT4.from_moves("44433")
    started = time.perf_counter()
    result = ai.choose_move(CONNECT4, state, ai.SearchConfig(time_budget_ms=100, seed=1))
    assert (time.perf_counter() - started) * 1000 < 100 + 100  # generous: the tests share 2 cores
    assert result.stats["kernel"] == "connect4-bitboard" and result.depth >= 4
    assert result.pv[0] == result.move
    styles = ("balanced", "aggressive", "defensive")
    assert len({Evaluator(CONNECT4, style)(state, 0) for style in styles}) == 3
    searched = {ai.choose_move(CONNECT4, state, ai.SearchConfig(max_depth=1, style=s)).value for s in styles}
    assert len(searched) == 3


def test_kernels_write_the_table_layout_the_searcher_reads():
    from ai import tt
    from games import hooks

    assert (hooks.EXACT, hooks.LOWER, hooks.UPPER) == (tt.EXACT, tt.LOWER, tt.UPPER)
    table = tt.TranspositionTable(16)
    table.store(5, 3, tt.LOWER, 0.5, 2)
    key, depth, bound, score, move, age = table.slots[5 & table.mask]  # the layout `games.hooks` documents
    assert (key, depth, bound, score, move, age) == (5, 3, hooks.LOWER, 0.5, 2, table.age)

"""Alpha-beta: textbook trees, equality with minimax, tic-tac-toe perfection, budgets."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ai
from ai.alphabeta import AlphaBeta
from ai.tt import EXACT, LOWER, TranspositionTable
from games import registry
from tests.ai.trees import TreeGame, exact_value, minimax, random_position
from tests.deadlines import CountedDeadline

INF = float("inf")
TICTACTOE = registry.get("tictactoe")
CONNECT4 = registry.get("connect4")


def plain(game, **options):
    """Alpha-beta without TT, killers or null windows: the textbook algorithm."""
    return AlphaBeta(game, use_tt=False, use_ordering=False, use_pvs=False, **options)


# --- textbook trees --------------------------------------------------------
def test_three_min_nodes_value_3_never_examines_4_and_6():
    game = TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    assert ai.solve(game, ()) == 3
    assert game.examined == [3, 12, 8, 2, 14, 5, 2]  # 4 and 6 are cut off


def test_max_min_max_tree_value_6_examines_only_6_5_8_2_1():
    game = TreeGame([[[6, 5], [8, 7]], [[2, 1], [4, 3]]])
    assert ai.solve(game, ()) == 6
    assert game.examined == [6, 5, 8, 2, 1]  # 7 is skipped by a correct cutoff, 4 and 3 too


def test_textbook_tree_through_choose_move():
    game = TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    config = ai.SearchConfig(max_depth=2, options={"iterative": False})
    result = ai.choose_move(game, (), config)
    assert result.move == "0"
    assert round(result.value) == 3
    assert 4 not in game.examined and 6 not in game.examined


# --- equality with minimax --------------------------------------------------
leaves = st.integers(min_value=-9, max_value=9)
trees = st.recursive(leaves, lambda sub: st.lists(sub, min_size=1, max_size=4), max_leaves=40)


def count_leaves(tree) -> int:
    return sum(count_leaves(t) for t in tree) if isinstance(tree, list) else 1


@settings(max_examples=100, deadline=None)
@given(trees.filter(lambda t: isinstance(t, list)))
def test_alphabeta_equals_minimax_on_random_trees(tree):
    game = TreeGame(tree)
    expected = exact_value(game, ())
    shaped = minimax(game, (), 99)  # alpha-beta's scale: wins sooner score higher
    game.examined.clear()
    assert plain(game).negamax((), 0, 99, -INF, INF, 0) == shaped
    assert len(game.examined) <= count_leaves(tree)
    game.examined.clear()
    assert ai.solve(game, ()) == expected  # with TT, ordering and null windows


def test_alphabeta_examines_fewer_leaves_than_minimax_overall():
    rng = random.Random(7)
    examined = total = 0
    for _ in range(50):
        tree = [[[rng.randint(-9, 9) for _ in range(3)] for _ in range(3)] for _ in range(3)]
        game = TreeGame(tree)
        plain(game).negamax((), 0, 99, -INF, INF, 0)
        examined += len(game.examined)
        total += 27
    assert examined < 0.8 * total


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 12), st.integers(1, 3))
def test_alphabeta_equals_minimax_on_random_connect4_positions(seed, plies, depth):
    state = random_position(CONNECT4, random.Random(seed), plies)
    if CONNECT4.is_terminal(state):
        return
    expected = minimax(CONNECT4, state, depth)
    for searcher in (plain(CONNECT4), AlphaBeta(CONNECT4, use_tt=False)):
        value = searcher.negamax(state, CONNECT4.to_move(state), depth, -INF, INF, 0)
        assert value == pytest.approx(expected)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 8))
def test_alphabeta_equals_minimax_on_random_tictactoe_positions(seed, plies):
    state = random_position(TICTACTOE, random.Random(seed), plies)
    if TICTACTOE.is_terminal(state):
        return
    assert ai.solve(TICTACTOE, state) == exact_value(TICTACTOE, state)
    expected = minimax(TICTACTOE, state, 9)
    searcher = AlphaBeta(TICTACTOE)  # with the TT: full depth, so values agree exactly
    assert searcher.negamax(state, TICTACTOE.to_move(state), 9, -INF, INF, 0) == pytest.approx(expected)


def test_alphabeta_visits_fewer_nodes_than_minimax_on_connect4():
    state = CONNECT4.from_moves("4453")
    counter = plain(CONNECT4)
    counter.negamax(state, CONNECT4.to_move(state), 4, -INF, INF, 0)
    full = 7**4  # every line of four plies from a position with seven open columns
    assert counter.nodes < full / 3


# --- the searcher through choose_move --------------------------------------
def reachable(game, state=None, seen=None):
    state = game.initial_state() if state is None else state
    seen = {} if seen is None else seen
    if state.board in seen or game.is_terminal(state):
        return seen
    seen[state.board] = state
    for move in game.legal_moves(state):
        reachable(game, game.apply(state, move), seen)
    return seen


def check_keeps_value(positions):
    memo: dict = {}
    for state in positions:
        result = ai.choose_move(TICTACTOE, state, ai.SearchConfig(time_budget_ms=5000, seed=1))
        after = TICTACTOE.play(state, result.move)
        value = exact_value(TICTACTOE, state, memo)
        if TICTACTOE.is_terminal(after):
            got = TICTACTOE.returns(after)[TICTACTOE.to_move(state)]
        else:
            got = -exact_value(TICTACTOE, after, memo)
        assert got == value, (state.board, result.move)


def test_tictactoe_strongest_keeps_the_value_of_sampled_positions():
    positions = list(reachable(TICTACTOE).values())
    check_keeps_value(random.Random(3).sample(positions, 250))


@pytest.mark.slow
def test_tictactoe_strongest_keeps_the_value_of_every_reachable_position():
    check_keeps_value(reachable(TICTACTOE).values())


def test_prefers_the_quicker_win_and_blocks():
    # X to move can win at once on 3 (row 1-2-3); a slower win exists too.
    state = TICTACTOE.from_json({"board": [0, 0, None, 1, 1, None, None, None, None]})
    result = ai.choose_move(TICTACTOE, state, ai.SearchConfig(time_budget_ms=1000))
    assert result.move == "3"
    assert result.stats["plies_to_end"] == 1
    # O to move must block X's row 1-2-3.
    state = TICTACTOE.from_json({"board": [0, 0, None, 1, None, None, None, None, None]})
    assert ai.choose_move(TICTACTOE, state, ai.SearchConfig(time_budget_ms=1000)).move == "3"


def test_connect4_takes_a_win_and_stops_an_open_three():
    state = CONNECT4.from_moves("445566")  # the first player wins on 3 or 7
    result = ai.choose_move(CONNECT4, state, ai.SearchConfig(time_budget_ms=300, seed=1))
    assert result.move in ("3", "7")
    state = CONNECT4.from_moves("4455661")  # the second player must block 3 or 7 — and still loses
    result = ai.choose_move(CONNECT4, state, ai.SearchConfig(time_budget_ms=300, seed=1))
    assert result.move in ("3", "7")
    assert result.value < -0.9


def test_stats_are_json_and_principal_variation_is_legal():
    import json

    state = CONNECT4.from_moves("4453")
    result = ai.choose_move(CONNECT4, state, ai.SearchConfig(time_budget_ms=200, seed=1))
    data = json.loads(json.dumps(result.to_json()))
    for field in ("depth", "nodes", "nps", "value", "pv", "elapsed_ms", "move"):
        assert field in data
    assert data["pv"][0] == result.move
    for move in data["pv"]:
        state = CONNECT4.play(state, move)


@pytest.mark.parametrize("exact_root", [False, True])
def test_a_search_cut_short_mid_iteration_still_gives_its_moves_line(exact_root):
    """Wherever the deadline falls, a result deeper than one ply comes with its line (the best
    line analysis shows): also when an unfinished iteration changed the move."""
    chess = registry.get("chess")
    state = chess.initial_state()
    for move in ("d2d4", "e7e5", "d4e5"):
        state = chess.apply(state, move)
    refinements = ("null_move", "lmr", "check_extension", "delta_pruning", "see_pruning", "tactical_first")
    config = ai.SearchConfig(seed=0, options={**dict.fromkeys(refinements, True), "exact_root": exact_root})
    for looks in range(1000, 2200, 150):  # deadlines inside the second and third iterations
        result = ai.choose_move(chess, state, config, deadline=CountedDeadline(looks))
        if result.depth > 1:
            assert result.pv[0] == result.move and len(result.pv) > 1, (looks, result.depth, result.pv)
        line = state
        for move in result.pv:
            assert move in chess.legal_moves(line)
            line = chess.apply(line, move)


def test_deterministic_for_a_seed_at_a_fixed_depth():
    state = CONNECT4.from_moves("44")
    config = ai.SearchConfig(time_budget_ms=5000, max_depth=5, seed=4, slip_rate=0.3, temperature=0.2)
    first = [ai.choose_move(CONNECT4, state, config).to_json() for _ in range(2)]
    for data in first:
        data.pop("elapsed_ms"), data.pop("nps")
    assert first[0] == first[1]


# --- the transposition table -----------------------------------------------
def test_tt_is_bounded_and_prefers_deeper_entries():
    tt = TranspositionTable(4)
    assert len(tt) == 4
    for key in range(100):
        tt.store(key, 1, EXACT, 0.0, None)
    assert tt.used() <= 4
    tt.store("a", 5, LOWER, 1.0, "1")
    index = hash("a") & tt.mask
    other = next(k for k in range(1000) if hash(k) & tt.mask == index)
    tt.store(other, 2, EXACT, 0.0, None)  # shallower: the deeper entry stays
    assert tt.probe("a") == (5, LOWER, 1.0, "1")
    tt.new_search()
    tt.store(other, 2, EXACT, 0.0, None)  # an entry of an old search gives way
    assert tt.probe("a") is None and tt.probe(other) is not None

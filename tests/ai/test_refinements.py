"""Alpha-beta's optional refinements (check extension, null move, LMR, delta pruning, tactical first).

Each is off by default; on a game that does not offer the hooks they read, the ones that
only act through those hooks change nothing, node for node.
"""

from __future__ import annotations

import random

import pytest

import ai
from ai.alphabeta import AlphaBeta
from games import registry
from tests.ai.trees import random_position

INF = float("inf")
CONNECT4 = registry.get("connect4")


def search_nodes(game, state, depth, **options):
    searcher = AlphaBeta(game, use_tt=False, **options)
    value = searcher.negamax(state, game.to_move(state), depth, -INF, INF, 0)
    return value, searcher.nodes


@pytest.mark.parametrize("seed", range(6))
def test_hook_driven_refinements_change_nothing_on_a_game_without_the_hooks(seed):
    state = random_position(CONNECT4, random.Random(seed), 6)
    if CONNECT4.is_terminal(state):
        return
    plain = search_nodes(CONNECT4, state, 4)
    refined = search_nodes(
        CONNECT4, state, 4, check_extension=True, null_move=True, delta_pruning=True, see_pruning=True
    )
    assert refined == plain


def test_late_move_reductions_search_fewer_nodes():
    state = CONNECT4.from_moves("4453")
    full = search_nodes(CONNECT4, state, 7)
    reduced = search_nodes(CONNECT4, state, 7, lmr=True)
    assert reduced[1] < 0.7 * full[1]


def test_the_options_parse_and_default_off():
    options = ai.SearchConfig(options={"null_move": True, "lmr": True}).options
    assert options.null_move and options.lmr and not options.check_extension
    assert ai.SearchConfig().options.to_json() == {}
    with pytest.raises(ValueError, match="null_move"):
        ai.SearchConfig(options={"null_move": "yes"})


def test_a_refined_search_does_not_use_the_game_kernel():
    state = CONNECT4.from_moves("44")
    plain = ai.choose_move(CONNECT4, state, ai.SearchConfig(max_depth=3, seed=1))
    refined = ai.choose_move(CONNECT4, state, ai.SearchConfig(max_depth=3, seed=1, options={"lmr": True}))
    assert "kernel" in plain.stats and "kernel" not in refined.stats

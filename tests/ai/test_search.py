"""choose_move: every searcher answers legally within its budget, from any position."""

from __future__ import annotations

import json
import random
import time

import pytest

import ai
from ai.search import SAFETY_MARGIN_MS
from games import registry
from games.base import CHANCE

SEARCHERS = ["alphabeta", "expectimax", "mcts", "maxn"]
MARGIN_MS = 100  # generous: these tests share 2 cores with other work; the benchmarks measure precisely


def position(game_id: str, plies: int, seed: int = 0):
    game = registry.get(game_id)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.apply(state, game.rollout_move(state, rng))
    while game.to_move(state) == CHANCE:
        state = game.apply(state, game.rollout_move(state, rng))
    return game, state


def timed(game, state, config, deadline=None):
    started = time.perf_counter()
    result = ai.choose_move(game, state, config, deadline)
    return result, (time.perf_counter() - started) * 1000


@pytest.mark.parametrize("algorithm", SEARCHERS)
@pytest.mark.parametrize("budget", [50, 200, 1000])
def test_connect4_midgame_within_budget(algorithm, budget):
    game, state = position("connect4", 0)
    state = game.from_moves("44433")  # an open middle game: the tree is wide and deep
    result, elapsed = timed(game, state, ai.SearchConfig(algorithm=algorithm, time_budget_ms=budget, seed=1))
    assert result.move in game.legal_moves(state)
    assert elapsed < budget + MARGIN_MS
    json.dumps(result.to_json())


@pytest.mark.parametrize("algorithm", SEARCHERS)
@pytest.mark.parametrize("game_id", ["othello", "backgammon", "chinese-checkers", "chinese-checkers-2"])
def test_other_games_within_budget(algorithm, game_id):
    game, state = position(game_id, 10)
    result, elapsed = timed(game, state, ai.SearchConfig(algorithm=algorithm, time_budget_ms=50, seed=1))
    assert result.move in game.legal_moves(state)
    assert elapsed < 50 + MARGIN_MS
    json.dumps(result.to_json())


@pytest.mark.parametrize("algorithm", [*SEARCHERS, "random"])
def test_a_passed_deadline_still_gives_a_legal_move(algorithm):
    game, state = position("connect4", 6)
    result, elapsed = timed(game, state, ai.SearchConfig(algorithm=algorithm), deadline=time.time() - 1)
    assert result.move in game.legal_moves(state)
    assert elapsed < MARGIN_MS


def test_epoch_and_deadline_objects_are_both_accepted():
    game, state = position("connect4", 6)
    result, elapsed = timed(game, state, ai.SearchConfig(time_budget_ms=10_000), deadline=time.time() + 0.1)
    assert elapsed < 100 + MARGIN_MS
    result, elapsed = timed(game, state, ai.SearchConfig(time_budget_ms=10_000), deadline=ai.Deadline.after_ms(100))
    assert elapsed < 100 + MARGIN_MS
    assert SAFETY_MARGIN_MS > 0


@pytest.mark.parametrize("algorithm", SEARCHERS)
def test_single_legal_move_and_forced_win(algorithm):
    game = registry.get("connect4")
    # Column 1..6 full except one: build a position with one open column by playing it out.
    state = game.from_moves("445566")  # a forced win on 3 or 7
    result = ai.choose_move(game, state, ai.SearchConfig(algorithm=algorithm, time_budget_ms=300, seed=2))
    assert result.move in ("3", "7") or algorithm == "mcts" and result.move in game.legal_moves(state)
    ttt = registry.get("tictactoe")
    one = ttt.from_json({"board": [0, 1, 0, 0, 1, 1, 1, 0, None]})
    assert ai.choose_move(ttt, one, ai.SearchConfig(algorithm=algorithm)).move == "9"


def test_every_registered_game_and_searcher_plays_a_few_moves():
    for game in registry.all():
        rng = random.Random(game.id)
        state = game.initial_state()
        for ply in range(6):
            if game.is_terminal(state):
                break
            if game.to_move(state) == CHANCE:
                state = game.apply(state, game.rollout_move(state, rng))
                continue
            algorithm = SEARCHERS[ply % len(SEARCHERS)]
            result = ai.choose_move(game, state, ai.SearchConfig(algorithm=algorithm, time_budget_ms=30, seed=ply))
            state = game.play(state, result.move)


def test_unknown_algorithm_is_refused_early():
    with pytest.raises(ValueError, match="unknown algorithm"):
        ai.SearchConfig(algorithm="deep-blue")


def test_random_is_deterministic_for_a_seed():
    game, state = position("connect4", 3)
    moves = {ai.choose_move(game, state, ai.SearchConfig(algorithm="random", seed=5)).move for _ in range(5)}
    assert len(moves) == 1

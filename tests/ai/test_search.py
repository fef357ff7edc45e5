"""choose_move: every searcher answers legally and stops at its deadline, from any position.

Deadlines here are counted (`tests.deadlines`), not timed: the same search every run, whatever the
machine's load.  How late searches are on the clock is `benchmarks/budget_overshoot.py`'s figure."""

from __future__ import annotations

import json
import random

import pytest

import ai
import ai.budget as ai_budget
import ai.search as ai_search
from ai.search import SAFETY_MARGIN_MS
from games import registry
from games.base import CHANCE
from tests.deadlines import CountedDeadline

SEARCHERS = ["alphabeta", "expectimax", "mcts", "maxn"]
LOOKS_AFTER_EXPIRY = 2  # MCTS looks once more as it leaves its loop
# The searchers look at the clock every node; Connect Four's kernel every 256 of its node count,
# which some nodes (terminal ones) pass without a look: allow twice that.
NODES_PER_LOOK = 512


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


def counted(game, state, config, looks):
    """The search's result, and how many times it looked at a deadline that expires after `looks` looks."""
    deadline = CountedDeadline(looks)
    return ai.choose_move(game, state, config, deadline), deadline.looks_taken


@pytest.mark.parametrize("algorithm", SEARCHERS)
@pytest.mark.parametrize("looks", [0, 1, 100])
@pytest.mark.parametrize(
    ("game_id", "plies"),
    [("connect4", 5), ("othello", 10), ("backgammon", 10), ("chinese-checkers", 10), ("chinese-checkers-2", 10),
     ("checkers", 9), ("chess", 6)],
)  # fmt: skip
def test_a_search_stops_at_its_deadline_having_looked_at_it_often(algorithm, looks, game_id, plies):
    """What keeps a search within its budget, without a clock: it stops at the first look that finds
    its deadline passed, and it looks often (every node, or about every 256 in a kernel), so a
    step between two looks is short.  The time this takes is `benchmarks/budget_overshoot.py`'s figure."""
    game, state = position(game_id, plies)
    assert len(game.legal_moves(state)) > 1
    result, looks_taken = counted(game, state, ai.SearchConfig(algorithm=algorithm, seed=1), looks)
    assert result.move in game.legal_moves(state)
    assert looks < looks_taken <= looks + LOOKS_AFTER_EXPIRY
    assert result.nodes <= (looks_taken + 1) * NODES_PER_LOOK
    json.dumps(result.to_json())


@pytest.mark.parametrize("algorithm", [*SEARCHERS, "random"])
def test_a_passed_deadline_still_gives_a_legal_move(algorithm):
    game, state = position("connect4", 6)
    result, looks_taken = counted(game, state, ai.SearchConfig(algorithm=algorithm), looks=0)
    assert result.move in game.legal_moves(state)
    assert looks_taken <= LOOKS_AFTER_EXPIRY
    assert result.nodes <= NODES_PER_LOOK


def test_epoch_and_deadline_objects_are_both_accepted(monkeypatch):
    """An epoch timestamp (between processes) becomes the same point on the monotonic clock, less the
    margin kept for sending the move; a `Deadline` is taken as it is; none means the config's budget."""
    monkeypatch.setattr(ai_search.time, "time", lambda: 1_000_000.0)
    monkeypatch.setattr(ai_budget.time, "monotonic", lambda: 500.0)
    config = ai.SearchConfig(time_budget_ms=10_000)
    assert ai_search.resolve_deadline(config, 1_000_000.1).remaining_ms() == pytest.approx(100 - SAFETY_MARGIN_MS)
    assert ai_search.resolve_deadline(config, None).remaining_ms() == pytest.approx(10_000 - SAFETY_MARGIN_MS)
    deadline = ai.Deadline.after_ms(100)
    assert ai_search.resolve_deadline(config, deadline) is deadline
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

"""Polaris (the Connect Four Master) with its own search options keeps the proven outcome from 14 stones.

Counted, not timed: the budget is far above what these solves cost (a few hundred thousand
nodes each), so a loaded machine cannot turn a proof into a guess; what is checked is that
the move came from a finished proof (``stats["exact"]``) and keeps the value, judged by the
compiled solver (held to the Python one by test_compiled_solver.py).
"""

from __future__ import annotations

import random

import ai
from games.connect4 import CONNECT4
from games.connect4.solver import Connect4Solver
from games.connect4.spec import SPEC

MASTER = next(seed for seed in SPEC.ladder if seed.name == "Polaris")


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def random_position(rng: random.Random, plies: int) -> str:
    while True:
        state, moves = CONNECT4.initial_state(), ""
        for _ in range(plies):
            move = rng.choice(CONNECT4.legal_moves(state))
            state, moves = CONNECT4.play(state, move), moves + move
            if CONNECT4.is_terminal(state):
                break
        if not CONNECT4.is_terminal(state) and state.moves == plies:
            return moves


def test_it_keeps_the_outcome_of_early_positions():
    rng, judge = random.Random(46), Connect4Solver()
    config = ai.SearchConfig(time_budget_ms=300_000, options=MASTER.settings["search_options"], seed=1)
    for plies in (14, 15, 16):
        moves = random_position(rng, plies)
        state = CONNECT4.from_moves(moves)
        value = sign(judge.solve_state(state, weak=True))
        result = ai.choose_move(CONNECT4, state, config)
        assert result.stats.get("exact") in ("won", "solved"), (moves, result.stats)
        after = CONNECT4.play(state, result.move)
        kept = (
            sign(CONNECT4.returns(after)[state.moves % 2])
            if CONNECT4.is_terminal(after)
            else -sign(judge.solve_state(after, weak=True))
        )
        assert kept == value, (moves, result.move)

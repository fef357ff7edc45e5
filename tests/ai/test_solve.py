"""ai.solve: exact values for tic-tac-toe and the published Connect Four test positions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ai
from games import registry
from games.connect4.solver import Connect4Solver
from tests.ai.trees import exact_value, random_position

# Pons' published test sets, kept with the tests.
DATA = Path(__file__).resolve().parents[1] / "data" / "connect4"
CONNECT4 = registry.get("connect4")
TICTACTOE = registry.get("tictactoe")


def load(name: str) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().split("\n")
    return [(moves, int(score)) for moves, score in (line.split() for line in lines if line.strip())]


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_connect4_sample_of_the_solver_test_sets(name):
    for moves, score in random.Random(1).sample(load(name), 25):
        assert ai.solve(CONNECT4, CONNECT4.from_moves(moves)) == score, moves


@pytest.mark.slow
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_connect4_every_position_of_the_solver_test_sets(name):
    for moves, score in load(name):
        assert ai.solve(CONNECT4, CONNECT4.from_moves(moves)) == score, moves


def test_connect4_score_convention_on_small_cases():
    # The side to move wins with its next stone after 37 stones: (43 - 37) // 2 = 3.
    state = CONNECT4.from_moves("7422341735647741166133573473242566")
    assert ai.solve(CONNECT4, state) == 1
    won = CONNECT4.from_moves("4455667")  # the first player has just won
    assert ai.solve(CONNECT4, won) < 0


def test_connect4_move_scores_agree_with_the_position_score():
    state = CONNECT4.from_moves("2252576253462244111563365343671351441")
    scores = Connect4Solver().move_scores(state)
    assert max(scores.values()) == ai.solve(CONNECT4, state) == -1


def test_tictactoe_is_a_draw_and_values_agree_with_minimax():
    assert ai.solve(TICTACTOE, TICTACTOE.initial_state()) == 0
    rng = random.Random(5)
    memo: dict = {}
    for _ in range(40):
        state = random_position(TICTACTOE, rng, rng.randint(1, 7))
        if not TICTACTOE.is_terminal(state):
            assert ai.solve(TICTACTOE, state) == exact_value(TICTACTOE, state, memo)


def test_solve_refuses_games_it_cannot_solve(tree_game):
    game = tree_game([[1, 2], [3]], chance_depths=[1])
    with pytest.raises(ValueError, match="chance"):
        ai.solve(game, ())


class PlainSolver(Connect4Solver):
    """Overrides the `negamax` hook, so `solve` runs the plain method-per-node search."""

    def negamax(self, current, mask, moves, alpha, beta):
        return super().negamax(current, mask, moves, alpha, beta)


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_connect4_fast_solver_visits_the_same_nodes_as_the_plain_one(name):
    fast, plain = Connect4Solver(compiled=False), PlainSolver()
    for moves, score in random.Random(2).sample(load(name), 10):
        state = CONNECT4.from_moves(moves)
        for solver in (fast, plain):
            solver.reset()
            assert solver.solve_state(state) == score, moves
        assert fast.nodes == plain.nodes, moves


def test_connect4_solver_stops_at_its_deadline():
    import time

    solver = Connect4Solver(deadline=time.monotonic())  # already passed: stops at the first clock check
    with pytest.raises(TimeoutError):
        solver.solve_state(CONNECT4.from_moves("4453"))

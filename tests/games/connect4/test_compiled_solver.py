"""The compiled solver (games/connect4/_solver.c) against the Python one, its reference: the same exact scores."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from games.connect4 import CONNECT4
from games.connect4 import solver as solver_module
from games.connect4.solver import Connect4Solver

DATA = Path(__file__).resolve().parents[2] / "data" / "connect4"


def published(name: str, count: int, seed: int) -> list[tuple[str, int]]:
    lines = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in random.Random(seed).sample(lines, count)]


def random_positions(count: int, plies: range, seed: int) -> list[str]:
    """Positions of random games, cut at a random ply: live, and any side may be ahead."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        state, moves = CONNECT4.initial_state(), ""
        for _ in range(rng.choice(plies)):
            move = rng.choice(CONNECT4.legal_moves(state))
            state, moves = CONNECT4.play(state, move), moves + move
            if CONNECT4.is_terminal(state):
                break
        if not CONNECT4.is_terminal(state):
            out.append(moves)
    return out


def test_it_is_built():
    # `pip install` builds it where there is a C compiler (setup.py), as on the machines we run on;
    # a build that failed quietly would leave the Master twenty times slower.
    assert solver_module.compiled_solver is not None
    assert Connect4Solver().kernel is not None
    assert Connect4Solver(compiled=False).kernel is None


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_the_published_scores(name):
    compiled, python = Connect4Solver(), Connect4Solver(compiled=False)
    for moves, score in published(name, 60, seed=3):
        state = CONNECT4.from_moves(moves)
        assert compiled.solve_state(state) == python.solve_state(state) == score, moves


def test_exact_weak_and_null_window_answers_agree_on_random_positions():
    compiled, python = Connect4Solver(book=False), Connect4Solver(compiled=False)
    for moves in random_positions(60, range(22, 40), seed=4):
        state = CONNECT4.from_moves(moves)
        exact = python.solve_state(state)
        assert compiled.solve_state(state) == exact, moves
        weak = compiled.solve_state(state, weak=True)
        assert (weak > 0) - (weak < 0) == (exact > 0) - (exact < 0), moves
        assert compiled.wins(state) == (exact > 0) == python.wins(state), moves
        assert compiled.move_scores(state) == python.move_scores(state), moves


def test_fresh_and_warm_tables_give_the_same_scores():
    warm = Connect4Solver()
    for moves, score in published("Test_L2_R1", 30, seed=5):
        state = CONNECT4.from_moves(moves)
        assert warm.solve_state(state) == score
        fresh = Connect4Solver()
        assert fresh.solve_state(state) == score and fresh.nodes > 0
    warm.reset()
    assert warm.nodes == 0


def test_a_tiny_table_costs_nodes_never_the_answer():
    from games.connect4 import _solver

    roomy, tiny = _solver.Kernel(), _solver.Kernel(7)
    for moves, score in published("Test_L2_R1", 10, seed=6):
        state = CONNECT4.from_moves(moves)
        low, high = -((42 - state.moves) // 2), (43 - state.moves) // 2
        assert roomy.solve(state.current, state.mask, state.moves, low, high) == score
        assert tiny.solve(state.current, state.mask, state.moves, low, high) == score


def test_it_stops_at_its_deadline():
    solver = Connect4Solver(deadline=time.monotonic())  # already passed: stops at the first clock check
    with pytest.raises(TimeoutError):
        solver.solve_state(CONNECT4.from_moves("4453"))
    assert solver.nodes >= 4096  # it counted what it searched


def test_bad_input_is_refused():
    from games.connect4 import _solver

    kernel = _solver.Kernel()
    with pytest.raises(ValueError, match="not a Connect Four position"):
        kernel.solve(0, 0b101, 2, -1, 1)  # a stone floating over an empty cell
    with pytest.raises(ValueError, match="not a Connect Four position"):
        kernel.solve(0b10, 0b1, 1, -1, 1)  # a stone of the side to move on an empty cell
    with pytest.raises(ValueError, match="bracket"):
        kernel.solve(0, 0, 0, -100, 1)
    with pytest.raises(ValueError, match="table_size"):
        _solver.Kernel(0)
    with pytest.raises(ValueError, match="64-bit"):
        kernel.set_book(b"123", 8)

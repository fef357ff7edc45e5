"""The checkers Master against exact play: in small endgames the solver has proved, it keeps the
result (wins a won ending within the 40-move rule, holds a drawn one) while the solver defends.

The Master searches with its own settings but a counted budget (`tests.deadlines`), so each
game is the same on any machine; `benchmarks/checkers_endgames.py` plays more positions at its
real time budget.
"""

from __future__ import annotations

import random

import pytest

import ai
from games.checkers import CHECKERS, CheckersState
from games.checkers.endgame import DRAW, LOSS, WIN, EndgameSolver, random_endgame
from tests.deadlines import CountedDeadline

LOOKS = 3000  # looks at the clock a move: a few thousand nodes, fewer than its three seconds give it
POSITIONS = 5
LONG_WIN = 15  # quiet plies: shorter wins are in the Master's sight from the start


def master_move(state: CheckersState) -> str:
    seed = next(s for s in CHECKERS.spec.ladder if s.level == max(b.level for b in CHECKERS.spec.ladder))
    config = ai.SearchConfig(
        algorithm=seed.algorithm, time_budget_ms=seed.time_budget_ms, seed=state.ply, **seed.settings
    )
    return ai.choose_move(CHECKERS, state, config, CountedDeadline(LOOKS)).move


def endgames(solver: EndgameSolver) -> list[CheckersState]:
    """The first random three-king endings that are long wins or draws for the side to move."""
    rng, found = random.Random(7), []
    while len(found) < POSITIONS:
        state = random_endgame(rng, 3, king_share=1.0)
        verdict = solver.verdict(state)
        if verdict.value == DRAW or (verdict.value == WIN and (verdict.quiet_plies or 0) >= LONG_WIN):
            found.append(state)
    return found


SOLVER = EndgameSolver()


@pytest.mark.parametrize("index", range(POSITIONS))
def test_the_master_keeps_the_proven_result_against_exact_defence(index: int) -> None:
    start = endgames(SOLVER)[index]
    proven = SOLVER.verdict(start).value
    master, state = start.to_move, start
    while not CHECKERS.is_terminal(state):
        move = master_move(state) if state.to_move == master else SOLVER.best_move(state)
        state = CHECKERS.play(state, move)
    winner = CHECKERS.outcome(state).winner
    result = DRAW if winner is None else WIN if winner == master else LOSS
    assert result == proven, (
        f"{CHECKERS.position_notation(start)}: proven {proven}, played {result} in {state.ply} plies"
    )

"""The exact endgame solver (games/othello/endgame.py, _endgame.c): right scores, the same from both searches.

The reference for the reference is plain minimax over the game's own rules (`OTHELLO.apply`,
`OTHELLO.score`): no pruning, no bitboard tricks, passes as the rules make them.
"""

from __future__ import annotations

import random
import time

import pytest

from ai.budget import Deadline
from ai.endgame import exact_move
from games.othello import OTHELLO, OthelloState
from games.othello import endgame as endgame_module
from games.othello.endgame import OthelloSolver


def position(empties: int, seed: int) -> OthelloState:
    """A live position of a random game with `empties` empty squares."""
    rng = random.Random(seed)
    while True:
        state = OTHELLO.initial_state()
        while not OTHELLO.is_terminal(state) and 64 - (state.black | state.white).bit_count() > empties:
            state = OTHELLO.apply(state, rng.choice(OTHELLO.legal_moves(state)))
        if not OTHELLO.is_terminal(state):
            return state


def minimax(state: OthelloState) -> int:
    """The mover's final score under perfect play, by the rules alone."""
    if OTHELLO.is_terminal(state):
        black, white = OTHELLO.score(state)
        return (black - white) if state.seat == 0 else (white - black)
    return max(-minimax(OTHELLO.apply(state, move)) for move in OTHELLO.legal_moves(state))


def test_it_is_built():
    # `pip install` builds it where there is a C compiler (setup.py); a build that failed quietly
    # would leave the Master solving ten empties where it could solve eighteen.
    assert endgame_module.compiled_search is not None
    assert OthelloSolver().kernel is not None
    assert OthelloSolver(compiled=False).kernel is None


def test_both_searches_give_minimax_scores():
    compiled, python = OthelloSolver(), OthelloSolver(compiled=False)
    for seed in range(25):
        state = position(6, seed)
        exact = minimax(state)
        assert python.solve_state(state) == exact, seed
        assert compiled.solve_state(state) == exact, seed


def test_passes_and_early_ends_are_scored_as_the_rules_score_them():
    # Positions where the mover must pass at once, and where a move ends the game with squares
    # still empty (neither side can take them: they go to the winner), found among random ones.
    def found(empties: int, wanted) -> OthelloState:
        return next(s for s in (position(empties, seed) for seed in range(5000)) if wanted(s))

    passing = found(5, lambda s: OTHELLO.legal_moves(s) == ["pass"])
    ending = found(3, lambda s: any(OTHELLO.is_terminal(OTHELLO.apply(s, m)) for m in OTHELLO.legal_moves(s)))
    compiled, python = OthelloSolver(), OthelloSolver(compiled=False)
    for state in (passing, ending):
        assert compiled.solve_state(state) == python.solve_state(state) == minimax(state)


def test_exact_weak_and_null_window_answers_agree_on_deeper_positions():
    compiled, python = OthelloSolver(), OthelloSolver(compiled=False)
    for seed in range(30):
        state = position(10, seed)
        exact = python.solve_state(state)
        sign = (exact > 0) - (exact < 0)
        assert compiled.solve_state(state) == exact, seed
        assert compiled.solve_state(state, weak=True) == python.solve_state(state, weak=True) == sign, seed
        assert compiled.wins(state) == python.wins(state) == (exact > 0), seed


def test_move_scores_are_each_moves_exact_score():
    solver = OthelloSolver()
    state = position(8, 3)
    scores = solver.move_scores(state)
    assert set(scores) == set(OTHELLO.legal_moves(state))
    for move, score in scores.items():
        assert score == -minimax(OTHELLO.apply(state, move))
    assert max(scores.values()) == minimax(state)


def test_a_deadline_stops_both_searches():
    for solver in (OthelloSolver(), OthelloSolver(compiled=False)):
        solver.deadline = time.monotonic() - 1  # already passed: the first look at the clock stops it
        with pytest.raises(TimeoutError):
            solver.solve_state(position(24, 1))


def test_the_master_plays_a_move_that_keeps_the_best_result():
    # What the Master's `exact_endgame` does with the solver: a move whose exact score is the best.
    for seed in range(6):
        state = position(9, seed)
        best = minimax(state)
        result = exact_move(OTHELLO, state, Deadline.after_ms(60_000), from_ply=0)
        assert result is not None
        after = -minimax(OTHELLO.apply(state, result.move))
        assert (after > 0) - (after < 0) == (best > 0) - (best < 0), seed
        assert result.stats["exact"] in ("won", "solved")

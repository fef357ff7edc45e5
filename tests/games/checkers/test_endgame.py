"""The endgame solver: values of positions known from the game's literature and checked by hand,
the 40-move rule as the rules count it, and agreement with a plain minimax over the rules."""

from __future__ import annotations

import random

import pytest

from games.checkers import CHECKERS, CheckersState
from games.checkers.endgame import DRAW, LOSS, WIN, EndgameSolver, random_endgame
from games.checkers.rules import QUIET_PLIES_DRAW
from tests.games.checkers.test_rules import position


@pytest.fixture(scope="module")
def solver() -> EndgameSolver:
    return EndgameSolver()  # its stretches solved once for the module (a few seconds each)


def test_one_king_against_one_king_is_a_draw(solver: EndgameSolver) -> None:
    for to_move in (0, 1):
        assert solver.verdict(position(black={1}, white={32}, kings={1, 32}, to_move=to_move)).value == DRAW


def test_two_kings_beat_one_king_within_the_40_move_rule(solver: EndgameSolver) -> None:
    # The lone king in a double corner (28, 32) is the defence that lasts longest, and still loses.
    for black, white in (({1, 3}, {32}), ({10, 19}, {28}), ({14, 15}, {5})):
        kings = black | white
        assert solver.verdict(position(black, white, kings, to_move=0)).value == WIN
        lost = solver.verdict(position(black, white, kings, to_move=1))
        assert lost.value == LOSS and lost.quiet_plies is not None and lost.quiet_plies <= QUIET_PLIES_DRAW


def test_the_last_capture_wins_at_once(solver: EndgameSolver) -> None:
    state = position(black={14}, white={18}, kings={14, 18}, to_move=0)
    assert solver.verdict(state) == solver.verdict(state)  # solved once, asked twice
    assert (solver.verdict(state).value, solver.verdict(state).quiet_plies) == (WIN, 1)
    assert solver.best_move(state) == "14x23"


def test_a_side_without_a_move_has_lost(solver: EndgameSolver) -> None:
    # Black's man on 4 can step only to 8, and cannot jump it: 11 behind it is taken.
    state = position(black={4}, white={8, 11}, to_move=0)
    assert CHECKERS.legal_moves(state) == []
    assert (solver.verdict(state).value, solver.verdict(state).quiet_plies) == (LOSS, 0)


def test_a_man_that_crowns_brings_two_kings_against_one(solver: EndgameSolver) -> None:
    # Black's man on 27 crowns on 31 or 32 next move; the White king on 1 is too far to stop it.
    state = position(black={27, 3}, white={1}, kings={3, 1}, to_move=0)
    assert solver.verdict(state).value == WIN
    assert solver.verdict(position(black={27, 3}, white={1}, kings={3, 1}, to_move=1)).value == LOSS


def test_the_40_move_rule_draws_a_win_that_needs_more_plies_than_are_left(solver: EndgameSolver) -> None:
    won = position(black={1, 3}, white={32}, kings={1, 3, 32})
    plies = solver.verdict(won).quiet_plies
    assert plies is not None and plies > 10  # a long win: the rule can cut it
    at = QUIET_PLIES_DRAW - plies
    assert solver.verdict(CheckersState(won.black, won.white, won.kings, 0, quiet=at)).value == WIN
    assert solver.verdict(CheckersState(won.black, won.white, won.kings, 0, quiet=at + 1)).value == DRAW


def test_exact_play_wins_by_the_rules_with_no_ply_to_spare(solver: EndgameSolver) -> None:
    """Both sides play the solver's moves from a win that needs every ply the rule leaves: the rules
    module (its count and its repetition rule) ends the game as the solver said, on its last ply."""
    won = position(black={1, 3}, white={32}, kings={1, 3, 32})
    plies = solver.verdict(won).quiet_plies
    assert plies is not None
    state = CheckersState(won.black, won.white, won.kings, 0, quiet=QUIET_PLIES_DRAW - plies)
    while not CHECKERS.is_terminal(state):
        state = CHECKERS.play(state, solver.best_move(state))
    assert CHECKERS.outcome(state).winner == 0
    assert state.ply == plies


def minimax(solver: EndgameSolver, state: CheckersState) -> int:
    """The value by the rules alone until the count runs out; a capture or a man's move starts a new
    count, whose value is taken from the solver."""
    if CHECKERS.is_terminal(state):
        winner = CHECKERS.outcome(state).winner
        return DRAW if winner is None else WIN if winner == state.to_move else LOSS
    values = []
    for move in CHECKERS.legal_moves(state):
        after = CHECKERS.apply(state, move)
        values.append(-(solver.verdict(after).value if after.quiet == 0 else minimax(solver, after)))
    return max(values)


@pytest.mark.parametrize("plies_left", [1, 2, 3, 4, 5])
def test_the_values_near_the_count_s_end_agree_with_minimax_over_the_rules(
    solver: EndgameSolver, plies_left: int
) -> None:
    rng = random.Random(plies_left)
    disagreements = []
    for _ in range(12):
        fresh = random_endgame(rng, 3, king_share=1.0)
        state = CheckersState(fresh.black, fresh.white, fresh.kings, fresh.to_move, quiet=QUIET_PLIES_DRAW - plies_left)
        if solver.verdict(state).value != minimax(solver, state):
            disagreements.append(CHECKERS.position_notation(state))
    assert disagreements == []


def test_more_pieces_than_it_takes_are_refused(solver: EndgameSolver) -> None:
    with pytest.raises(ValueError, match="at most 4 pieces"):
        solver.verdict(position(black={1, 2, 3}, white={30, 31}))

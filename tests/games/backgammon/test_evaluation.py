"""Backgammon's evaluation: outcome probabilities and the equity they make, in the game's points."""

from __future__ import annotations

import random
from dataclasses import astuple

import pytest

from games.backgammon import BACKGAMMON, BackgammonState, sides
from games.backgammon.evaluation import (
    HEURISTIC_LIMIT,
    Probabilities,
    equity,
    race_started,
    side_probabilities,
)

GAME = BACKGAMMON


def position(
    mine: dict[int, int], theirs: dict[int, int], turn: int = 0, bar: tuple[int, int] = (0, 0)
) -> BackgammonState:
    """Seat 0's checkers `mine` and seat 1's `theirs`, by seat 0's point numbers; the rest borne off."""
    points = [mine.get(p, 0) - theirs.get(p, 0) for p in range(1, 25)]
    off = [15 - sum(mine.values()) - bar[0], 15 - sum(theirs.values()) - bar[1]]
    return GAME.from_json({"points": points, "bar": list(bar), "off": off, "turn": turn, "dice": [], "ply": 40})


def probabilities(state: BackgammonState, seat: int) -> Probabilities:
    me, op = sides(state, seat)[0], sides(state, 1 - seat)[0]
    return side_probabilities(me, op, state.turn == seat)


def mirrored(state: BackgammonState) -> BackgammonState:
    """The same position with the colours swapped: seat 0's checkers become seat 1's."""
    return BackgammonState(
        tuple(-n for n in reversed(state.points)),
        state.bar[::-1],
        state.off[::-1],
        1 - state.turn,
        state.dice,
        state.ply,
    )


def playout_states(seed: int, games: int) -> list[BackgammonState]:
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            if not state.dice and state.ply:
                states.append(state)
            state = GAME.apply(state, GAME.rollout_move(state, rng))
    return states


STATES = playout_states(7, 6)


def test_equity_is_in_points() -> None:
    assert equity(Probabilities(1, 1, 1, 0, 0)) == 3
    assert equity(Probabilities(1, 1, 0, 0, 0)) == 2
    assert equity(Probabilities(0, 0, 0, 1, 0)) == -2
    assert equity(Probabilities(0.5, 0, 0, 0, 0)) == 0


def test_probabilities_are_consistent_on_played_positions() -> None:
    assert len(STATES) > 200
    races = 0
    for state in STATES:
        p = probabilities(state, 0)
        assert 0 <= p.win_backgammon <= p.win_gammon <= p.win <= 1
        assert 0 <= p.lose_backgammon <= p.lose_gammon <= 1 - p.win
        assert -HEURISTIC_LIMIT <= GAME.evaluate(state, 0) <= HEURISTIC_LIMIT
        races += race_started(*(sides(state, s)[0] for s in (0, 1)))
    assert races > 10  # both models were exercised


def test_swapping_the_sides_negates_the_equity() -> None:
    for state in STATES:
        value = GAME.evaluate(state, 0)
        assert GAME.evaluate(state, 1) == pytest.approx(-value, abs=1e-9)
        assert GAME.evaluate(mirrored(state), 1) == pytest.approx(value, abs=1e-9)
        assert astuple(probabilities(state, 1)) == pytest.approx(astuple(probabilities(state, 0).flipped()))


def test_the_start_is_close_to_even_and_favours_the_roller() -> None:
    start = BackgammonState(turn=0)
    assert 0 < GAME.evaluate(start, 0) < 0.3
    assert GAME.evaluate(BackgammonState(), 0) == pytest.approx(0)  # before the opening roll


def test_all_off_against_none_off_is_a_gammon() -> None:
    gammon = position({}, {19: 15}, turn=1)  # seat 1 never bore off and seat 0 is done
    assert GAME.is_terminal(gammon)
    assert (GAME.evaluate(gammon, 0), GAME.evaluate(gammon, 1)) == (2, -2)
    backgammon = position({}, {1: 1, 19: 14}, turn=1)  # and one of seat 1's is still in seat 0's home
    assert (GAME.evaluate(backgammon, 0), GAME.evaluate(backgammon, 1)) == (3, -3)


def test_last_checker_against_fifteen_on_the_board_is_a_likely_gammon() -> None:
    state = position({1: 1}, {7: 5, 8: 5, 9: 5}, turn=0)  # seat 0 bears off next roll
    p = probabilities(state, 0)
    assert p.win > 0.99 and p.win_gammon > 0.95 and p.win_backgammon < 0.01
    assert GAME.evaluate(state, 0) > 1.9


def test_a_checker_left_in_the_winners_home_makes_a_backgammon() -> None:
    state = position({1: 1}, {3: 1, 20: 14}, turn=0)  # seat 1 still has one in seat 0's home board
    p = probabilities(state, 0)
    assert p.win_backgammon > 0.95
    assert GAME.evaluate(state, 0) == HEURISTIC_LIMIT  # clipped short of a proven result


def test_one_checker_off_saves_the_gammon() -> None:
    for state in (position({1: 2}, {20: 14}, turn=0), position({6: 3, 5: 3}, {20: 9, 18: 5}, turn=1)):
        p = probabilities(state, 0)
        assert p.win_gammon == 0 and p.win_backgammon == 0


def test_a_race_is_monotonic_in_the_pip_lead() -> None:
    theirs = {19: 5, 20: 5, 21: 5}  # seat 1 in its home board: 75 pips, as many as seat 0 has at first
    wins, values = [], []
    for back in range(4, 19):  # one of seat 0's checkers further and further back
        mine = {6: 5, 5: 5, 4: 4}
        mine[back] = mine.get(back, 0) + 1
        state = position(mine, theirs, turn=0)
        assert race_started(*(sides(state, s)[0] for s in (0, 1)))
        wins.append(probabilities(state, 0).win)
        values.append(GAME.evaluate(state, 0))
    assert all(a >= b for a, b in zip(wins, wins[1:], strict=False))
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
    assert wins[0] > wins[-1] + 0.2


def test_being_on_roll_is_worth_something_in_an_even_race() -> None:
    mine, theirs = {6: 5, 5: 5, 4: 5}, {19: 5, 20: 5, 21: 5}
    assert probabilities(position(mine, theirs, turn=0), 0).win > 0.5
    assert probabilities(position(mine, theirs, turn=1), 0).win < 0.5


def test_a_checker_on_the_bar_against_a_closed_board_loses_gammons() -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 8: 2}  # seat 0 has made all six home points
    theirs = {19: 4, 20: 4, 21: 3, 22: 3}  # seat 1, none off, and one more on the bar
    on_bar = probabilities(position(closed, theirs, turn=1, bar=(0, 1)), 0)
    home = probabilities(position(closed, {**theirs, 18: 1}, turn=1), 0)
    assert on_bar.win > home.win and on_bar.win_gammon > home.win_gammon
    assert on_bar.win_gammon > 0.1

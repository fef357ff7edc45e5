"""Backgammon's evaluation: outcome probabilities and the equity they make, in the game's points."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import astuple, replace
from pathlib import Path

import pytest

from games.backgammon import BACKGAMMON, BackgammonState, legal_plays, sides
from games.backgammon.evaluation import (
    HEURISTIC_LIMIT,
    NETWORK_INPUTS,
    ROLL_DICE,
    Probabilities,
    Side,
    equity,
    hitting_rolls,
    network_inputs,
    pips_hit,
    race_probabilities,
    race_started,
    roller_probabilities,
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
    # gnubg 1.07 at 0 ply: 95.8 % wins, 4.0 % gammons (its 14 others are home already).
    assert on_bar.win > 0.85
    assert 0.01 < on_bar.win_gammon < 0.15


# --- shots: how many of the opponent's 36 rolls hit a blot --------------------------------


def own(points: dict[int, int], bar: int = 0) -> Side:
    """A side in its own numbering from its points; the rest borne off."""
    side = [0] * 26
    for point, n in points.items():
        side[point] = n
    side[25], side[0] = bar, 15 - sum(points.values()) - bar
    return tuple(side)


def shots(mine: dict[int, int], theirs_in_my_numbering: dict[int, int], bar: int = 0) -> int:
    """`hitting_rolls` with the opponent's checkers given by my point numbers (it moves up them)."""
    op = own({25 - p: n for p, n in theirs_in_my_numbering.items()}, bar)
    return hitting_rolls(own(mine), op)


# The textbook count of shots at a lone blot from one checker, nothing in between.
SHOTS_AT_DISTANCE = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3,
                     13: 0, 14: 0, 15: 1, 16: 1, 17: 0, 18: 1, 19: 0, 20: 1, 21: 0, 22: 0, 23: 0}  # fmt: skip


@pytest.mark.parametrize(("distance", "expected"), SHOTS_AT_DISTANCE.items())
def test_shots_at_a_lone_blot_follow_the_table(distance: int, expected: int) -> None:
    assert shots({24: 1}, {24 - distance: 1}) == expected


def test_a_blot_twenty_four_away_is_hit_only_by_double_sixes_from_the_bar() -> None:
    assert shots({24: 1}, {}, bar=1) == 1  # enter on 6, then 12, 18, 24


def test_made_points_block_combination_shots() -> None:
    # Six away: 11 sixes + 5-1, 4-2 (two each) + 3-3 + 2-2 = 17; my point 3 pips on stops 3-3.
    assert shots({10: 1}, {4: 1}) == 17
    assert shots({10: 1, 7: 2}, {4: 1}) == 16
    # Eight away: 6-2, 5-3, 4-4, 2-2 = 6; points 2, 4 and 6 pips on leave only 5-3.
    assert shots({12: 1, 6: 2, 8: 2, 10: 2}, {4: 1}) == 2
    # A non-double needs only one of its two stops open: 5-3 goes through 3 or 5 pips on.
    assert shots({12: 1, 7: 2}, {4: 1}) == 6
    assert shots({12: 1, 7: 2, 9: 2}, {4: 1}) == 4


def test_two_blots_count_each_roll_once() -> None:
    # One and two pips from the same checker: the 11 rolls with a 1, and 9 more with a 2 (2-2 included).
    assert shots({5: 1, 6: 1}, {4: 1}) == 20


def test_pips_hit_count_each_roll_at_the_costliest_blot() -> None:
    # Blots on my 5 and 6, a checker on my 4: the 11 rolls with a 1 send the 5 back (20 pips), the 9
    # more with a 2 the 6 (19 pips).
    me, op = own({5: 1, 6: 1}), own({21: 1})
    assert pips_hit(me, op) == 11 * 20 + 9 * 19
    # From the bar: the 11 threes hit my 3 (22 pips), and so do 2-1 and 1-1 after entering.
    assert pips_hit(own({3: 1}), own({}, bar=1)) == 14 * 22


def test_checkers_on_the_bar_enter_before_they_hit() -> None:
    # From the bar, a blot on my 3 is as good as 3 pips away: 11 threes, 2-1 (two ways in), 1-1.
    assert shots({3: 1}, {}, bar=1) == 14
    # Two on the bar: a non-double only enters, so only the 11 threes hit; with the two steps a double
    # has left, 1-1 walks 1 -> 3, 5-5 walks 5 -> 10, 6-6 plays the checker on my 4 to 10; 2-2 and 4-4 miss.
    assert shots({3: 1, 10: 1}, {4: 1}, bar=2) == 14
    # One on the bar against my points 1-5: only a six enters, and only 6-5 then reaches my blot on 11
    # (6-6 walks 6, 12, 18, 24 past it).
    assert shots({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 11: 1}, {}, bar=1) == 2
    assert shots({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 11: 1}, {20: 1}, bar=1) == 0  # closed out


def hits_by_the_rules(state: BackgammonState, seat: int) -> int:
    """Of the other seat's 36 rolls, those with a legal play that sends a checker of `seat` to the bar."""
    total = 0
    for a, b in ROLL_DICE:
        rolled = BackgammonState(state.points, state.bar, state.off, 1 - seat, (a, b), state.ply)
        if any(child.bar[seat] > state.bar[seat] for child in legal_plays(rolled).values()):
            total += 1 if a == b else 2
    return total


def test_shots_agree_with_the_rules_on_played_positions() -> None:
    """The count ignores that a play must use both dice (or the larger): it may count a roll the
    rules forbid to hit with, never miss one; on played positions that is rare."""
    counted = over = 0
    for state in STATES:
        for seat in (0, 1):
            fast = hitting_rolls(sides(state, seat)[0], sides(state, 1 - seat)[0])
            slow = hits_by_the_rules(state, seat)
            assert fast >= slow
            counted += 1
            over += fast > slow
    assert counted > 400 and over <= counted // 100


# --- the contact network against GNU Backgammon -------------------------------------------

# 400 contact positions of gnubg's own games (beginner noise, each roll's play and others
# at random; seed 9 of benchmarks/bg_net.py collect, games the network never saw), with
# gnubg 1.07's 0-ply cubeless outputs for the side to roll.
DATA = Path(__file__).parents[2] / "data"
GNUBG_CONTACT = json.loads((DATA / "backgammon_gnubg_contact.json").read_text())
# 400 races: 200 of gnubg's own games (as above) and 200 of random playouts (seed 9 of
# `bg_net.py collect-races`), with gnubg's 0-ply outputs for the side to roll.
GNUBG_RACES = json.loads((DATA / "backgammon_gnubg_race.json").read_text())


def mean_errors(positions: list[list[list[float]]], model: Callable[[Side, Side], Probabilities]) -> list[float]:
    """Mean |ours - gnubg's| of each of the five outputs, then of the equity."""
    errors = []
    for roller, other, outputs in positions:
        ours = model(tuple(roller), tuple(other))
        errors.append([abs(a - b) for a, b in zip(astuple(ours), outputs, strict=True)])
        errors[-1].append(abs(equity(ours) - equity(Probabilities(*outputs))))
    return [sum(column) / len(errors) for column in zip(*errors, strict=True)]


def test_the_network_agrees_with_gnubg_on_positions_it_never_saw() -> None:
    assert not any(race_started(tuple(r), tuple(o)) for r, o, _ in GNUBG_CONTACT)
    mean = mean_errors(GNUBG_CONTACT, roller_probabilities)
    # Here: win 0.016, gammons 0.012 and 0.013, equity 0.050; the logistic models the
    # network replaced: 0.063, 0.053, 0.050 and 0.198 (benchmarks/logistic_evaluation.py).
    assert mean[0] < 0.03 and mean[1] < 0.025 and mean[3] < 0.025
    assert mean[5] < 0.08


def test_the_race_model_against_gnubg() -> None:
    """Where the race model stands (a network as for contact is the next step, bg_net.py --kind race)."""
    assert all(race_started(tuple(r), tuple(o)) for r, o, _ in GNUBG_RACES)
    mean = mean_errors(GNUBG_RACES, lambda roller, other: race_probabilities(roller, other, True))
    # Here, in equity: 0.018 (win 0.002); normals of the effective pip count (before the bear-off
    # database): 0.083 (0.026); the database for sides home and those normals for the others: 0.030.
    assert mean[5] < 0.025 and mean[0] < 0.005


def test_a_race_with_both_sides_home_is_exactly_gnubgs() -> None:
    """gnubg's 0-ply bears off by the same one-sided database (`games.backgammon.bearoff`)."""
    home = [(r, o, out) for r, o, out in GNUBG_RACES if not any(r[7:]) and not any(o[7:])]
    assert len(home) > 100
    assert max(mean_errors(home, lambda roller, other: race_probabilities(roller, other, True))) < 1e-3


def test_a_bear_off_race_counts_every_roll() -> None:
    # One checker on my 6-point: 27 of 36 rolls take it off (a 6, a sum of 6 or more, 2-2 and up).
    state = position({6: 1}, {24: 1, 23: 1}, turn=0)  # seat 1: a checker on its 1- and 2-points
    p = probabilities(state, 0)
    assert p.win == pytest.approx(27 / 36, abs=1e-4) and p.win_gammon == 0
    # Seat 1 on roll bears off its 1 and 2 with every roll.
    assert probabilities(replace(state, turn=1), 0).win == pytest.approx(0, abs=1e-9)
    # All 15 of seat 1 on its 6-point, none off: my gammon is my finishing before its first checker is off.
    gammon = probabilities(position({1: 2}, {19: 15}, turn=1), 0)
    # It rolls first and saves the gammon with 17 rolls (a 6, 5-1, 4-2, 3-3 or 2-2: a higher die bears off
    # from the highest point only), else I finish first.
    assert gammon.win == 1 and gammon.win_gammon == pytest.approx(19 / 36, abs=1e-4)


@pytest.mark.parametrize(
    ("left", "certain"),
    [({1: 1}, True), ({3: 1}, True), ({4: 1}, False), ({1: 2}, True), ({1: 1, 2: 1}, True), ({2: 2}, False),
     ({1: 3}, False), ({1: 1, 9: 1}, False)],
)  # fmt: skip
def test_a_finish_on_the_next_roll_is_settled(left: dict[int, int], certain: bool) -> None:
    state = position(left, {20: 14, 14: 1}, turn=0)  # seat 1: none off, one not home (an estimate, not exact)
    p = probabilities(state, 0)
    assert (p.win == 1) is certain
    if certain:
        assert (p.win_gammon, p.lose_gammon) == (1, 0)
        assert probabilities(mirrored(state), 1) == p  # the same for either colour
        assert probabilities(BackgammonState(state.points, state.bar, state.off, 1, (), 40), 0).win < 1


def test_the_rules_limit_what_the_network_says() -> None:
    # Seat 1 has borne one off: seat 0 can no longer win a gammon; seat 0 has a checker back.
    state = position({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 1, 13: 2}, {19: 5, 20: 4, 21: 3, 12: 2}, turn=0)
    me, op = (sides(state, s)[0] for s in (0, 1))
    p = roller_probabilities(me, op)
    assert p.win_gammon == p.win_backgammon == 0
    assert p.lose_backgammon <= p.lose_gammon <= 1 - p.win
    assert len(network_inputs(me, op)) == NETWORK_INPUTS

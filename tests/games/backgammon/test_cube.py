"""The doubling cube: its rules as moves, the points a game pays, matches with the Crawford rule,
the options that switch it on, and the bots' cube decisions on textbook positions."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from ai import cube
from ai.search import choose_move
from ai.types import SearchConfig
from games import CHANCE, IllegalMove, registry
from games.backgammon import (
    BACKGAMMON,
    CENTRED,
    DOUBLE,
    DROP,
    MAX_CUBE,
    ROLL,
    START,
    TAKE,
    Backgammon,
    BackgammonState,
)
from games.backgammon.cube import AFTER_CRAWFORD, CRAWFORD_GAME

MONEY: Backgammon = BACKGAMMON.with_options({"cube": True})  # type: ignore[assignment]
JACOBY: Backgammon = BACKGAMMON.with_options({"cube": True, "jacoby": True})  # type: ignore[assignment]
MATCH_5: Backgammon = BACKGAMMON.with_options({"match_to": 5})  # type: ignore[assignment]


def before_roll(turn: int = 0, **cube: Any) -> BackgammonState:
    """The starting position, `turn` about to roll, some plies in, with the cube as given."""
    return replace(BackgammonState(turn=turn, ply=4), **cube)


def position(
    mine: dict[int, int], theirs: dict[int, int], bar: tuple[int, int] = (0, 0), **cube: Any
) -> BackgammonState:
    """Seat 0 to roll with checkers `mine`, seat 1's `theirs` by seat 0's point numbers; the rest borne off."""
    points = tuple(mine.get(p, 0) - theirs.get(p, 0) for p in range(1, 25))
    off = (15 - sum(mine.values()) - bar[0], 15 - sum(theirs.values()) - bar[1])
    return BackgammonState(points, bar, off, 0, (), 40, **cube)


def bearing_off_last(winner: int, loser_off: int, loser_back: bool = False, **cube: Any) -> BackgammonState:
    """`winner` about to bear off its last checker with a 6-6 (on its 1-point); the loser has `loser_off`
    checkers off, and one in the winner's home board when `loser_back`."""
    theirs = {19: 15 - loser_off} if not loser_back else {19: 14 - loser_off, 6: 1}
    state = position({1: 1}, theirs, **cube)
    if winner == 1:
        state = BackgammonState(
            tuple(-n for n in reversed(state.points)), state.bar[::-1], state.off[::-1], 1, (), 40, **cube
        )
    return replace(state, dice=(6, 6))


def finish(game: Backgammon, state: BackgammonState) -> BackgammonState:
    """`state` after its only sensible play, bearing off the last checker."""
    return game.play(state, next(m for m in game.legal_moves(state) if "off" in m))


# --- options ---------------------------------------------------------------------
def test_the_registered_game_plays_without_the_cube() -> None:
    assert BACKGAMMON.options == {"cube": False, "jacoby": False, "match_to": 0}
    assert BACKGAMMON.with_options({}) is BACKGAMMON
    assert BACKGAMMON.with_options({"cube": False}) is BACKGAMMON
    state = before_roll()
    assert BACKGAMMON.to_move(state) == CHANCE
    assert DOUBLE not in BACKGAMMON.legal_moves(state)
    with pytest.raises(IllegalMove, match="without the doubling cube"):
        BACKGAMMON.play(state, DOUBLE)
    assert "cube" not in BACKGAMMON.to_json(state)
    assert BACKGAMMON.cube_inputs(state) is None and BACKGAMMON.key(state) == BACKGAMMON.key(replace(state, cube=2))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cube": 1}, "true or false"),
        ({"match_to": 26}, "from 0 to 25"),
        ({"match_to": "7"}, "whole number"),
        ({"jacoby": True}, "Jacoby rule is an option of money games"),
        ({"match_to": 5, "jacoby": True}, "Jacoby rule is an option of money games"),
        ({"crawford": True}, "no option 'crawford'"),
    ],
)
def test_options_are_checked(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BACKGAMMON.with_options(options)


def test_a_match_plays_with_the_cube() -> None:
    assert MATCH_5.options == {"cube": True, "jacoby": False, "match_to": 5}
    assert registry.get("backgammon").with_options(MATCH_5.options).options == MATCH_5.options


# --- the cube's rules ----------------------------------------------------------------
def test_a_centred_cube_may_be_turned_by_either_seat_before_rolling() -> None:
    for turn in (0, 1):
        state = before_roll(turn)
        assert MONEY.to_move(state) == turn
        assert MONEY.legal_moves(state) == [DOUBLE, ROLL]


def test_no_double_once_the_dice_are_rolled() -> None:
    rolled = replace(before_roll(), dice=(6, 5))
    assert DOUBLE not in MONEY.legal_moves(rolled)
    with pytest.raises(IllegalMove, match="only before rolling"):
        MONEY.play(rolled, DOUBLE)


def test_no_double_before_the_opening_roll() -> None:
    state = MONEY.initial_state()
    assert MONEY.to_move(state) == CHANCE
    with pytest.raises(IllegalMove, match="opening roll"):
        MONEY.play(state, DOUBLE)


def test_rolling_without_doubling_brings_the_dice() -> None:
    state = MONEY.play(before_roll(), ROLL)
    assert MONEY.to_move(state) == CHANCE
    assert state.cube == 1 and state.owner == CENTRED
    rolled = MONEY.play(state, "roll 6-5")
    assert rolled.dice == (6, 5) and rolled.cube_action == ""


def test_a_double_is_answered_by_the_other_seat_and_take_gives_it_the_cube() -> None:
    doubled = MONEY.play(before_roll(0), DOUBLE)
    assert MONEY.to_move(doubled) == 1
    assert MONEY.legal_moves(doubled) == [TAKE, DROP]
    taken = MONEY.play(doubled, TAKE)
    assert (taken.cube, taken.owner) == (2, 1)
    assert MONEY.to_move(taken) == CHANCE  # the doubler rolls
    assert MONEY.play(taken, "roll 3-1").turn == 0


def test_only_the_owner_may_redouble() -> None:
    owned = before_roll(0, cube=2, owner=1)
    assert MONEY.to_move(owned) == CHANCE  # seat 0 may not double: straight to the dice
    with pytest.raises(IllegalMove, match="only its owner"):
        MONEY.play(owned, DOUBLE)
    redoubled = MONEY.play(before_roll(1, cube=2, owner=1), DOUBLE)
    assert MONEY.play(redoubled, TAKE).cube == 4 and MONEY.play(redoubled, TAKE).owner == 0


def test_the_cube_stops_at_its_maximum() -> None:
    state = before_roll(0, cube=MAX_CUBE, owner=0)
    assert MONEY.to_move(state) == CHANCE
    with pytest.raises(IllegalMove, match=f"stops at {MAX_CUBE}"):
        MONEY.play(state, DOUBLE)


def test_a_drop_ends_the_game_at_the_cube_before_the_double() -> None:
    doubled = MONEY.play(before_roll(1, cube=4, owner=1), DOUBLE)
    dropped = MONEY.play(doubled, DROP)
    assert MONEY.is_terminal(dropped)
    outcome = MONEY.outcome(dropped)
    assert outcome.winner == 1 and outcome.points == (-4, 4) and outcome.returns == (-1.0, 1.0)
    assert outcome.reason == "double dropped"


def test_pass_answers_a_double_as_a_drop_and_beavers_are_not_offered() -> None:
    doubled = MONEY.play(before_roll(), DOUBLE)
    assert MONEY.play(doubled, "pass") == MONEY.play(doubled, DROP)
    assert "beaver" not in MONEY.legal_moves(doubled)
    with pytest.raises(IllegalMove, match="beavers are not played"):
        MONEY.play(doubled, "beaver")
    with pytest.raises(IllegalMove, match="answer 'take' or 'drop'"):
        MONEY.play(doubled, "roll 6-5")


def test_take_and_drop_need_a_double() -> None:
    with pytest.raises(IllegalMove, match="before rolling, 'double' or 'roll'"):
        MONEY.play(before_roll(), TAKE)
    with pytest.raises(IllegalMove, match="no double has been offered"):
        MONEY.play(before_roll(0, cube=2, owner=1), TAKE)


# --- points ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("loser_off", "loser_back", "multiplier", "reason"),
    [(3, False, 1, "single game"), (0, False, 2, "gammon"), (0, True, 3, "backgammon")],
)
def test_a_game_pays_the_cube_times_single_gammon_or_backgammon(
    loser_off: int, loser_back: bool, multiplier: int, reason: str
) -> None:
    end = finish(MONEY, bearing_off_last(0, loser_off, loser_back, cube=4, owner=1))
    outcome = MONEY.outcome(end)
    assert outcome.points == (4 * multiplier, -4 * multiplier)
    assert outcome.returns == (float(multiplier), -float(multiplier))  # the searchers' scale: cube units
    assert outcome.reason == f"{reason} at cube 4"
    without_cube = finish(BACKGAMMON, bearing_off_last(0, loser_off, loser_back))
    assert BACKGAMMON.outcome(without_cube).returns == (float(multiplier), -float(multiplier))
    assert BACKGAMMON.outcome(without_cube).points == ()


def test_jacoby_counts_gammons_only_after_a_double() -> None:
    centred = MONEY.outcome(finish(MONEY, bearing_off_last(0, 0)))
    assert centred.points == (2, -2)
    jacoby = JACOBY.outcome(finish(JACOBY, bearing_off_last(0, 0)))
    assert jacoby.points == (1, -1) and "Jacoby" in jacoby.reason
    turned = JACOBY.outcome(finish(JACOBY, bearing_off_last(0, 0, cube=2, owner=1)))
    assert turned.points == (4, -4)


# --- matches ---------------------------------------------------------------------
def test_a_match_scores_each_game_and_starts_the_next() -> None:
    end = finish(MATCH_5, bearing_off_last(1, 0, cube=2, owner=0))  # a gammon at 2: 4 points
    assert not MATCH_5.is_terminal(end)
    assert MATCH_5.to_move(end) == CHANCE and MATCH_5.to_json(end)["result"]["points"] == 4
    assert MATCH_5.legal_moves(end)[0].startswith("open")
    nxt = MATCH_5.play(end, "open 6-1")
    assert nxt.score == (0, 4) and nxt.points == START and (nxt.cube, nxt.owner) == (1, CENTRED)
    assert nxt.crawford == CRAWFORD_GAME  # seat 1 is one point away: the next game is the Crawford game
    assert nxt.ply == end.ply + 1


def test_no_doubling_in_the_crawford_game_and_again_after_it() -> None:
    crawford = before_roll(0, score=(2, 4), crawford=CRAWFORD_GAME)
    assert MATCH_5.to_move(crawford) == CHANCE
    with pytest.raises(IllegalMove, match="Crawford game"):
        MATCH_5.play(crawford, DOUBLE)
    end = finish(MATCH_5, replace(bearing_off_last(0, 3), score=(2, 4), crawford=CRAWFORD_GAME))
    after = MATCH_5.play(end, "open 1-6")
    assert after.score == (3, 4) and after.crawford == AFTER_CRAWFORD
    assert MATCH_5.legal_moves(before_roll(0, score=(3, 4), crawford=AFTER_CRAWFORD)) == [DOUBLE, ROLL]


def test_the_match_ends_when_a_seat_reaches_its_length() -> None:
    end = finish(MATCH_5, replace(bearing_off_last(0, 0), score=(3, 1)))
    assert MATCH_5.is_terminal(end)
    outcome = MATCH_5.outcome(end)
    assert outcome.winner == 0 and outcome.points == (2, -2)
    assert outcome.reason == "gammon at cube 1: match won 5-1"


def test_cube_states_round_trip_through_json_and_bad_fields_are_refused() -> None:
    state = before_roll(1, cube=8, owner=0, cube_action=DOUBLE, score=(2, 3), crawford=AFTER_CRAWFORD)
    data = json.loads(json.dumps(MATCH_5.to_json(state)))
    assert data["cube"] == {"value": 8, "owner": 0, "action": "double"} and data["crawford"] == "after"
    assert MATCH_5.from_json(data) == state
    for field, bad in [
        ("cube", {"value": 3, "owner": 0, "action": None}),
        ("cube", {"value": 2, "owner": None, "action": None}),
        ("cube", {"value": 1, "owner": None, "action": "beaver"}),
        ("score", [5, 0]),
        ("crawford", "yes"),
    ]:
        with pytest.raises(ValueError):
            MATCH_5.from_json({**data, field: bad})


# --- the bots' decisions (gnubg 2-ply's verdicts, benchmarks/bg_cube.py, noted for each) ------------
# A race of 88 pips against 97, seat 0 on roll: gnubg "double, take".
RACE_DOUBLE_TAKE = position({8: 2, 7: 3, 6: 4, 5: 3, 4: 3}, {17: 3, 18: 4, 19: 5, 20: 3})
# 66 pips against 90: gnubg "double, pass".
RACE_DOUBLE_PASS = position({6: 4, 5: 4, 4: 3, 3: 2, 2: 2}, {17: 3, 18: 3, 19: 3, 20: 3, 21: 3})
# A closed board against three checkers on the bar and the rest far from home: gnubg "too good, pass".
CLOSED_OUT = position({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {7: 3, 8: 3, 9: 3, 10: 3}, bar=(0, 3))


def decisions(state: BackgammonState, game: Backgammon = MONEY) -> tuple[str, str]:
    """The bots' (double or roll, take or drop) in `state`, seat 0 on roll."""
    offer, answer = game.cube_inputs(state), game.cube_inputs(game.apply(state, DOUBLE))
    assert offer is not None and answer is not None
    return cube.decide(offer).move, cube.decide(answer).move


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        (RACE_DOUBLE_TAKE, (DOUBLE, TAKE)),
        (RACE_DOUBLE_PASS, (DOUBLE, DROP)),
        (CLOSED_OUT, (ROLL, DROP)),
        (before_roll(0), (ROLL, TAKE)),
    ],
    ids=["double-take", "double-pass", "too-good", "opening"],
)
def test_the_bots_cube_decisions_on_textbook_positions(state: BackgammonState, expected: tuple[str, str]) -> None:
    assert decisions(state) == expected


def test_a_bot_answers_a_cube_decision_without_searching() -> None:
    result = choose_move(MONEY, RACE_DOUBLE_TAKE, SearchConfig("expectimax", 200, max_depth=1, seed=1))
    assert result.move == DOUBLE and result.stats["cube"]["move"] == DOUBLE
    answered = choose_move(MONEY, MONEY.apply(RACE_DOUBLE_TAKE, DOUBLE), SearchConfig("expectimax", 200, seed=1))
    assert answered.move == TAKE


def test_the_match_score_settles_some_cube_decisions() -> None:
    # Seat 0 needs 1 point and the cube is at 1: doubling would only raise seat 1's stake.
    assert decisions(replace(RACE_DOUBLE_TAKE, score=(4, 2), crawford=AFTER_CRAWFORD), MATCH_5)[0] == ROLL
    # After the Crawford game the trailer doubles at once: seat 1 wins the match with any win anyway.
    opening = before_roll(0, score=(1, 4), crawford=AFTER_CRAWFORD)
    assert decisions(opening, MATCH_5)[0] == DOUBLE

"""Backgammon rules: dice as chance moves, entering, hitting, bearing off, the dice-use rules,
doubles, gammons and backgammons, notation and JSON round trips."""

from __future__ import annotations

import json
import math
import random

import pytest

from games import CHANCE, IllegalMove, registry
from games.backgammon import BACKGAMMON, SEGMENT, START, BackgammonState, legal_plays, sides
from games.backgammon.evaluation import HEURISTIC_LIMIT

GAME = BACKGAMMON


def position(
    mine: dict[int, int],
    theirs: dict[int, int],
    dice: tuple[int, int] = (),  # type: ignore[assignment]
    turn: int = 0,
    bar: tuple[int, int] = (0, 0),
    ply: int = 40,
) -> BackgammonState:
    """Seat 0's checkers `mine` and seat 1's `theirs`, both by seat 0's point numbers; the rest borne off."""
    points = [mine.get(p, 0) - theirs.get(p, 0) for p in range(1, 25)]
    off = [15 - sum(mine.values()) - bar[0], 15 - sum(theirs.values()) - bar[1]]
    return GAME.from_json(
        {"points": points, "bar": list(bar), "off": off, "turn": turn, "dice": list(dice), "ply": ply}
    )


FAR = {20: 13}  # seat 1's checkers parked out of the way, in seat 0's numbering


def test_registered_with_chance_and_gammon_stakes() -> None:
    assert registry.get("backgammon") is GAME
    assert GAME.has_chance and GAME.num_players == 2 and GAME.max_utility == 3


def test_standard_start() -> None:
    state = GAME.initial_state()
    me, op = sides(state, 0)
    assert {p: me[p] for p in range(1, 25) if me[p]} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert {p: op[p] for p in range(1, 25) if op[p]} == {1: 2, 12: 5, 17: 3, 19: 5}
    assert sides(state, 1)[0] == me  # the same set-up from each side's own numbering
    assert GAME.to_json(state)["pips"] == [167, 167]
    assert GAME.to_move(state) == CHANCE
    assert GAME.to_json(state)["turn"] is None


def test_opening_roll_decides_who_starts_and_ties_are_rerolled() -> None:
    outcomes = GAME.chance_outcomes(GAME.initial_state())
    assert len(outcomes) == 30
    assert all(p == pytest.approx(1 / 30) for _, p in outcomes)
    assert all(m[5] != m[7] for m, _ in outcomes)  # no "open 4-4": ties are rolled again
    state = GAME.play(GAME.initial_state(), "open 3-6")
    assert GAME.to_move(state) == 1 and state.dice == (6, 3) and GAME.ply(state) == 1
    state = GAME.play(GAME.initial_state(), "open 5-2")
    assert GAME.to_move(state) == 0 and state.dice == (5, 2)
    with pytest.raises(IllegalMove, match="not a roll"):
        GAME.play(GAME.initial_state(), "open 4-4")
    with pytest.raises(IllegalMove, match="not a roll"):
        GAME.play(GAME.initial_state(), "roll 5-2")


def test_later_rolls_are_the_21_distinct_rolls() -> None:
    state = GAME.play(GAME.play(GAME.initial_state(), "open 3-1"), "8/5 6/5")
    assert GAME.to_move(state) == CHANCE and state.turn == 1
    outcomes = dict(GAME.chance_outcomes(state))
    assert len(outcomes) == 21
    assert math.isclose(sum(outcomes.values()), 1.0)
    assert outcomes["roll 6-6"] == pytest.approx(1 / 36) and outcomes["roll 6-5"] == pytest.approx(2 / 36)
    with pytest.raises(IllegalMove, match="not a roll"):
        GAME.play(state, "roll 5-6")  # the larger die is written first
    rolled = GAME.play(state, "roll 6-5")
    assert GAME.to_move(rolled) == 1 and GAME.to_json(rolled)["dice"] == [6, 5]
    with pytest.raises(IllegalMove, match="have been rolled"):
        GAME.play(rolled, "roll 6-5")


def test_opening_plays_are_deduplicated_and_in_standard_notation() -> None:
    state = GAME.play(GAME.initial_state(), "open 3-1")
    plays = GAME.legal_moves(state)
    assert "8/5 6/5" in plays and "24/20" in plays and "13/9" in plays
    assert "24/21 21/20" not in plays  # one checker moving on is written once: 24/20
    assert len(plays) == 16
    results = [GAME.play(state, m) for m in plays]
    assert len({GAME.key(r) for r in results}) == len(plays)


def test_seat_1_writes_its_plays_in_its_own_numbering() -> None:
    state = GAME.play(GAME.initial_state(), "open 1-6")
    assert GAME.to_move(state) == 1
    after = GAME.play(state, "13/7 8/7")
    # Seat 1's 13, 8 and 7 points are seat 0's 12, 17 and 18.
    points = GAME.to_json(after)["points"]
    assert points[12 - 1] == -4 and points[17 - 1] == -2 and points[18 - 1] == -2


def test_doubles_are_played_four_times() -> None:
    state = GAME.play(GAME.play(GAME.play(GAME.initial_state(), "open 3-1"), "8/5 6/5"), "roll 6-6")
    assert "24/18(2) 13/7(2)" in GAME.legal_moves(state)
    rolled = GAME.play(GAME.play(GAME.play(GAME.initial_state(), "open 6-1"), "13/7 8/7"), "roll 4-4")
    assert len(GAME.legal_moves(rolled)) > 20
    before, _ = sides(rolled, 1)
    after, _ = sides(GAME.play(rolled, "24/20(2) 13/9(2)"), 1)
    assert before[24] - after[24] == 2 and before[13] - after[13] == 2 and after[20] == 2 and after[9] == 2


def test_a_blot_is_hit_and_sent_to_the_bar() -> None:
    state = position({13: 2, 6: 13}, {7: 1, 20: 14}, dice=(6, 2))
    plays = GAME.legal_moves(state)
    assert "13/11 13/7*" in plays and "13/7*/5" in plays
    after = GAME.play(state, "13/11 13/7*")
    assert after.bar == (0, 1)
    assert GAME.to_json(after)["points"][7 - 1] == 1
    # A hit on the way is shown where it happens.
    state = position({13: 1, 6: 14}, {9: 1, 20: 14}, dice=(4, 2))
    assert "13/9*/7" in GAME.legal_moves(state)
    assert "13/7" in GAME.legal_moves(state)  # via 11: no hit, a different position


def test_no_landing_on_two_or_more_opposing_checkers() -> None:
    state = position({13: 1, 1: 14}, {7: 2, 20: 13}, dice=(6, 2))
    assert GAME.legal_moves(state) == ["13/5"]  # 13/7 is blocked, so the checker goes via 11
    state = position({13: 1, 1: 14}, {7: 2, 11: 2, 20: 11}, dice=(6, 2))
    assert GAME.legal_moves(state) == ["pass"]  # both ways are blocked


def test_checkers_on_the_bar_enter_first() -> None:
    state = position({13: 5, 6: 9}, {20: 15}, dice=(6, 3), bar=(1, 0))
    plays = GAME.legal_moves(state)
    assert plays and all(p.startswith("bar/") for p in plays)
    assert "bar/22 13/7" in plays and "bar/19 13/10" in plays and "bar/16" in plays
    with pytest.raises(IllegalMove, match="on the bar must enter"):
        GAME.play(state, "13/7 13/10")


def test_a_closed_board_means_the_only_move_is_pass() -> None:
    state = position({13: 5, 6: 9}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3}, dice=(6, 3), bar=(1, 0))
    assert GAME.legal_moves(state) == ["pass"]
    with pytest.raises(IllegalMove, match="only move is 'pass'"):
        GAME.play(state, "bar/19")
    after = GAME.play(state, "pass")
    assert GAME.to_move(after) == CHANCE and after.turn == 1 and after.points == state.points
    playable = GAME.play(GAME.play(GAME.play(GAME.initial_state(), "open 3-1"), "8/5 6/5"), "roll 2-1")
    with pytest.raises(IllegalMove, match="can be played, so it must be"):
        GAME.play(playable, "pass")


def test_both_dice_must_be_used_when_possible() -> None:
    # 6-1 with one checker on 10: the 1 cannot be played first (9 is blocked), but 10/4 then 4/3 or 1/off can.
    state = position({10: 1, 1: 14}, {9: 2, 20: 13}, dice=(6, 1))
    plays = GAME.legal_moves(state)
    assert "10/4" not in plays
    assert set(plays) == {"10/3", "10/4 1/off"}


def test_the_larger_die_when_only_one_can_be_played() -> None:
    # 5-2 with one checker on 10: 10/5 or 10/8 can be played, but then nothing (3 is blocked).
    state = position({10: 1, 1: 14}, {3: 2, 20: 13}, dice=(5, 2))
    assert GAME.legal_moves(state) == ["10/5"]
    with pytest.raises(IllegalMove, match="larger one"):
        GAME.play(state, "10/8")
    # When only the smaller can be played, it is played.
    state = position({10: 1, 1: 14}, {5: 2, 3: 2, 20: 11}, dice=(5, 2))
    assert GAME.legal_moves(state) == ["10/8"]


def test_bearing_off_needs_every_checker_home() -> None:
    state = position({7: 1, 6: 4, 1: 10}, FAR, dice=(6, 1))
    assert "6/off" not in " ".join(GAME.legal_moves(state))
    assert "7/off" in GAME.legal_moves(state)  # 7/6 brings the last checker home, then 6/off
    with pytest.raises(IllegalMove, match="bear off only when all fifteen"):
        GAME.play(state, "6/off 6/5")
    hit = position({6: 4, 1: 10}, FAR, dice=(6, 1), bar=(1, 0))
    assert all(p.startswith("bar/") and "off" not in p for p in GAME.legal_moves(hit))


def test_bearing_off_with_a_higher_die_only_from_the_highest_point() -> None:
    state = position({4: 2, 2: 3}, FAR, dice=(6, 5))
    assert GAME.legal_moves(state) == ["4/off(2)"]
    state = position({5: 1, 3: 1}, FAR, dice=(4, 1))
    # 4 cannot bear off the 3 while the 5 is higher up; 5/1 and then the 1s, or 5/4 then 4/off.
    plays = GAME.legal_moves(state)
    assert "5/off" in plays and "3/off" not in plays and "5/4 3/off" not in plays
    state = position({6: 1, 1: 1}, FAR, dice=(2, 1))
    assert "6/3" in GAME.legal_moves(state) and "1/off 6/4" not in GAME.legal_moves(state)
    assert "6/4 1/off" in GAME.legal_moves(state)


def test_a_single_game_a_gammon_and_a_backgammon() -> None:
    def finished(theirs: dict[int, int], bar: int = 0) -> BackgammonState:
        return position({}, theirs, bar=(0, bar), turn=1)

    single = finished({20: 14})
    assert GAME.is_terminal(single) and GAME.legal_moves(single) == []
    assert GAME.outcome(single).reason == "single game" and GAME.returns(single) == [1.0, -1.0]
    gammon = finished({20: 15})
    assert GAME.outcome(gammon).reason == "gammon" and GAME.returns(gammon) == [2.0, -2.0]
    backgammon = finished({20: 14, 3: 1})  # a checker in the winner's home board
    assert GAME.outcome(backgammon).reason == "backgammon" and GAME.returns(backgammon) == [3.0, -3.0]
    on_bar = finished({20: 14}, bar=1)
    assert GAME.outcome(on_bar).reason == "backgammon"
    seat_1_wins = position({10: 15}, {})
    assert GAME.outcome(seat_1_wins).winner == 1 and GAME.returns(seat_1_wins) == [-2.0, 2.0]
    with pytest.raises(IllegalMove, match="over"):
        GAME.play(single, "roll 6-5")
    with pytest.raises(ValueError):
        GAME.chance_outcomes(single)


def test_bearing_off_the_last_checker_ends_the_game() -> None:
    state = position({1: 1}, {20: 15}, dice=(2, 1))
    assert GAME.legal_moves(state) == ["1/off"]
    after = GAME.play(state, "1/off")
    assert GAME.is_terminal(after) and GAME.outcome(after).winner == 0
    assert GAME.to_json(after)["to_move"] is None


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("24/18 13", "not a play"),
        ("hello", "not a play"),
        ("24-18", "not a play"),
        ("24/18 13/11 6/5", "not a legal play of 6-2"),
        ("24/18 24/18", "not a legal play of 6-2"),
        ("6/off 8/6", "bear off only when all fifteen"),
        ("roll 6-2", "have been rolled"),
        ("pass", "can be played, so it must be"),
    ],
)
def test_illegal_plays_say_why_and_change_nothing(move: str, message: str) -> None:
    state = GAME.play(GAME.initial_state(), "open 6-2")
    before = GAME.to_json(state)
    legal = GAME.legal_moves(state)
    if move in legal:
        pytest.skip(f"{move} is legal")
    with pytest.raises(IllegalMove, match=message):
        GAME.play(state, move)
    assert GAME.to_json(state) == before


def test_notation_round_trip_and_dedup_over_random_games() -> None:
    rng = random.Random(12)
    for _ in range(8):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            moves = GAME.legal_moves(state)
            if GAME.to_move(state) != CHANCE:
                plays = legal_plays(state)
                assert len({GAME.key(s) for s in plays.values()}) == len(plays), "one string per position"
                for move in moves:
                    assert move == "pass" or all(SEGMENT.match(s) for s in move.split()), move
                restored = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
                assert GAME.legal_moves(restored) == moves
            state = GAME.play(state, GAME.rollout_move(state, rng))


def test_json_round_trip() -> None:
    rng = random.Random(3)
    state = GAME.initial_state()
    for _ in range(60):
        assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state
        if GAME.is_terminal(state):
            break
        state = GAME.play(state, rng.choice(GAME.legal_moves(state)))


START_JSON = GAME.to_json(GAME.play(GAME.initial_state(), "open 6-2"))


@pytest.mark.parametrize(
    "data",
    [
        {},
        None,
        {**START_JSON, "points": START_JSON["points"][:23]},
        {**START_JSON, "points": [0] * 24},  # checkers missing
        {**START_JSON, "bar": [0]},
        {**START_JSON, "off": [0, -1]},
        {**START_JSON, "turn": 2},
        {**START_JSON, "turn": None},  # no turn after the opening roll
        {**START_JSON, "dice": [2, 6]},  # the larger die first
        {**START_JSON, "dice": [7, 1]},
        {**START_JSON, "dice": [6]},
        {**START_JSON, "ply": -3},
        {**START_JSON, "points": [1.5] + START_JSON["points"][1:]},
    ],
)
def test_invalid_json_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        GAME.from_json(data)  # type: ignore[arg-type]


def test_start_json_matches_the_start_table() -> None:
    assert GAME.to_json(GAME.initial_state())["points"] == list(START)


def test_evaluate_prefers_the_race_leader_and_is_antisymmetric() -> None:
    ahead = position({6: 5, 5: 5, 4: 5}, {7: 5, 8: 5, 9: 5}, turn=1)  # seat 1 is far behind in the race
    assert GAME.evaluate(ahead, 0) > 0.5
    rng = random.Random(4)
    state = GAME.initial_state()
    for _ in range(80):
        if GAME.is_terminal(state):
            break
        assert GAME.evaluate(state, 0) == pytest.approx(-GAME.evaluate(state, 1))
        assert -HEURISTIC_LIMIT <= GAME.evaluate(state, 0) <= HEURISTIC_LIMIT  # equity, in points
        state = GAME.play(state, GAME.rollout_move(state, rng))

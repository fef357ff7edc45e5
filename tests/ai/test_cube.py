"""Janowski's cube decisions (`ai.cube`) against the take points known in closed form."""

from __future__ import annotations

import pytest

from ai import cube
from games.base import CubeInputs, MatchEquities
from tests.deadlines import CountedDeadline


def inputs(win: float, offer: bool = False, gammons: float = 0.0, centred: bool = True) -> CubeInputs:
    """A position without backgammons: the roller wins `win`, a share `gammons` of either side's wins gammons."""
    act, decline = ("double", "roll") if offer else ("take", "drop")
    return CubeInputs(offer, act, decline, win, gammons * win, 0.0, gammons * (1 - win), 0.0, centred=centred)


@pytest.mark.parametrize(("efficiency", "take_point"), [(0.0, 0.25), (1.0, 0.20), (0.68, 1 - 1.84 / 2.34)])
def test_the_take_point_without_gammons(efficiency: float, take_point: float) -> None:
    """Dead cube: 25 %; perfectly live: 20 %; Janowski's 0.68 in between (21.4 %)."""
    doubler_wins = 1 - take_point
    assert cube.decide(inputs(doubler_wins - 0.002), efficiency).move == "take"
    assert cube.decide(inputs(doubler_wins + 0.002), efficiency).move == "drop"


def test_a_double_needs_a_market_and_too_good_plays_on() -> None:
    assert cube.decide(inputs(0.55, offer=True)).move == "roll"  # no double: too early
    assert cube.decide(inputs(0.75, offer=True)).move == "double"  # double, take
    assert cube.decide(inputs(0.97, offer=True, gammons=0.6)).move == "roll"  # too good: plays for the gammon


def test_the_owner_of_the_cube_waits_longer_than_a_centred_cube() -> None:
    """Redoubling gives away the cube's ownership: a position that doubles from the centre may not redouble."""
    centred = cube.decide(inputs(0.70, offer=True))
    owned = cube.decide(inputs(0.70, offer=True, centred=False))
    assert owned.no_double > centred.no_double


def test_a_forced_decision_is_played() -> None:
    forced = CubeInputs(True, "double", "roll", 0.2, 0.0, 0.0, 0.0, 0.0, centred=True, forced="double")
    assert cube.decide(forced).move == "double"


@pytest.mark.parametrize("budget_ms", [200, 2000])
def test_a_bot_looks_ahead_for_the_cube_only_when_its_budget_affords_it(budget_ms: int) -> None:
    """Below `LOOK_AHEAD_MIN_BUDGET_MS` a bot decides from the position's own evaluation (one network
    evaluation, not one for every roll's plays): the same model, the probabilities of 0-ply."""
    import ai
    from games import registry

    game = registry.get("backgammon").with_options({"cube": True})
    state = game.from_json({**game.to_json(game.initial_state()), "turn": 0, "ply": 3})
    look_ahead = budget_ms >= cube.LOOK_AHEAD_MIN_BUDGET_MS
    config = ai.SearchConfig(algorithm="expectimax", time_budget_ms=budget_ms, max_depth=1)
    result = ai.choose_move(game, state, config, deadline=CountedDeadline(10**9))  # never cut short here
    assert result.stats["cube"]["look_ahead"] is look_ahead and not result.stats["cube"]["look_ahead_cut"]
    inputs = game.cube_inputs(state, look_ahead)
    assert inputs is not None and result.stats["cube"]["no_double"] == cube.decide(inputs).no_double
    assert inputs != game.cube_inputs(state, not look_ahead)  # the two estimates differ


def test_the_cube_look_ahead_keeps_the_move_s_deadline() -> None:
    """The look-ahead evaluates every roll's plays (~0.4 s, up to ~3 s in positions with many plays):
    when the deadline comes first, the bot decides from the position's own evaluation, says so, and
    keeps no half-finished look-ahead for the next decision."""
    import ai
    from games import registry
    from games.backgammon import rules

    game = registry.get("backgammon").with_options({"cube": True})
    state = game.from_json({**game.to_json(game.initial_state()), "turn": 0, "ply": 3})
    config = ai.SearchConfig(algorithm="expectimax", time_budget_ms=2000, max_depth=1)
    rules._LOOKED_AHEAD.clear()
    deadline = CountedDeadline(50)
    cut = ai.choose_move(game, state, config, deadline=deadline)
    assert cut.stats["cube"]["look_ahead"] is False and cut.stats["cube"]["look_ahead_cut"] is True
    assert deadline.looks_taken == 51  # stopped at its first look past the deadline
    quick = game.cube_inputs(state, look_ahead=False)
    assert quick is not None and cut.stats["cube"]["no_double"] == cube.decide(quick).no_double
    assert not rules._LOOKED_AHEAD  # nothing half-done kept
    whole = ai.choose_move(game, state, config, deadline=CountedDeadline(10**9))
    assert whole.stats["cube"]["look_ahead"] is True and len(rules._LOOKED_AHEAD) == 1


def match_inputs(win: float, offer: bool, now: tuple, doubled: tuple) -> CubeInputs:
    act, decline = ("double", "roll") if offer else ("take", "drop")
    return CubeInputs(
        offer, act, decline, win, 0.0, 0.0, 0.0, 0.0, centred=True, match_play=True,
        match=MatchEquities(now, doubled),
    )  # fmt: skip


def test_in_a_match_the_take_point_comes_from_the_match_equity_table() -> None:
    """2-away 2-away, no gammons: a taken double plays for the match; a drop leaves the doubler 1-away
    2-away in the Crawford game (Kazaross-XG2: 67.7 %), so the taker needs 32.3 %."""
    from games.backgammon.met import match_equity

    crawford = match_equity(1, 2, crawford_played=False)
    now = (crawford, 1.0, 1.0, 1 - crawford, 0.0, 0.0)
    doubled = (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
    assert cube.decide(match_inputs(crawford - 0.01, False, now, doubled)).move == "take"
    assert cube.decide(match_inputs(crawford + 0.01, False, now, doubled)).move == "drop"
    # The doubler loses nothing by doubling at 2-away 2-away: its cube has no more value to keep.
    verdict = cube.decide(match_inputs(0.6, True, now, doubled))
    assert verdict.move == "double" and verdict.double_take == pytest.approx(0.6)
    assert verdict.no_double == pytest.approx(0.6 * crawford + 0.4 * (1 - crawford))


def test_a_bot_decides_the_cube_of_a_match_by_the_table() -> None:
    import ai
    from games import registry

    game = registry.get("backgammon").with_options({"match_to": 7})
    state = game.from_json({**game.to_json(game.initial_state()), "turn": 0, "ply": 3})
    result = ai.choose_move(game, state, ai.SearchConfig(algorithm="expectimax", time_budget_ms=200, max_depth=1))
    inputs = game.cube_inputs(state, look_ahead=False)
    assert inputs is not None and inputs.match is not None
    verdict = cube.decide(inputs)
    assert result.move == verdict.move and result.stats["cube"]["double_drop"] == verdict.double_drop
    assert 0.0 < verdict.no_double < 1.0  # chances of winning the match, not equities per cube

"""A bot's resignations (ai.resign): it accepts what the position is worth to it or more, and offers
one only when its game is lost, at the smallest level the other side should accept."""

from __future__ import annotations

import pytest

from ai import accepts_resignation, resignation_to_offer
from games import registry
from games.backgammon import Backgammon, BackgammonState

GAME: Backgammon = registry.get("backgammon")  # type: ignore[assignment]


def lost_race(off_for_loser: int) -> BackgammonState:
    """Seat 0 bears off its last checker next roll; seat 1 has 14 - `off_for_loser` + 1 checkers on
    its 6-point and `off_for_loser` off: seat 1 has lost, gammoned unless it has borne one off."""
    points = [0] * 24
    points[0] = 1  # seat 0's last checker, on its 1-point
    points[18] = -(15 - off_for_loser)  # seat 1's 6-point
    return BackgammonState(tuple(points), (0, 0), (14, off_for_loser), 0)


def test_a_lost_race_without_gammon_chances_is_resigned_as_a_single_game_and_accepted():
    state = lost_race(1)
    assert resignation_to_offer(GAME, state, 1) == "single"
    assert accepts_resignation(GAME, state, 1, "single")
    assert resignation_to_offer(GAME, state, 0) is None  # the winner never resigns


def test_a_certain_gammon_is_resigned_as_a_gammon_and_a_single_game_is_declined():
    state = lost_race(0)
    assert resignation_to_offer(GAME, state, 1) == "gammon"
    assert not accepts_resignation(GAME, state, 1, "single")
    assert accepts_resignation(GAME, state, 1, "gammon") and accepts_resignation(GAME, state, 1, "backgammon")


def test_a_game_still_open_is_not_resigned_and_a_single_game_offered_is_taken_when_ahead():
    opened = GAME.apply(GAME.initial_state(), "open 3-1")  # seat 1 to play 3-1: about even
    assert resignation_to_offer(GAME, opened, 0) is None and resignation_to_offer(GAME, opened, 1) is None
    assert accepts_resignation(GAME, opened, 0, "single")  # a point for free is worth more than an even game
    # A race a roll from its end where the roller still misses with some rolls: not lost yet.
    points = [0] * 24
    points[5], points[18] = 2, -1  # seat 0: two checkers on its 6-point; seat 1: one on its 6-point
    close = BackgammonState(tuple(points), (0, 0), (13, 14), 0)
    assert resignation_to_offer(GAME, close, 0) is None and resignation_to_offer(GAME, close, 1) is None


def test_games_without_levels_never_resign_this_way():
    tictactoe = registry.get("tictactoe")
    assert resignation_to_offer(tictactoe, tictactoe.initial_state(), 0) is None


def in_a_match(state: BackgammonState, score: tuple[int, int], match_to: int = 3) -> tuple[Backgammon, BackgammonState]:
    """The game of a match to `match_to` at `score`, the Crawford game behind it."""
    from dataclasses import replace

    from games.backgammon.cube import AFTER_CRAWFORD

    game = GAME.configured({"cube": True, "jacoby": False, "match_to": match_to})
    return game, replace(state, score=score, crawford=AFTER_CRAWFORD)  # type: ignore[return-value]


def test_in_a_match_a_single_game_that_wins_the_match_is_accepted_however_likely_a_gammon():
    # Seat 1 is certain to be gammoned (seat 0 declines a single game for money, above); at 2-2 in a
    # match to 3 a single game wins seat 0 the match as surely as the gammon.
    game, state = in_a_match(lost_race(0), (2, 2))
    assert accepts_resignation(game, state, 1, "single")
    assert resignation_to_offer(game, state, 1) == "single"  # the smallest level the winner should take


def test_in_a_match_the_gammon_is_still_asked_for_where_it_is_worth_more():
    # At 0-0 in a match to 3 a gammon (2 points) leaves seat 0 one point away, a single game two.
    game, state = in_a_match(lost_race(0), (0, 0))
    assert not accepts_resignation(game, state, 1, "single")
    assert accepts_resignation(game, state, 1, "gammon")
    assert resignation_to_offer(game, state, 1) == "gammon"


def test_a_match_values_positions_as_chances_of_winning_it():
    game, state = in_a_match(lost_race(1), (1, 0))
    assert game.stake_value(state, 0) + game.stake_value(state, 1) == pytest.approx(1.0)
    assert 0.0 <= game.stake_value(state, 1) < 0.5 < game.stake_value(state, 0) <= 1.0
    assert GAME.stake_value(state, 0) == GAME.evaluate(state, 0)  # money play: the evaluation

"""Resignations for points (games.backgammon.cube): a single game, a gammon or a backgammon, times the
cube, the Jacoby rule applied, capped in a match; recorded as a move of the resigning seat."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games import IllegalMove, registry
from games.backgammon import CENTRED, Backgammon, BackgammonState

PLAIN: Backgammon = registry.get("backgammon")  # type: ignore[assignment]


def rules(**options: bool | int) -> Backgammon:
    return PLAIN.with_options({"cube": False, "jacoby": False, "match_to": 0, **options})  # type: ignore[return-value]


def opened(game: Backgammon) -> BackgammonState:
    return game.apply(game.initial_state(), "open 3-1")  # seat 0 to play 3-1


@pytest.mark.parametrize(
    ("options", "cube", "owner", "level", "points", "says"),
    [
        ({}, 1, CENTRED, "gammon", 2, "resigned a gammon"),
        ({"cube": True}, 2, 0, "gammon", 4, "resigned a gammon: 2 points x cube 2 = 4"),
        ({"cube": True}, 4, 1, "single", 4, "resigned a single game: 1 point x cube 4 = 4"),
        ({"cube": True, "jacoby": True}, 1, CENTRED, "backgammon", 1,
         "resigned a backgammon: 1 point (Jacoby rule: counted single) x cube 1 = 1"),
        ({"cube": True, "jacoby": True}, 2, 0, "backgammon", 6, "resigned a backgammon: 3 points x cube 2 = 6"),
    ],
)  # fmt: skip
def test_what_a_resignation_pays(options, cube, owner, level, points, says):
    game = rules(**options)
    state = replace(opened(game), cube=cube, owner=owner)
    assert game.resignation_terms(state, 1, level) == (points, says)
    ended = game.apply(state, game.resign_move(state, 1, level))
    assert game.is_terminal(ended)
    outcome = game.outcome(ended)
    assert outcome.winner == 0 and outcome.reason == says
    assert outcome.points == ((points, -points) if options else ())
    assert outcome.returns[0] == points / cube  # in units of the cube, as checker play's returns


def test_in_a_match_a_resignation_pays_no_more_than_the_winner_needs_and_the_match_goes_on():
    game = rules(match_to=5)
    state = replace(opened(game), score=(3, 0), cube=2, owner=1)
    says = "resigned a backgammon: 3 points x cube 2 = 6, 2 of them to win the match"
    assert game.resignation_terms(state, 1, "backgammon") == (2, says)
    assert game.is_terminal(game.apply(state, game.resign_move(state, 1, "backgammon")))
    # Seat 0 resigning a single game at 1-3: the game ends, the match goes on with the next opening roll.
    state = replace(opened(game), score=(1, 3))
    ended = game.apply(state, game.resign_move(state, 0, "single"))
    assert not game.is_terminal(ended) and game.resign_levels(ended) == ()
    says = "resigned a single game: 1 point x cube 1 = 1"
    assert game.to_json(ended)["result"] == {"winner": 1, "points": 1, "reason": says}
    assert game.legal_moves(ended)[0].startswith("open ")
    following = game.apply(ended, "open 6-5")
    assert following.score == (1, 4) and following.resigned == () and game.resign_levels(following)


def test_the_resignation_is_recorded_as_a_move_that_round_trips_but_is_never_a_legal_play():
    game = rules(cube=True)
    state = opened(game)
    move = game.resign_move(state, 1, "gammon")
    assert move == "seat 1 resigns a gammon" and move not in game.legal_moves(state)
    with pytest.raises(IllegalMove):
        game.play(state, move)  # a seat cannot resign for the other by playing a move
    ended = game.apply(state, move)
    data = game.to_json(ended)
    assert data["resigned"] == {"seat": 1, "level": "gammon"} and data["dice"] == []
    assert game.from_json(data) == ended and game.key(ended) != game.key(replace(ended, resigned=(0, 2)))
    for bad in ({"seat": 2, "level": "gammon"}, {"seat": 0, "level": "double"}, "gammon"):
        with pytest.raises(ValueError, match="resigned is"):
            game.from_json({**data, "resigned": bad})
    with pytest.raises(ValueError):
        game.resign_move(state, 0, "triple")
    with pytest.raises(KeyError):
        game.apply(ended, game.resign_move(state, 0, "single"))  # the game is over: nothing to resign
    assert game.resign_levels(game.initial_state()) == ()  # nor before the opening roll


def test_a_pending_double_can_be_answered_by_resigning():
    game = rules(cube=True)
    state = game.apply(replace(opened(game), dice=()), "double")  # seat 0 doubled: seat 1 to answer
    assert game.to_move(state) == 1 and "gammon" in game.resign_levels(state)
    ended = game.apply(state, game.resign_move(state, 1, "gammon"))
    assert game.outcome(ended).points == (2, -2)  # at the cube before the double: it was not taken


@pytest.mark.parametrize(
    ("options", "cube", "owner", "move", "points", "says"),
    [
        ({}, 1, CENTRED, "seat 1 resigns a backgammon", (), "resigned a backgammon"),
        ({"cube": True}, 2, 0, "seat 1 resigns a backgammon", (6, -6), "resigned a backgammon: 3 points x cube 2 = 6"),
        ({"cube": True, "jacoby": True}, 1, CENTRED, "seat 1 resigns a backgammon", (1, -1),
         "resigned a backgammon: 1 point (Jacoby rule: counted single) x cube 1 = 1"),
        ({"cube": True, "jacoby": True}, 4, 0, "seat 1 resigns a backgammon", (12, -12),
         "resigned a backgammon: 3 points x cube 4 = 12"),
    ],
)  # fmt: skip
def test_a_plain_resignation_concedes_a_backgammon_times_the_cube(options, cube, owner, move, points, says):
    game = rules(**options)
    state = replace(opened(game), cube=cube, owner=owner)
    assert game.resign_match_move(state, 1) == move == game.resign_move(state, 1, "backgammon")
    outcome = game.outcome(game.apply(state, move))
    assert outcome.winner == 0 and outcome.points == points and outcome.reason == says


def test_in_a_match_a_plain_resignation_resigns_the_match_for_the_points_the_winner_needed():
    game = rules(match_to=7)
    state = replace(opened(game), score=(2, 3), cube=2, owner=1)
    move = game.resign_match_move(state, 1)
    assert move == "seat 1 resigns the match" and move not in game.legal_moves(state)
    assert game.move_notation(state, move) == "resigns the match"
    ended = game.apply(state, move)
    assert game.is_terminal(ended)  # a backgammon at cube 2 would pay 5 of 6: the match, whatever the cube
    outcome = game.outcome(ended)
    assert outcome.winner == 0 and outcome.points == (5, -5) and outcome.returns == (3.0, -3.0)
    assert outcome.reason == "resigned the match: the 5 points the winner needed: match won 7-3"
    data = game.to_json(ended)
    assert data["resigned"] == {"seat": 1, "level": "match"} and game.from_json(data) == ended
    # Only a match to N is resigned whole; nothing is resigned before the opening roll.
    money = rules(cube=True)
    with pytest.raises(ValueError, match="resigned is"):
        money.from_json({**money.to_json(opened(money)), "resigned": {"seat": 1, "level": "match"}})
    with pytest.raises(IllegalMove):
        money.play(opened(money), "seat 1 resigns the match")
    assert game.resign_match_move(game.initial_state(), 0) is None
    assert registry.get("connect4").resign_match_move(registry.get("connect4").initial_state(), 0) is None

"""Results are `games.base.Outcome`s, stored and sent as the JSON they always were (docs/wire.md)."""

from __future__ import annotations

import json

from server.matches.services.endings import called_off, drawn, forfeited


def test_a_forfeit_between_two_gives_the_other_seat_the_win():
    assert json.dumps(forfeited(2, 0, "resigned").to_json()) == json.dumps(
        {"returns": [-1.0, 1.0], "winner": 1, "reason": "resigned", "ranking": [1, 0]}
    )


def test_a_forfeit_among_three_shares_the_win_and_names_no_winner():
    assert forfeited(3, 1, "out of time").to_json() == {
        "returns": [0.5, -1.0, 0.5],
        "winner": None,
        "reason": "out of time",
        "ranking": [0, 2, 1],
    }


def test_an_agreed_draw_and_an_abort():
    assert json.dumps(drawn(2, "draw agreed").to_json()) == json.dumps(
        {"returns": [0.0, 0.0], "winner": None, "reason": "draw agreed", "ranking": []}
    )
    assert json.dumps(called_off("nobody joined").to_json()) == json.dumps(
        {"returns": [], "winner": None, "reason": "nobody joined", "ranking": []}
    )

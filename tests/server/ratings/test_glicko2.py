"""Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system"."""

from __future__ import annotations

import pytest

from server.ratings.glicko2 import Rating, Result, idle, rate


def test_the_papers_worked_example():
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    after = rate(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    player = Rating(1600, 100, 0.06)
    after = rate(player, [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx(100.54, abs=0.01)  # sqrt(phi^2 + sigma^2), in points


def test_idle_time_widens_by_fractional_periods_up_to_the_ceiling():
    player = Rating(1600, 60, 0.06)
    assert idle(player, 0) == player
    assert 60 < idle(player, 0.5).deviation < idle(player, 1).deviation < idle(player, 10).deviation
    assert idle(player, 1).deviation == pytest.approx(rate(player, []).deviation)
    assert idle(player, 1e9).deviation == 350


def test_a_win_and_a_loss_move_equal_players_apart():
    a, b = Rating(), Rating()
    winner, loser = rate(a, [Result(b, 1)]), rate(b, [Result(a, 0)])
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    drawn = rate(a, [Result(b, 0.5)])
    assert drawn.rating == pytest.approx(1500) and drawn.deviation < 350

"""Elo by maximum likelihood: known answers, the anchor, intervals that shrink with games."""

from __future__ import annotations

import math
import random

import pytest

from server.bots.rating import Result, expected, fit


def games(a: str, b: str, wins: int, draws: int, losses: int) -> list[Result]:
    return [Result(a, b, 1.0)] * wins + [Result(a, b, 0.5)] * draws + [Result(a, b, 0.0)] * losses


def test_two_players_get_the_elo_difference_of_their_score():
    # 75% against the anchor (with the prior: 1 virtual draw) is 400*log10(p/(1-p)).
    ratings = {r.player: r for r in fit(games("b", "a", 149, 0, 49), anchor="a")}
    p = (149 + 0.5) / 199
    assert ratings["a"].elo == 0
    assert ratings["b"].elo == pytest.approx(400 * math.log10(p / (1 - p)), abs=1e-6)
    assert ratings["b"].low < ratings["b"].elo < ratings["b"].high


def test_recovers_true_ratings_from_simulated_round_robin():
    rng = random.Random(1)
    truth = {"random": 0, "l1": 300, "l2": 600, "l3": 900}
    results = []
    names = list(truth)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for _ in range(400):
                results.append(Result(a, b, 1.0 if rng.random() < expected(truth[a], truth[b]) else 0.0))
    fitted = {r.player: r for r in fit(results, anchor="random")}
    for name, elo in truth.items():
        assert fitted[name].low - 15 <= elo <= fitted[name].high + 15, (name, fitted[name])


def test_a_clean_sweep_stays_finite_and_more_games_narrow_the_interval():
    few = {r.player: r for r in fit(games("b", "a", 10, 0, 0), anchor="a")}
    many = {r.player: r for r in fit(games("b", "a", 100, 0, 100), anchor="a")}
    assert math.isfinite(few["b"].elo) and few["b"].elo > 200
    assert (many["b"].high - many["b"].low) < (few["b"].high - few["b"].low)


def test_players_unconnected_to_the_anchor_are_an_error():
    with pytest.raises(ValueError, match="anchor"):
        fit(games("b", "c", 3, 0, 1), anchor="a")

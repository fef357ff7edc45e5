"""Glicko-2, as Glickman publishes it ("Example of the Glicko-2 system", 2012): no Django here.

A rating period is one game, as lichess plays it (docs/design.md §4, ratings): each result
updates both players at once.  Time without games widens the deviation before the period
(`idle`), by the same step 6 a skipped period applies, taken a fractional number of times.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale: rating points per unit of mu
BASE = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # how fast volatility may change; Glickman suggests 0.3 to 1.2
EPSILON = 0.000001  # convergence of the volatility's iteration (step 5)


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Glicko scale: rating, deviation (RD) and volatility."""

    rating: float = BASE
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game against `opponent`: `score` 1 for a win, 0.5 for a draw, 0 for a loss."""

    opponent: Rating
    score: float


def idle(player: Rating, periods: float, ceiling: float = START_DEVIATION) -> Rating:
    """The player after `periods` rating periods without games (step 6 alone, Glickman §6):
    the deviation grows as sqrt(phi^2 + periods * sigma^2), never past `ceiling`."""
    if periods <= 0:
        return player
    phi = math.sqrt((player.deviation / SCALE) ** 2 + periods * player.volatility**2)
    return Rating(player.rating, min(phi * SCALE, ceiling), player.volatility)


def rate(player: Rating, results: list[Result], tau: float = TAU) -> Rating:
    """The player after one rating period with `results` (Glickman's steps 2 to 8)."""
    if not results:
        return idle(player, 1)
    mu, phi, sigma = (player.rating - BASE) / SCALE, player.deviation / SCALE, player.volatility
    games = [((r.opponent.rating - BASE) / SCALE, r.opponent.deviation / SCALE, r.score) for r in results]
    v_inverse = 0.0
    gain = 0.0
    for mu_j, phi_j, score in games:
        g_j = _g(phi_j)
        e_j = _e(mu, mu_j, phi_j)
        v_inverse += g_j**2 * e_j * (1 - e_j)
        gain += g_j * (score - e_j)
    v = 1 / v_inverse
    delta = v * gain
    sigma_new = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi**2 + sigma_new**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu_new = mu + phi_new**2 * gain
    return Rating(BASE + SCALE * mu_new, SCALE * phi_new, sigma_new)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm of the paper."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)

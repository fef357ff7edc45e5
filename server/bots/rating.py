"""Elo ratings by maximum likelihood from game results, with confidence intervals.

The model is Elo's logistic curve: a player rated R_a scores E = 1 / (1 + 10^((R_b - R_a) / 400))
on average against R_b; a draw counts half a point.  The log-likelihood of all results
is maximised by Newton's method with one player held at 0 (the anchor: the random
mover), and each rating's 95% interval comes from the inverse of the observed
information (the negative Hessian).  A prior of one virtual draw per pair that met
keeps a player who won every game at a finite rating, as BayesElo's prior does.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

SCALE = 400 / math.log(10)  # Elo points per natural-log unit of odds
Z95 = 1.959964


@dataclass(frozen=True)
class Result:
    a: str
    b: str
    score_a: float  # 1 win, 0.5 draw, 0 loss, for `a`


@dataclass(frozen=True)
class Rating:
    player: str
    elo: float
    low: float
    high: float
    games: int


def expected(r_a: float, r_b: float) -> float:
    return 1 / (1 + 10 ** ((r_b - r_a) / 400))


def _pair_totals(results: Iterable[Result], prior_draws: float) -> dict[tuple[str, str], tuple[float, float]]:
    """(games, points of the first) per unordered pair, the prior included."""
    totals: dict[tuple[str, str], list[float]] = {}
    for r in results:
        key, points = ((r.a, r.b), r.score_a) if r.a < r.b else ((r.b, r.a), 1 - r.score_a)
        entry = totals.setdefault(key, [prior_draws, prior_draws / 2])
        entry[0] += 1
        entry[1] += points
    return {k: (v[0], v[1]) for k, v in totals.items()}


def fit(results: Sequence[Result], anchor: str, prior_draws: float = 1.0, iterations: int = 100) -> list[Rating]:
    """Maximum-likelihood Elo ratings, `anchor` at 0, best first."""
    pairs = _pair_totals(results, prior_draws)
    players = sorted({p for pair in pairs for p in pair} | {anchor})
    free = [p for p in players if p != anchor]
    index = {p: i for i, p in enumerate(free)}
    theta = {p: 0.0 for p in players}  # ratings in natural-log odds units
    for _ in range(iterations):
        grad, hess = _gradient_and_hessian(pairs, theta, index)
        step = _solve(hess, grad)
        for p, i in index.items():
            theta[p] -= step[i]
        if max((abs(s) for s in step), default=0) < 1e-10:
            break
    _, hess = _gradient_and_hessian(pairs, theta, index)
    covariance = _inverse([[-h for h in row] for row in hess]) if free else []
    games = {p: 0 for p in players}
    for r in results:
        games[r.a] += 1
        games[r.b] += 1
    ratings = []
    for p in players:
        elo = theta[p] * SCALE
        half = Z95 * math.sqrt(max(covariance[index[p]][index[p]], 0.0)) * SCALE if p in index else 0.0
        ratings.append(Rating(p, elo, elo - half, elo + half, games[p]))
    return sorted(ratings, key=lambda r: -r.elo)


def fit_against(
    results: Sequence[tuple[float, float]], prior_draws: float = 1.0, iterations: int = 100
) -> tuple[float, float, float]:
    """One player's maximum-likelihood Elo against opponents whose ratings are known and held:
    `results` are (the opponent's rating, the player's score).  The same prior as `fit` (a
    virtual draw against each opponent met) keeps a record of all wins or all losses finite.
    (rating, low, high), the interval at 95% from the observed information.

    >>> rating, low, high = fit_against([(1000.0, 0.5)] * 10)
    >>> round(rating), low < 1000 < high
    (1000, True)
    """
    if not results:
        raise ValueError("no results to rate")
    totals: dict[float, list[float]] = {}
    for opponent, score in results:
        entry = totals.setdefault(opponent, [prior_draws, prior_draws / 2])
        entry[0] += 1
        entry[1] += score
    rating = sum(totals) / len(totals)
    information = 0.0
    for _ in range(iterations):
        gradient, information = 0.0, 0.0
        for opponent, (games, points) in totals.items():
            p = expected(rating, opponent)
            gradient += (points - games * p) / SCALE
            information += games * p * (1 - p) / SCALE**2
        step = max(-400.0, min(400.0, gradient / information))  # Newton, held back far from the optimum
        rating += step
        if abs(step) < 1e-9:
            break
    half = Z95 / math.sqrt(information)
    return rating, rating - half, rating + half


def _gradient_and_hessian(
    pairs: dict[tuple[str, str], tuple[float, float]], theta: dict[str, float], index: dict[str, int]
) -> tuple[list[float], list[list[float]]]:
    n = len(index)
    grad = [0.0] * n
    hess = [[0.0] * n for _ in range(n)]
    for (a, b), (games, points_a) in pairs.items():
        p = 1 / (1 + math.exp(theta[b] - theta[a]))
        g = points_a - games * p  # d logL / d theta_a
        w = games * p * (1 - p)
        for x, sign in ((a, 1), (b, -1)):
            if x in index:
                grad[index[x]] += sign * g
        for x in (a, b):
            for y in (a, b):
                if x in index and y in index:
                    hess[index[x]][index[y]] -= w if x == y else -w
    return grad, hess


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    rows = [list(matrix[i]) + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if abs(rows[col][col]) < 1e-12:
            raise ValueError("results do not connect every player to the anchor")
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


SEATINGS_3 = ("ABB", "BAB", "BBA", "BAA", "ABA", "AAB")  # two players over three seats


def seatings(players: Sequence[T], num_seats: int = 2) -> list[tuple[T, ...]]:
    """A round-robin's games by seat.  Two seats: every ordered pair (each moves first).
    Three: each pair in the six seatings of two players over three seats."""
    if num_seats == 2:
        return list(itertools.permutations(players, 2))
    if num_seats == 3:
        pairs = itertools.combinations(players, 2)
        return [tuple(a if c == "A" else b for c in s) for a, b in pairs for s in SEATINGS_3]
    raise ValueError(f"a round-robin seats two or three players, not {num_seats}")


def comparisons(players: Sequence[str], returns: Sequence[float]) -> list[Result]:
    """Each two seats with different players: the first one's score (ahead 1, level 1/2, behind 0)."""
    out = []
    for i, j in itertools.combinations(range(len(players)), 2):
        if players[i] != players[j]:
            score = 1.0 if returns[i] > returns[j] else 0.0 if returns[i] < returns[j] else 0.5
            out.append(Result(players[i], players[j], score))
    return out

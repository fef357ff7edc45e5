"""Fit each game's winning-chances slope (`games.chances`) on bot games: values against results.

Plays games between two fixed-depth alpha-beta bots (max^n for Chinese checkers,
expectiminimax for backgammon) that slip now and then (``slip_rate``), so that the
games reach uneven positions and end every way.  Each searched position gives one
sample: the value the mover's search gave it, and the mover's score at the end (1 a
win, 1/2 a draw, 0 a loss; in backgammon a win of any size is 1; with three seats the
share of the places beaten: first 1, second 1/2, last 0).  Proven values are left out
(they map to their result).  The slope of ``1 / (1 + exp(-slope * value))`` is fitted by
maximum likelihood (Newton's method on one parameter).

    .venv/bin/python benchmarks/calibrate_chances.py --games 60 chess connect4

prints per game the samples, the fitted slope, the one declared in its spec, and the
mean log-loss with each, so a declared slope can be checked against a new run.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import ai
from games import CHANCE, registry
from games.base import Game

SEARCH = {  # (algorithm, depth): cheap enough for many games, deep enough to value tactics
    "chess": ("alphabeta", 2),
    "connect4": ("alphabeta", 4),
    "othello": ("alphabeta", 3),
    "checkers": ("alphabeta", 4),
    "tictactoe": ("alphabeta", 2),
    "chinese-checkers": ("maxn", 1),
    "chinese-checkers-2": ("alphabeta", 2),
    "backgammon": ("expectimax", 1),
}
SLIPS = (0.05, 0.15, 0.3)  # each game's two bots draw their error rates from these


def play(game: Game, seed: int) -> tuple[list[tuple[int, float]], list[float]]:
    """One game: the (mover, value) samples and the final scores per seat."""
    rng = random.Random(seed)
    algorithm, depth = SEARCH[game.id]
    slips = [rng.choice(SLIPS) for _ in range(game.num_players)]
    state, samples = game.initial_state(), []
    while not game.is_terminal(state):
        seat = game.to_move(state)
        if seat == CHANCE:
            outcomes = game.chance_outcomes(state)
            state = game.apply(state, rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        config = ai.SearchConfig(
            algorithm=algorithm, time_budget_ms=600_000, max_depth=depth, slip_rate=slips[seat], seed=rng.random()
        )
        result = ai.choose_move(game, state, config)
        proven = result.stats.get("complete") or "plies_to_end" in result.stats or result.stats.get("forced")
        if not proven:
            samples.append((seat, result.value))
        state = game.apply(state, result.move)
    return samples, scores(game, game.returns(state))


def scores(game: Game, returns: list[float]) -> list[float]:
    """Each seat's score 0..1: its share of the other seats it finished ahead of (a tie half)."""
    n = len(returns)
    return [sum(1.0 if r > o else 0.5 if r == o else 0.0 for j, o in enumerate(returns) if j != i) / (n - 1)
            for i, r in enumerate(returns)]  # fmt: skip


def fit(samples: list[tuple[float, float]]) -> float:
    """The slope k maximising the likelihood of the scores y under sigmoid(k * value)."""
    k = 1.0
    for _ in range(50):
        grad = hess = 0.0
        for v, y in samples:
            p = 1 / (1 + math.exp(-max(-40.0, min(40.0, k * v))))
            grad += (y - p) * v
            hess -= p * (1 - p) * v * v
        if hess == 0:
            break
        step = grad / hess
        k -= step
        if abs(step) < 1e-6:
            break
    return k


def log_loss(samples: list[tuple[float, float]], k: float) -> float:
    total = 0.0
    for v, y in samples:
        p = min(1 - 1e-9, max(1e-9, 1 / (1 + math.exp(-max(-40.0, min(40.0, k * v))))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(1, len(samples))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(SEARCH))
    parser.add_argument("--games", dest="count", type=int, default=60, help="games per game (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game_id in args.games:
        game = registry.get(game_id)
        started = time.perf_counter()
        samples: list[tuple[float, float]] = []
        for i in range(args.count):
            moves, final = play(game, args.seed * 100_003 + i)
            samples.extend((value, final[seat]) for seat, value in moves)
        slope = fit(samples)
        declared = game.spec.chances.slope
        print(
            f"{game_id:17} {args.count} games, {len(samples)} values: fitted slope {slope:.2f} "
            f"(declared {declared:.2f}); log-loss {log_loss(samples, slope):.4f} fitted, "
            f"{log_loss(samples, declared):.4f} declared; {time.perf_counter() - started:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()

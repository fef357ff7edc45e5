"""Budget overshoot: p50, p99 and max of (elapsed - budget) over many searches per searcher.

Positions are Connect Four middle games (random openings of 4 to 16 plies) and a few
Othello, Chinese checkers and backgammon positions; budgets cycle through 50, 200 and
1000 ms unless one is given.

Beside the overshoot, the longest step of CPU time between two looks at the clock
(``time.monotonic``, which every searcher's deadline check calls) over all searches:
what the searcher itself can be late by.  On a machine with more runnable processes
than cores the wall-clock tail is mostly time spent descheduled, which no searcher can
shorten; the load average is printed before and after.

    .venv/bin/python benchmarks/budget_overshoot.py [searches] [budget_ms]
"""

from __future__ import annotations

import os
import random
import sys
import time

import ai
from games import registry
from games.base import CHANCE


def positions(count: int, seed: int = 1):
    rng = random.Random(seed)
    games = ["connect4"] * 3 + ["othello", "chinese-checkers", "backgammon"]
    out = []
    while len(out) < count:
        game = registry.get(games[len(out) % len(games)])
        state = game.initial_state()
        for _ in range(rng.randint(4, 16)):
            if game.is_terminal(state):
                break
            state = game.apply(state, game.rollout_move(state, rng))
        while not game.is_terminal(state) and game.to_move(state) == CHANCE:
            state = game.apply(state, game.rollout_move(state, rng))
        if not game.is_terminal(state) and len(game.legal_moves(state)) > 1:
            out.append((game, state))
    return out


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class ClockWatch:
    """Wraps `time.monotonic` to keep the longest CPU time between two calls."""

    def __init__(self) -> None:
        self.real = time.monotonic
        self.last = 0.0
        self.longest = 0.0

    def __call__(self) -> float:
        now = time.thread_time()
        self.longest = max(self.longest, now - self.last)
        self.last = now
        return self.real()

    def start(self) -> None:
        self.last = time.thread_time()


def main(searches: int, budget: int | None) -> None:
    cases = positions(searches)
    watch = ClockWatch()
    time.monotonic = watch  # type: ignore[assignment] # the searchers' clock, watched
    print(f"{searches} searches per searcher; overshoot = elapsed - budget (ms), negative = early")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'searcher':10} {'budgets':>12} {'p50':>7} {'p99':>7} {'max':>7} | {'longest CPU step':>16}")
    for algorithm in ("alphabeta", "expectimax", "mcts", "maxn"):
        over = []
        watch.longest = 0.0
        for i, (game, state) in enumerate(cases):
            b = budget if budget else (50, 200, 1000)[i % 3]
            config = ai.SearchConfig(algorithm=algorithm, time_budget_ms=b, seed=i)
            started = time.perf_counter()
            watch.start()
            ai.choose_move(game, state, config)
            over.append((time.perf_counter() - started) * 1000 - b)
        label = str(budget) if budget else "50/200/1000"
        print(
            f"{algorithm:10} {label:>12} {percentile(over, 0.5):7.1f} {percentile(over, 0.99):7.1f} "
            f"{max(over):7.1f} | {watch.longest * 1000:14.1f}ms"
        )
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200, int(sys.argv[2]) if len(sys.argv) > 2 else None)

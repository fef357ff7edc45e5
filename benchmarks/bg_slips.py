"""Backgammon: depth-1 bots at several slip rates against each other, to space the ladder's levels.

Every listed bot plays the next `--span` bots of the list (``random`` is the random mover;
a number is the error rate of a depth-1 expectiminimax with level 1's other settings),
`--games` games a pairing, alternating seats, each pair of games on the same dice.  The
score is the first bot's share of the games (a win counts 1, whatever its size).

    PYTHONPATH=. .venv/bin/python benchmarks/bg_slips.py [--rates random,1,0.8,0.6,0.4,0.2,0]
        [--span 2] [--games 100] [--jobs 2] [--seed 17]
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool

from botplay import ProfileBot, RandomBot, interval, ladder, play

from games import registry


def make_bot(rate: str) -> ProfileBot | RandomBot:
    if rate == "random":
        return RandomBot()
    return ProfileBot({**ladder("backgammon")[1], "error_rate": float(rate) or None})


def one_game(task: tuple[str, str, int, int]) -> tuple[str, str, float]:
    a, b, index, seed = task
    seats = [make_bot(a), make_bot(b)] if index % 2 == 0 else [make_bot(b), make_bot(a)]
    returns, _ = play(registry.get("backgammon"), seats, 5003 * (index // 2) + seed)
    mine = 0 if index % 2 == 0 else 1
    return a, b, float(returns[mine] > returns[1 - mine])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="random,1,0.8,0.6,0.4,0.2,0")
    parser.add_argument("--span", type=int, default=2, help="pair each bot with the next N of the list")
    parser.add_argument("--games", type=int, default=100, help="games per pairing")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=17, help="the dice (default 17)")
    args = parser.parse_args()
    rates = args.rates.split(",")
    pairs = [(rates[i], rates[j]) for i in range(len(rates)) for j in range(i + 1, min(i + 1 + args.span, len(rates)))]
    tasks = [(a, b, n, args.seed) for a, b in pairs for n in range(args.games)]
    started = time.time()
    wins: dict[tuple[str, str], float] = {}
    with Pool(args.jobs) as pool:
        for a, b, won in pool.imap_unordered(one_game, tasks):
            wins[(a, b)] = wins.get((a, b), 0.0) + won
    print("| first | second | games | first's score | ±95% |\n| --- | --- | --- | --- | --- |")
    for a, b in pairs:
        score = wins[(a, b)] / args.games
        print(f"| {a} | {b} | {args.games} | {score:.1%} | {interval(score, args.games):.0%} |")
    print(f"\n# {len(tasks)} games, {time.time() - started:.0f} s wall")


if __name__ == "__main__":
    main()

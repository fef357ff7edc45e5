"""Backgammon: how much a slip rate costs, against the same bot without slips or another rate (issue 19).

Every backgammon level plays at depth 1 with the contact network, so a level is its slip
rate alone; this measures each rate's Elo below the Master (no slips) head to head, to
space the ladder's rates evenly.  Seats alternate; a game's seed fixes its dice.

    PYTHONPATH=$PWD:$PWD/benchmarks .venv/bin/python benchmarks/bg_slip_curve.py \
        --rates 0.1,0.3,0.5 --games 400 --jobs 2 [--against 0.23] [--first-seed 7000] [--temperature 5]

`--temperature` spreads the slipping bot's slips (the profile's temperature; 5: nearly even
among its second choices, as the Dice level plays).
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import Pool

from botplay import ProfileBot, interval, ladder, play

from games import registry

GAME = "backgammon"


def one_game(task: tuple[float, float, float, int]) -> float:
    """The upper bot's win (1) or loss (0) in game `index`: slips at `upper` against slips at `rate`
    spread by `temperature`."""
    upper_rate, rate, temperature, index = task
    levels = ladder(GAME)
    upper = ProfileBot({**levels[5], "slip_rate": upper_rate})
    slipper = ProfileBot({**levels[4], "slip_rate": rate, "temperature": temperature})
    bots = [upper, slipper] if index % 2 == 0 else [slipper, upper]
    returns, _ = play(registry.get(GAME), bots, index, 0, opening_seed=index // 2)
    return 1.0 if returns[index % 2] > 0 else 0.0


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return 400 * math.log10(score / (1 - score))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="0.1,0.2,0.35,0.5,0.65,0.8,0.9")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--against", type=float, default=0.0, help="the upper bot's slip rate (0: the Master)")
    parser.add_argument("--first-seed", type=int, default=7000, help="game i plays with seed first + i")
    parser.add_argument("--temperature", type=float, default=0.0, help="the slipping bot's temperature")
    args = parser.parse_args()
    print(f"| slip rate | games | score of the bot slipping at {args.against:.2f} | ±95% | Elo below it |")
    print("| --- | --- | --- | --- | --- |")
    with Pool(args.jobs) as pool:
        for rate in (float(r) for r in args.rates.split(",")):
            start = time.time()
            seeds = range(args.first_seed, args.first_seed + args.games)
            scores = pool.map(one_game, [(args.against, rate, args.temperature, i) for i in seeds])
            score = sum(scores) / len(scores)
            print(
                f"| {rate:.2f} | {len(scores)} | {score:.1%} | {interval(score, len(scores)):.0%} "
                f"| {elo(score):.0f} ({time.time() - start:.0f} s) |",
                flush=True,
            )


if __name__ == "__main__":
    main()

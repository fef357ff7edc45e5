"""Backgammon: how much a slip rate costs, against the same bot without slips (issue 19).

Every backgammon level plays at depth 1 with the contact network, so a level is its slip
rate alone; this measures each rate's Elo below the Master (no slips) head to head, to
space the ladder's rates evenly.  Seats alternate; a game's seed fixes its dice.

    PYTHONPATH=$PWD:$PWD/benchmarks .venv/bin/python benchmarks/bg_slip_curve.py \
        --rates 0.1,0.3,0.5 --games 400 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import Pool

from botplay import ProfileBot, interval, ladder, play

from games import registry

GAME = "backgammon"


def one_game(task: tuple[float, int]) -> float:
    """The Master's points share (1 win, 0 loss) in game `index` against slips at `rate`."""
    rate, index = task
    levels = ladder(GAME)
    master = ProfileBot(levels[5])
    slipper = ProfileBot({**levels[4], "error_rate": rate})
    bots = [master, slipper] if index % 2 == 0 else [slipper, master]
    returns, _ = play(registry.get(GAME), bots, 7000 + index, 0, opening_seed=index // 2)
    return 1.0 if returns[index % 2] > 0 else 0.0


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return 400 * math.log10(score / (1 - score))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="0.1,0.2,0.35,0.5,0.65,0.8,0.9")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print("| slip rate | games | Master's score | ±95% | Elo below the Master |")
    print("| --- | --- | --- | --- | --- |")
    with Pool(args.jobs) as pool:
        for rate in (float(r) for r in args.rates.split(",")):
            start = time.time()
            scores = pool.map(one_game, [(rate, i) for i in range(args.games)])
            score = sum(scores) / len(scores)
            print(
                f"| {rate:.2f} | {len(scores)} | {score:.1%} | {interval(score, len(scores)):.0%} "
                f"| {elo(score):.0f} ({time.time() - start:.0f} s) |",
                flush=True,
            )


if __name__ == "__main__":
    main()

"""The Master as first player against every other seeded profile of a game (the bar:
"Connect Four's Master as first player wins against every other profile").

Straight through `ai.choose_move` with each profile's own settings and real budgets
(optionally scaled); the Master always sits in seat 0.  Prints, per opponent, the Master's
wins, draws and losses.

    .venv/bin/python benchmarks/master_first.py [--game connect4] [--games 10] [--budget-scale F] [--jobs J]
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool

from botplay import ProfileBot, play

from games import registry
from server.bots.seed import PROFILES


def opponents(game_id: str) -> list[dict]:
    return [p for p in PROFILES if p["game"] == game_id and p["level"] != 5]


def master(game_id: str) -> dict:
    return next(p for p in PROFILES if p["game"] == game_id and p["level"] == 5 and not p.get("adaptive"))


def one_game(task: tuple[str, str, int, float]) -> tuple[str, float]:
    game_id, slug, index, scale = task
    rival = next(p for p in opponents(game_id) if p["slug"] == slug)
    returns, _ = play(
        registry.get(game_id), [ProfileBot(master(game_id), None, scale), ProfileBot(rival, None, scale)], seed=index
    )
    return slug, returns[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--games", type=int, default=10, help="games per opponent (default 10)")
    parser.add_argument("--budget-scale", type=float, default=1.0, help="multiply every profile's budget")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    slugs = [p["slug"] for p in opponents(args.game)]
    tasks = [(args.game, slug, i, args.budget_scale) for slug in slugs for i in range(args.games)]
    tally = {slug: [0, 0, 0] for slug in slugs}
    started = time.time()
    with Pool(args.jobs) as pool:
        for slug, result in pool.imap_unordered(one_game, tasks):
            tally[slug][0 if result > 0 else 1 if result == 0 else 2] += 1
    print(f"{master(args.game)['slug']} as first player, {args.games} games per opponent, scale {args.budget_scale}")
    print("| opponent | wins | draws | losses |\n| --- | --- | --- | --- |")
    for slug, (won, drawn, lost) in tally.items():
        print(f"| {slug} | {won} | {drawn} | {lost} |")
    print(f"# {time.time() - started:.0f} s wall")


if __name__ == "__main__":
    main()

"""Quick ladder check: each seeded level against the level below, straight through `ai.choose_move`.

No server, no database: the profiles come from `server/bots/seed.py` and play with
their own settings (budgets optionally capped or scaled).  Two-player games alternate
seats; three-player games rotate the six seatings of two levels over three seats.  The
score is the upper level's share of head-to-head comparisons: in a two-player game a
win counts 1 and a draw 1/2; with three seats each (upper seat, lower seat) pair counts
1 when the upper one finished ahead (a shared place 1/2), so 50% means equal strength.
The ladder's bar is 65% per step (over 100 games; use ``--games`` to afford what you can).

    .venv/bin/python benchmarks/ladder_quick.py [--game ID ...] [--games N] [--steps 1,2,...]
        [--budget-cap-ms MS | --budget-scale F] [--jobs J]
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool

from botplay import ProfileBot, Tally, interval, ladder, pairwise_score, play

from games import registry

THRESHOLD = 0.65
SEATINGS_3 = ("ULL", "LUL", "LLU", "LUU", "ULU", "UUL")  # U: upper level, L: lower level


def seating(num_players: int, index: int) -> str:
    if num_players == 2:
        return "UL" if index % 2 == 0 else "LU"
    if num_players == 3:
        return SEATINGS_3[index % len(SEATINGS_3)]
    raise ValueError(f"no seating rotation for {num_players} players")


def one_game(task: tuple[str, int, int, int | None, float, int]) -> tuple[str, int, float, float, int, Tally, Tally]:
    game_id, step, index, cap_ms, scale, opening_plies = task
    game = registry.get(game_id)
    levels = ladder(game_id)
    upper = ProfileBot(levels[step], cap_ms, scale)
    lower = ProfileBot(levels[step - 1], cap_ms, scale)
    seats = seating(game.num_players, index)
    bots = [upper if s == "U" else lower for s in seats]
    # Both seatings of a pair of games start from the same random opening.
    rotation = 2 if game.num_players == 2 else len(SEATINGS_3)
    returns, plies = play(game, bots, 1000 * step + index, opening_plies, opening_seed=index // rotation)
    mine = [i for i, s in enumerate(seats) if s == "U"]
    theirs = [i for i, s in enumerate(seats) if s == "L"]
    won = float(min(returns[a] for a in mine) > max(returns[b] for b in theirs))
    return game_id, step, pairwise_score(returns, mine, theirs), won, plies, upper.tally, lower.tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="game id (repeatable); default: every registered game")
    parser.add_argument("--games", type=int, default=20, help="games per step (default 20)")
    parser.add_argument("--steps", default="1,2,3,4,5", help="upper levels to test, e.g. 3,4 (default all)")
    parser.add_argument("--budget-cap-ms", type=int, default=None, help="cap every profile's budget")
    parser.add_argument("--budget-scale", type=float, default=1.0, help="multiply every profile's budget")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel (default 1)")
    parser.add_argument("--opening-plies", type=int, default=0, help="random moves before the bots play (default 0)")
    args = parser.parse_args()
    game_ids = args.game or [g.id for g in registry.all()]
    steps = [int(s) for s in args.steps.split(",")]
    tasks = [
        (gid, step, i, args.budget_cap_ms, args.budget_scale, args.opening_plies)
        for gid in game_ids
        for step in steps
        for i in range(args.games)
    ]
    print(
        f"# ladder_quick: {args.games} games per step, budget cap {args.budget_cap_ms or 'none'} ms, "
        f"scale {args.budget_scale}, {args.jobs} jobs, {args.opening_plies} random opening plies",
        flush=True,
    )
    results: dict[tuple[str, int], list] = {}
    started = time.time()
    with Pool(args.jobs) as pool:
        for done, (gid, step, score, won, plies, up, low) in enumerate(pool.imap_unordered(one_game, tasks), 1):
            row = results.setdefault((gid, step), [0.0, 0.0, 0, 0, Tally(), Tally()])
            row[0] += score
            row[1] += won
            row[2] += plies
            row[3] += 1
            row[4].merge(up)
            row[5].merge(low)
            if row[3] == args.games:
                print(
                    f"  {gid} {row_text(gid, step, row, args)} ({time.time() - started:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
            elif done % 10 == 0:
                print(f"  {done}/{len(tasks)} games ({time.time() - started:.0f} s)", file=sys.stderr, flush=True)
    for gid in game_ids:
        print(f"\n{gid}")
        print(
            "| step | upper | lower | games | score | ±95% | wins | plies/game | upper ms/move | lower ms/move | ≥65% |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for step in steps:
            print(row_text(gid, step, results[(gid, step)], args))
    print(f"\n# {time.time() - started:.0f} s wall", flush=True)


def row_text(gid: str, step: int, row: list, args: argparse.Namespace) -> str:
    score, won, plies, n, up, low = row
    levels = ladder(gid)
    mean = score / n
    return (
        f"| {step - 1}→{step} | {describe(levels[step], args)} | {describe(levels[step - 1], args)} | {n} "
        f"| {mean:.0%} | {interval(mean, n):.0%} | {won / n:.0%} | {plies / n:.0f} "
        f"| {up.ms / max(up.moves, 1):.0f} | {low.ms / max(low.moves, 1):.0f} "
        f"| {'yes' if mean >= THRESHOLD else 'NO'} |"
    )


def describe(spec: dict, args: argparse.Namespace) -> str:
    from botplay import budget_ms

    parts = [spec["algorithm"]]
    if spec.get("max_depth"):
        parts.append(f"d{spec['max_depth']}")
    if spec.get("max_iterations"):
        parts.append(f"{spec['max_iterations']} iterations")
    if spec.get("error_rate"):
        parts.append(f"err {spec['error_rate']}")
    if spec.get("temperature"):
        parts.append(f"T {spec['temperature']}")
    options = spec.get("search_options") or {}
    if options.get("paranoid"):
        parts.append("paranoid")
    if options.get("trap_model"):
        parts.append(f"traps {options['trap_model']}")
    if spec["algorithm"] != "random":
        parts.append(f"{budget_ms(spec, args.budget_cap_ms, args.budget_scale)} ms")
    return " ".join(parts)


if __name__ == "__main__":
    main()

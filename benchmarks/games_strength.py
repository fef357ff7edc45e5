"""Othello, backgammon and Chinese checkers: search speed, and the Master bot against simple references.

1. Speed: every searcher the game's seeded profiles use (alpha-beta, expectimax,
   max^n, paranoid, MCTS with the profile's options), unlimited depth, for
   ``--speed-ms`` on a few positions reached by the game's rollout policy (opening,
   middle game, late); nodes/s, and simulations/s for MCTS.
2. Strength: the level-5 profile ("Master") with its seeded settings over ``--games``
   games against the random mover and against a one-ply greedy bot (the move whose
   resulting position the game's `evaluate` likes best for the mover).  Two players
   alternate seats; with three, the Master takes each seat in turn against two copies
   of the reference.  Score: points where a sole first place is 1 and a shared first
   place is split (so an equal bot scores 1/2 with two seats, 1/3 with three).

    .venv/bin/python benchmarks/games_strength.py [--game ID ...] [--games 50]
        [--budget-cap-ms MS] [--speed-ms 300] [--jobs J] [--skip-speed] [--skip-strength]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool

from botplay import GreedyBot, ProfileBot, RandomBot, Tally, budget_ms, first_place_points, interval, ladder, play

import ai
from ai.search import algorithm_for
from games import registry
from games.base import CHANCE, Game, State
from server.bots.seed import PROFILES

GAMES = ("othello", "backgammon", "chinese-checkers", "chinese-checkers-2")
POSITION_PLIES = (8, 24, 48)  # rollout-policy plies to the sample positions


def positions(game: Game, seed: int = 7) -> list[tuple[int, State]]:
    out = []
    for plies in POSITION_PLIES:
        rng = random.Random(seed + plies)
        state = game.initial_state()
        played = 0
        while played < plies or (not game.is_terminal(state) and game.to_move(state) == CHANCE):
            if game.is_terminal(state):
                break
            state = game.apply(state, game.rollout_move(state, rng))
            played += 1
        if not game.is_terminal(state) and len(game.legal_moves(state)) > 1:
            out.append((played, state))
    return out


def searchers(game_id: str) -> list[tuple[str, dict]]:
    """Distinct (algorithm, options) among the game's seeded profiles, as the searcher that runs."""
    game = registry.get(game_id)
    seen: dict[tuple, tuple[str, dict]] = {}
    for spec in PROFILES:
        if spec["game"] != game_id or spec["algorithm"] == "random":
            continue
        algorithm = algorithm_for(game, spec["algorithm"])
        options = dict(spec.get("search_options") or {})
        seen.setdefault((algorithm, tuple(sorted(options.items()))), (algorithm, options))
    return list(seen.values())


def speed(game_id: str, ms: int) -> None:
    game = registry.get(game_id)
    print(f"\n{game_id}: search speed, {ms} ms per search, unlimited depth")
    print("| searcher | position (plies) | moves | nodes | nodes/s | sims/s | depth |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for algorithm, options in searchers(game_id):
        label = algorithm + "".join(f" {k}={v}" for k, v in options.items())
        total_nodes, total_ms, total_sims = 0, 0.0, 0
        for plies, state in positions(game):
            config = ai.SearchConfig(algorithm=algorithm, time_budget_ms=ms, seed=1, options=options)
            result = ai.choose_move(game, state, config)
            sims = result.stats.get("iterations")
            seconds = result.elapsed_ms / 1000
            total_nodes, total_ms, total_sims = (
                total_nodes + result.nodes,
                total_ms + result.elapsed_ms,
                total_sims + (sims or 0),
            )
            print(
                f"| {label} | {plies} | {len(game.legal_moves(state))} | {result.nodes:,} "
                f"| {result.nodes / seconds:,.0f} | {f'{sims / seconds:,.0f}' if sims is not None else '–'} "
                f"| {result.depth} |",
                flush=True,
            )
        sims_rate = f"{total_sims / total_ms * 1000:,.0f}" if algorithm == "mcts" else "–"
        print(f"| **{label}** | all | | {total_nodes:,} | **{total_nodes / total_ms * 1000:,.0f}** | {sims_rate} | |")


def one_game(task: tuple[str, str, int, int | None]) -> tuple[str, str, float, float, int, Tally]:
    game_id, reference, index, cap_ms = task
    game = registry.get(game_id)
    master = ProfileBot(ladder(game_id)[5], cap_ms)
    n = game.num_players
    seat = index % n
    bots = [master if i == seat else (RandomBot() if reference == "random" else GreedyBot()) for i in range(n)]
    returns, plies = play(game, bots, seed=10_000 + index)
    others = [r for i, r in enumerate(returns) if i != seat]
    below = float(returns[seat] < max(others))  # not first (or shared first)
    return game_id, reference, first_place_points(returns, seat), below, plies, master.tally


def strength(game_ids: list[str], games: int, cap_ms: int | None, jobs: int) -> None:
    tasks = [(gid, ref, i, cap_ms) for gid in game_ids for ref in ("random", "greedy") for i in range(games)]
    rows: dict[tuple[str, str], list] = {}
    started = time.time()
    with Pool(jobs) as pool:
        for gid, ref, points, below, plies, tally in pool.imap_unordered(one_game, tasks):
            row = rows.setdefault((gid, ref), [0.0, 0, 0, 0, Tally()])
            row[0] += points
            row[1] += below
            row[2] += plies
            row[3] += 1
            row[4].merge(tally)
            if row[3] == games:
                print(f"  done {gid} vs {ref} ({time.time() - started:.0f} s)", file=sys.stderr, flush=True)
    print(f"\nMaster against the references, {games} games each, budget cap {cap_ms or 'none'} ms")
    print("| game | Master (level 5) | budget used | reference | games | score | ±95% | not first | plies/game "
          "| Master ms/move | Master depth |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for gid in game_ids:
        spec = ladder(gid)[5]
        for ref in ("random", "greedy"):
            points, below, plies, n, tally = rows[(gid, ref)]
            moves = max(tally.moves, 1)
            print(
                f"| {gid} | {spec['slug']} ({spec['algorithm']}, {spec['time_budget_ms']} ms) "
                f"| {budget_ms(spec, cap_ms)} ms | {ref} | {n} | {points / n:.0%} | {interval(points / n, n):.0%} "
                f"| {below:.0f} | {plies / n:.0f} | {tally.ms / moves:.0f} | {tally.depth / moves:.1f} |"
            )
    print(f"\n# strength: {time.time() - started:.0f} s wall", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="repeatable; default: all four")
    parser.add_argument("--games", type=int, default=50, help="games per reference (default 50)")
    parser.add_argument("--budget-cap-ms", type=int, default=None, help="cap the Master's budget")
    parser.add_argument("--speed-ms", type=int, default=300, help="budget of each speed search (default 300)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel (default 1)")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-strength", action="store_true")
    args = parser.parse_args()
    game_ids = args.game or list(GAMES)
    if not args.skip_speed:
        for gid in game_ids:
            speed(gid, args.speed_ms)
    if not args.skip_strength:
        strength(game_ids, args.games, args.budget_cap_ms, args.jobs)


if __name__ == "__main__":
    main()

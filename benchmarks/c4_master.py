"""The Connect Four Master on the published solver positions: does its solver finish, does it keep the value?

For a sample of positions from ``/work/shared/data/connect4/`` (or ``tests/data/connect4/``;
each line a move string and the exact score for the side to move) the Master's own
settings (seeded profile, level 5) choose a move within ``--budget-ms``; the move keeps
the game-theoretic value when the position after it, solved exactly with no deadline,
has the same sign for the mover (a win stays a win, a draw a draw).  Prints, per set,
how often the exact solve finished (``exact`` in the stats: won, solved or drawn; forced
moves left out), how often the value was kept, and how often a drawn position was
thrown when the solve did not finish.  The published positions are easy for a solver;
``--stones N`` plays only the first N moves of each line, earlier and harder positions
(their value solved here, positions the judge cannot solve in ``JUDGE_S`` skipped);
``--draws-only`` keeps the drawn positions, where an unfinished solve can throw a draw.
``--random`` adds a set of positions from seeded random games cut at 8 to 14 plies (``--plies``),
each scored by our compiled solver without a time limit; ``--sets`` picks the sets to run.

    .venv/bin/python benchmarks/c4_master.py [--per-set 20] [--budget-ms 1000] [--stones 16] [--draws-only] [--seed 1]
    .venv/bin/python benchmarks/c4_master.py --sets random --per-set 100 --budget-ms 1000
    .venv/bin/python benchmarks/c4_master.py --proof-cost --stones 14 --draws-only --per-set 12
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import ai
from ai import endgame
from games import registry
from games.connect4.solver import Connect4Solver
from server.bots.seed import PROFILES

SETS = {
    "Test_L2_R1": "middle game (15-28 stones)",
    "Test_L3_R1": "end game (29-41 stones)",
    "random": "random games cut at 8-14 plies",
}
PLACES = [Path("/work/shared/data/connect4"), Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"]


EXACT_FROM: int | None = None  # --exact-from: the Master with another `exact_endgame`, for comparison


def master_config(budget_ms: int, seed: int) -> ai.SearchConfig:
    profile = next(p for p in PROFILES if p["game"] == "connect4" and p["level"] == 5 and not p.get("adaptive"))
    options = dict(profile["search_options"])
    if EXACT_FROM is not None:
        options["exact_endgame"] = EXACT_FROM
    return ai.SearchConfig(algorithm=profile["algorithm"], time_budget_ms=budget_ms, options=options, seed=seed)


JUDGE_S = 20.0  # the judge's time for one position's value


def random_positions(count: int, seed: int, plies: range, draws_only: bool) -> list[tuple[str, int]]:
    """Live positions of seeded random games cut at a ply of `plies`, with their value (sign) for
    the side to move, solved without a time limit."""
    game, judge, rng, out = registry.get("connect4"), Connect4Solver(), random.Random(seed), []
    while len(out) < count:
        state, moves = game.initial_state(), ""
        for _ in range(rng.choice(plies)):
            move = rng.choice(game.legal_moves(state))
            state, moves = game.apply(state, move), moves + move
            if game.is_terminal(state):
                break
        if game.is_terminal(state):
            continue
        value = sign(judge.solve_state(state, weak=True))
        if value == 0 or not draws_only:
            out.append((moves, value))
    return out


PLIES = range(8, 15)


def sample(name: str, count: int, seed: int, stones: int | None, draws_only: bool = False) -> list[tuple[str, int]]:
    if name == "random":
        return random_positions(count, seed, PLIES, draws_only)
    path = next(p / name for p in PLACES if (p / name).exists())
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    random.Random(seed).shuffle(lines)
    if stones is None:
        return [(moves, int(score)) for moves, score in lines if int(score) == 0 or not draws_only][:count]
    game = registry.get("connect4")
    out = []
    for moves, _ in lines:
        if len(out) == count:
            break
        if len(moves) < stones or game.is_terminal(game.from_moves(moves[:stones])):
            continue
        value = judged(Connect4Solver(), game.from_moves(moves[:stones]))
        if value is not None and (value == 0 or not draws_only):
            out.append((moves[:stones], value))
    return out


def judged(solver: Connect4Solver, state) -> int | None:
    """The sign of a live position's value for the side to move, or None if not found in `JUDGE_S`."""
    solver.deadline = time.monotonic() + JUDGE_S
    try:
        return solver.solve_state(state, weak=True)
    except TimeoutError:
        return None


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def run_set(
    name: str, count: int, budget_ms: int, seed: int, stones: int | None, draws_only: bool = False
) -> tuple[int, int, int, int, int, int]:
    """(positions, forced, solver finished, value kept, draws where it did not finish, those draws thrown)."""
    game = registry.get("connect4")
    judge = Connect4Solver()
    positions = sample(name, count, seed, stones, draws_only)
    forced = finished = kept = unfinished_draws = thrown = 0
    for moves, score in positions:
        state = game.from_moves(moves)
        result = ai.choose_move(game, state, master_config(budget_ms, seed))
        was_forced = bool(result.stats.get("forced"))
        forced += was_forced
        done = was_forced or result.stats.get("exact") in ("won", "solved", "drawn")
        after = game.apply(state, result.move)
        if game.is_terminal(after):
            value = game.returns(after)[game.to_move(state)]
        else:
            judge.deadline = None
            value = -judge.solve_state(after, weak=True)
        ok = sign(value) == sign(score)
        finished += done and not was_forced
        kept += ok
        if not done and score == 0:
            unfinished_draws += 1
            thrown += not ok
        if not done and not ok:
            print(f"# {moves} ({sign(score):+d}): played {result.move}, {dict(result.stats)}", flush=True)
    return len(positions), forced, finished, kept, unfinished_draws, thrown


def proof_costs(name: str, count: int, seed: int, stones: int | None, draws_only: bool) -> None:
    """Nodes, not time (the same on a busy machine): what it costs to prove a move does not lose.

    Per position, with a fresh solver each: the "not losing" probes until one move is
    proved not to lose (what the Master now does first), and the old first pass (a weak
    solve of every move, until a win).  Prints each position and the medians.
    """
    game = registry.get("connect4")
    probe_nodes, weak_nodes, seconds = [], [], 0.0
    for moves, _score in sample(name, count, seed, stones, draws_only):
        state = game.from_moves(moves)
        solver = Connect4Solver()
        started = time.perf_counter()
        endgame.not_losing_move(solver, game, state, {})
        seconds += time.perf_counter() - started
        probe_nodes.append(solver.nodes)
        solver = Connect4Solver()
        started = time.perf_counter()
        endgame.winning_move(solver, game, state, {})
        seconds += time.perf_counter() - started
        weak_nodes.append(solver.nodes)
        print(f"# {moves}: not-losing probes {probe_nodes[-1]:,} nodes; weak pass {weak_nodes[-1]:,}", flush=True)
    rate = (sum(probe_nodes) + sum(weak_nodes)) / seconds if seconds else 0.0
    print(
        f"| {name} | {len(probe_nodes)} | {statistics.median(probe_nodes):,.0f} | {max(probe_nodes):,} "
        f"| {statistics.median(weak_nodes):,.0f} | {max(weak_nodes):,} | {rate:,.0f} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-set", type=int, default=20)
    parser.add_argument("--budget-ms", type=int, default=1000)
    parser.add_argument("--stones", type=int, default=None, help="play only the first N moves of each line")
    parser.add_argument("--draws-only", action="store_true", help="only drawn positions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--proof-cost", action="store_true", help="count the nodes of each proof instead of playing")
    parser.add_argument("--sets", default="Test_L2_R1,Test_L3_R1", help=f"comma-separated, of {', '.join(SETS)}")
    parser.add_argument("--plies", default="8-14", help="the random set's plies, as FIRST-LAST")
    parser.add_argument("--exact-from", type=int, default=None, help="override the Master's exact_endgame")
    args = parser.parse_args()
    global PLIES, EXACT_FROM
    EXACT_FROM = args.exact_from
    first, last = map(int, args.plies.split("-"))
    PLIES = range(first, last + 1)
    chosen = {name: SETS[name] for name in args.sets.split(",")}
    started = time.time()
    if args.proof_cost:
        where = f"{args.stones} stones" if args.stones else "the published positions"
        print(f"Proof cost in nodes, {where}, drawn only: {args.draws_only}, seed {args.seed}")
        print("| set | positions | not losing: median | max | weak pass: median | max | nodes/s |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name in chosen:
            proof_costs(name, args.per_set, args.seed, args.stones, args.draws_only)
        print(f"# {time.time() - started:.0f} s wall")
        return
    stones = f"first {args.stones} stones of each line" if args.stones else "the published positions"
    stones += ", drawn ones only" if args.draws_only else ""
    exact_from = master_config(1, 1).options.exact_endgame
    print(f"Connect Four Master, {args.budget_ms} ms a move, {stones}, seed {args.seed}, exact_endgame {exact_from}")
    print("| set | positions | forced | solver finished | value kept | draws unfinished | of those thrown |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, words in chosen.items():
        if args.stones and name != "random":
            words = f"its lines cut to {args.stones} stones"
        row = run_set(name, args.per_set, args.budget_ms, args.seed, args.stones, args.draws_only)
        print(f"| {name}: {words} | " + " | ".join(map(str, row)) + " |", flush=True)
    print(f"# {time.time() - started:.0f} s wall")


if __name__ == "__main__":
    main()

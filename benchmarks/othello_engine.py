"""Othello's compiled midgame search (`games.othello.engine`): its speed, and the Master with it.

    python benchmarks/othello_engine.py speed --ms 1000 --positions 6
    python benchmarks/othello_engine.py match --games 40 --budget-cap-ms 500 --log results/othello_engine_match.jsonl

``speed``: the same midgame positions (random games cut at 20-36 plies, seeded), each searched
for ``--ms`` by the compiled search and by the Python search (`ai.alphabeta`, the Master's
options, the hand-written evaluation): nodes a second and the depth reached, both paired per
position.

``match``: the Master (`othello-master`) with ``engine: true`` against the Master as seeded, the
same capped budget, the same random openings (6 plies) with colours swapped; the score with a
95 % interval.  Games go to the ``--log`` as they finish and a rerun continues from it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import botplay  # noqa: E402

import ai  # noqa: E402
from ai.budget import Deadline  # noqa: E402
from games.othello import OTHELLO, OthelloState  # noqa: E402
from games.othello.engine import ENGINE  # noqa: E402


def positions(count: int, seed: int) -> list[OthelloState]:
    """Live positions of random games, cut at 20-36 plies, with two moves or more."""
    rng = random.Random(seed)
    out: list[OthelloState] = []
    while len(out) < count:
        state = OTHELLO.initial_state()
        cut = rng.randrange(20, 37)
        while not OTHELLO.is_terminal(state) and state.ply < cut:
            state = OTHELLO.apply(state, rng.choice(OTHELLO.legal_moves(state)))
        if not OTHELLO.is_terminal(state) and len(OTHELLO.legal_moves(state)) > 1:
            out.append(state)
    return out


def speed(args: argparse.Namespace) -> None:
    master = botplay.ladder("othello")[5]
    options = {k: v for k, v in (master.get("search_options") or {}).items() if k != "exact_endgame"}
    rows = []
    for state in positions(args.positions, args.seed):
        row = {}
        for name, engine in (("compiled", True), ("python", False)):
            config = ai.SearchConfig(algorithm="alphabeta", options={**options, "engine": engine})
            started = time.perf_counter()
            result = ai.choose_move(OTHELLO, state, config, deadline=Deadline(time.monotonic() + args.ms / 1000))
            seconds = time.perf_counter() - started
            row[name] = (result.nodes / seconds, result.depth, result.stats.get("kernel", "python"))
        rows.append(row)
        print(f"ply {state.ply}: compiled {row['compiled'][0]:,.0f} nodes/s depth {row['compiled'][1]} "
              f"({row['compiled'][2]}); python {row['python'][0]:,.0f} nodes/s depth {row['python'][1]}",
              flush=True)  # fmt: skip
    ratio = statistics.median(r["compiled"][0] / r["python"][0] for r in rows)
    print(f"median: compiled {statistics.median(r['compiled'][0] for r in rows):,.0f} nodes/s, depths "
          f"{min(r['compiled'][1] for r in rows)}-{max(r['compiled'][1] for r in rows)}; python "
          f"{statistics.median(r['python'][0] for r in rows):,.0f} nodes/s, depths "
          f"{min(r['python'][1] for r in rows)}-{max(r['python'][1] for r in rows)}; ratio {ratio:,.0f}x")  # fmt: skip


def match(args: argparse.Namespace) -> None:
    assert ENGINE is not None, "the compiled search is not built"
    seeded = dict(botplay.ladder("othello")[5])
    options = dict(seeded.get("search_options") or {})
    if options.get("engine"):
        seeded = {**seeded, "search_options": {k: v for k, v in options.items() if k != "engine"}}
    new = {**seeded, "search_options": {**(seeded.get("search_options") or {}), "engine": True}}
    budget = botplay.budget_ms(seeded, args.budget_cap_ms)
    print(f"# the Master with the engine ({new['search_options']}) against it without, {budget} ms a move, "
          f"{args.games} games, seed {args.seed}", flush=True)  # fmt: skip
    botplay.paired_match(OTHELLO, (new, seeded), args.games, args.seed, args.budget_cap_ms, args.log, "with the engine")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--ms", type=int, default=1000)
    s.add_argument("--positions", type=int, default=6)
    s.add_argument("--seed", type=int, default=3)
    m = sub.add_parser("match")
    m.add_argument("--games", type=int, default=40)
    m.add_argument("--budget-cap-ms", type=int, default=500)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--log", default="", help="a JSON-lines log of finished games; a rerun continues from it")
    args = parser.parse_args()
    speed(args) if args.command == "speed" else match(args)


if __name__ == "__main__":
    main()

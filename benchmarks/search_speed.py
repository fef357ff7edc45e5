"""Search speed of this tree beside a reference checkout, in the same run: ``search_speed.py REFERENCE [rounds]``.

Each case is a search to a fixed depth (or a fixed number of MCTS iterations) with a
budget too long to matter, so both trees visit the same nodes (checked).  The two
trees run alternately, one process per tree and round, so that both see the same load;
each case's figure is the least CPU time over the rounds (``time.process_time``: what the
search itself cost; the least is the run other processes disturbed least, through caches
and shared cores, which on a busy machine moves single runs by 10-20 %).  Prints nodes,
each tree's nodes per CPU second and the ratio ours / reference (above 1: faster).

    .venv/bin/python benchmarks/search_speed.py /path/to/reference/checkout 5
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

LONG_BUDGET_MS = 600_000

# (label, game, moves played first, config)
CASES: list[tuple[str, str, list[str], dict[str, Any]]] = [
    ("alpha-beta, Connect Four kernel, d9", "connect4", list("4453"), {"max_depth": 9}),
    ("alpha-beta, Connect Four generic, d6", "connect4", list("4453"), {"max_depth": 6, "options": {"fast": False}}),
    ("alpha-beta, Othello, d9", "othello", [], {"max_depth": 9}),
    ("alpha-beta weakened, Othello, d7", "othello", [], {"max_depth": 7, "slip_rate": 0.3}),
    ("expectimax, backgammon, d2", "backgammon", ["open 3-1"], {"algorithm": "expectimax", "max_depth": 2}),
    (
        "expectimax uniform, Chinese checkers (2), d3",
        "chinese-checkers-2",
        [],
        {"algorithm": "expectimax", "max_depth": 3, "opponent_model": "uniform"},
    ),
    ("max^n, Chinese checkers, d3", "chinese-checkers", [], {"algorithm": "maxn", "max_depth": 3}),
    (
        "max^n paranoid, Chinese checkers, d5",
        "chinese-checkers",
        [],
        {"algorithm": "maxn", "max_depth": 5, "options": {"paranoid": True}},
    ),
    ("MCTS, Connect Four, 3000 it", "connect4", [], {"algorithm": "mcts", "max_iterations": 3000}),
    ("MCTS, Othello, 600 it", "othello", [], {"algorithm": "mcts", "max_iterations": 600}),
]


def measure() -> None:
    """In the tree under test: one search per case, as JSON lines (nodes, CPU and wall seconds)."""
    import ai
    from ai import mcts
    from games import registry

    for label, game_id, moves, fields in CASES:
        game = registry.get(game_id)
        state = game.initial_state()
        for move in moves:
            state = game.apply(state, move)
        mcts.forget_trees()
        config = ai.SearchConfig(**{"time_budget_ms": LONG_BUDGET_MS, "seed": 1, **fields})
        cpu, wall = time.process_time(), time.perf_counter()
        result = ai.choose_move(game, state, config, deadline=None)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(json.dumps({"case": label, "nodes": result.nodes, "move": result.move, "cpu": cpu, "wall": wall}))


def run(tree: Path) -> list[dict[str, Any]]:
    # The same string hashes in both trees: the transposition table indexes slots by hash.
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [str(tree / ".venv/bin/python"), __file__, "--measure"], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"{tree}: {done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def main() -> None:
    if "--measure" in sys.argv:
        measure()
        return
    reference = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    ours_tree = Path(__file__).resolve().parent.parent
    runs: dict[str, list[list[dict[str, Any]]]] = {"ours": [], "reference": []}
    for i in range(rounds):
        order = [("ours", ours_tree), ("reference", reference)]
        for name, tree in order if i % 2 == 0 else order[::-1]:
            runs[name].append(run(tree))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; least CPU time of {rounds} rounds")
    print(f"{'case':46} {'nodes':>9} {'ref nodes/s':>12} {'ours nodes/s':>12} {'ratio':>6}")
    ratios = []
    for i, (label, *_) in enumerate(CASES):
        ours = [r[i] for r in runs["ours"]]
        theirs = [r[i] for r in runs["reference"]]
        if {(r["nodes"], r["move"]) for r in ours + theirs} != {(ours[0]["nodes"], ours[0]["move"])}:
            sys.exit(f"{label}: the trees searched differently: {ours[0]} / {theirs[0]}")
        nodes = ours[0]["nodes"]
        ours_cpu = min(r["cpu"] for r in ours)
        ref_cpu = min(r["cpu"] for r in theirs)
        ratios.append(ref_cpu / ours_cpu)
        print(f"{label:46} {nodes:>9} {nodes / ref_cpu:>12,.0f} {nodes / ours_cpu:>12,.0f} {ref_cpu / ours_cpu:>6.3f}")
    print(f"geometric mean of the ratios: {statistics.geometric_mean(ratios):.3f}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")


if __name__ == "__main__":
    main()

"""ai.solve on the published Connect Four solver test sets: exactness, time and nodes per position.

The C++ reference solver (Pons) figures are printed beside ours; the sets are in
``../shared/data/connect4/`` (beside the repository).

    .venv/bin/python benchmarks/solver.py [positions_per_set]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ai.solve import _CONNECT4 as SOLVER
from games import registry

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
# Mean time and nodes per position of the reference C++ solver (issue 3; Pons' tables).
REFERENCE = {"Test_L3_R1": (6.19e-6, 50), "Test_L2_R1": (61e-6, 449)}


def main(limit: int | None) -> None:
    game = registry.get("connect4")
    print(
        f"{'set':12} {'positions':>9} {'exact':>6} {'mean time':>11} {'nodes/pos':>9} | "
        f"{'C++ time':>9} {'C++ nodes':>9} | {'time ratio':>10}"
    )
    for name, (ref_time, ref_nodes) in REFERENCE.items():
        lines = [ln.split() for ln in (DATA / name).read_text().splitlines() if ln.strip()][:limit]
        exact = nodes = 0
        elapsed = 0.0
        for moves, score in lines:
            state = game.from_moves(moves)
            SOLVER.reset()
            started = time.perf_counter()
            value = SOLVER.solve_state(state)
            elapsed += time.perf_counter() - started
            nodes += SOLVER.nodes
            exact += value == int(score)
        n = len(lines)
        mean = elapsed / n
        print(
            f"{name:12} {n:9d} {exact:6d} {mean * 1e3:9.3f}ms {nodes / n:9.0f} | "
            f"{ref_time * 1e6:7.1f}us {ref_nodes:9d} | {mean / ref_time:9.0f}x"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None)

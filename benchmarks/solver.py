"""ai.solve on the published Connect Four solver test sets: exactness, time and nodes per position.

The sets are in ``tests/data/connect4/`` (a copy of the shared reference data).  The reference is
Pascal Pons' C++ solver (github.com/PascalPons/connect4, the version without an opening
book).  Given its binary with ``--reference``, it solves the same positions in the same
run, and the time ratio is taken against that; without it, against the published
figures (61 µs and 449 nodes per position on Test_L2_R1, measured idle).
Both sides are timed per position without the table reset, as Pons' ``main.cpp`` does:
wall time, and CPU time of the solving thread where the reference prints it too (a
fifth column, nanoseconds: ``clock_gettime(CLOCK_THREAD_CPUTIME_ID)`` around
``solver.solve``, a two-line change to its ``main.cpp``).  On a loaded machine the
CPU-time ratio is the steadier one.

    .venv/bin/python benchmarks/solver.py [positions_per_set] [--reference path/to/c4solver] [--python] [--stones N]

``--python`` times the Python search (the reference the tests hold the compiled one to)
instead of the compiled one.  ``--stones N`` cuts every line to its first N moves: earlier,
harder positions, whose exact score is then the reference's (the ``exact`` column counts
agreement with it; without ``--reference``, with our Python solver's, which is slow).

Building the reference (not part of this repository; AGPL):
``git clone https://github.com/PascalPons/connect4 && cd connect4 && make``
(or ``g++ -std=c++11 -O3 -DNDEBUG -o c4solver main.cpp Solver.cpp``).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from games import registry
from games.connect4.solver import Connect4Solver

SOLVER = Connect4Solver()  # what ai.solve uses for Connect Four (`Game.new_solver`): compiled where built
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"
# Mean time and nodes per position of the reference C++ solver (Pons' tables).
PUBLISHED = {"Test_L3_R1": (6.19e-6, 50), "Test_L2_R1": (61e-6, 449)}


def reference_run(binary: str, lines: list[list[str]]) -> tuple[float, float | None, float, int]:
    """(mean wall seconds, mean CPU seconds or None, mean nodes, exact count) of the C++ solver."""
    out = subprocess.run(
        [binary], input="\n".join(moves for moves, _ in lines) + "\n", capture_output=True, text=True, check=True
    ).stdout.split("\n")
    rows = [row.split() for row in out if row.strip()]
    exact = sum(int(row[1]) == int(score) for row, (_, score) in zip(rows, lines, strict=True))
    n = len(rows)
    cpu = sum(int(r[4]) for r in rows) / n / 1e9 if all(len(r) > 4 for r in rows) else None
    return sum(int(r[3]) for r in rows) / n / 1e6, cpu, sum(int(r[2]) for r in rows) / n, exact


def cut(lines: list[list[str]], stones: int, reference: str | None) -> list[list[str]]:
    """The lines' first `stones` moves (live positions, once each), scored by the reference
    when given, else by our Python solver."""
    game, seen = registry.get("connect4"), set()
    for moves, _ in lines:
        moves = moves[:stones]
        if len(moves) == stones and not game.is_terminal(game.from_moves(moves)):
            seen.add(moves)
    positions = sorted(seen)
    if reference:
        out = subprocess.run([reference], input="\n".join(positions) + "\n", capture_output=True, text=True).stdout
        return [[moves, row.split()[1]] for moves, row in zip(positions, out.splitlines(), strict=True)]
    judge = Connect4Solver(compiled=False)
    return [[moves, str(judge.solve_state(game.from_moves(moves)))] for moves in positions]


def main(limit: int | None, reference: str | None, stones: int | None) -> None:
    game = registry.get("connect4")
    print(
        f"{'set':12} {'positions':>9} {'exact':>6} {'mean time':>11} {'cpu':>9} {'nodes/pos':>9} | "
        f"{'C++ time':>9} {'C++ cpu':>9} {'C++ nodes':>9} {'C++ exact':>9} | {'time ratio':>10} {'cpu ratio':>9}"
    )
    for name, (ref_time, ref_nodes) in PUBLISHED.items():
        lines = [ln.split() for ln in (DATA / name).read_text().splitlines() if ln.strip()][:limit]
        if stones:
            if name != "Test_L2_R1":
                continue
            name, lines = f"L2 cut {stones}", cut(lines, stones, reference)
        exact = nodes = 0
        elapsed = cpu = 0.0
        for moves, score in lines:
            state = game.from_moves(moves)
            SOLVER.reset()
            started, started_cpu = time.perf_counter(), time.thread_time()
            value = SOLVER.solve_state(state)
            elapsed += time.perf_counter() - started
            cpu += time.thread_time() - started_cpu
            nodes += SOLVER.nodes
            exact += value == int(score)
        n = len(lines)
        ref_exact, ref_cpu = "published", None
        if reference:
            ref_time, ref_cpu, ref_nodes, ref_ok = reference_run(reference, lines)
            ref_exact = str(ref_ok)
        mean, mean_cpu = elapsed / n, cpu / n
        ref_cpu_text = f"{ref_cpu * 1e6:7.1f}us" if ref_cpu else f"{'-':>9}"
        cpu_ratio = f"{mean_cpu / ref_cpu:8.1f}x" if ref_cpu else f"{'-':>9}"
        print(
            f"{name:12} {n:9d} {exact:6d} {mean * 1e3:9.3f}ms {mean_cpu * 1e3:7.3f}ms {nodes / n:9.1f} | "
            f"{ref_time * 1e6:7.1f}us {ref_cpu_text} {ref_nodes:9.1f} {ref_exact:>9} | "
            f"{mean / ref_time:9.1f}x {cpu_ratio}"
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    binary, cut_at = None, None
    if "--python" in args:
        args.remove("--python")
        SOLVER = Connect4Solver(compiled=False)
    if "--stones" in args:
        i = args.index("--stones")
        cut_at = int(args[i + 1])
        del args[i : i + 2]
    if "--reference" in args:
        i = args.index("--reference")
        binary = args[i + 1]
        del args[i : i + 2]
    main(int(args[0]) if args else None, binary, cut_at)

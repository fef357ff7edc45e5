"""What a Connect Four opening book costs: positions, nodes and CPU time a weak solve at each ply.

For each ply given, the positions the book would hold there (`games.connect4.book.positions`:
live, the side to move cannot win at once, one per mirror pair) are counted, and a seeded
random sample of them is solved weakly (win / draw / loss) by the compiled solver without a
book, one table for the sample as a build would keep it.  Printed per ply: the count, the
sample's nodes and CPU seconds a position (median, 90th percentile, max), and the CPU time
the whole ply would take to build at the sample's mean.  The same figures say how long the
solver takes from the book's edge: a book at ply D leaves positions with more than D stones
to the solver, the first of them as hard as these.

    .venv/bin/python benchmarks/c4_book.py --plies 8,10,12 --sample 40 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.connect4 import _solver
from games.connect4.book import positions


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def random_live(ply: int, count: int, rng: random.Random) -> list[tuple[str, int, int]]:
    """A sample of `positions(ply)` without listing them all (past ply 8 they are millions):
    random games, kept where the walk would keep them."""
    from games.connect4 import CONNECT4
    from games.connect4.bitboard import BOARD_MASK, BOTTOM, winning_cells

    out = []
    while len(out) < count:
        state, moves = CONNECT4.initial_state(), ""
        while state.moves < ply and not CONNECT4.is_terminal(state):
            move = rng.choice(CONNECT4.legal_moves(state))
            state, moves = CONNECT4.play(state, move), moves + move
        possible = (state.mask + BOTTOM) & BOARD_MASK
        live = state.moves == ply and not CONNECT4.is_terminal(state)
        if live and not winning_cells(state.current, state.mask) & possible:
            out.append((moves, state.current, state.mask))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", default="8,10,12")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| ply | positions | sample | nodes: median / p90 / max | CPU s: median / p90 / max | build, CPU hours |")
    print("| --- | --- | --- | --- | --- | --- |")
    for ply in map(int, args.plies.split(",")):
        rng = random.Random(args.seed)
        if ply <= 8:
            every = list(positions(ply))
            count, sample = f"{len(every):,}", rng.sample(every, min(args.sample, len(every)))
        else:
            count, sample = "millions", random_live(ply, args.sample, rng)
        kernel = _solver.Kernel()
        nodes, seconds = [], []
        for _moves, current, mask in sample:
            kernel.nodes = 0
            started = time.process_time()
            kernel.solve(current, mask, ply, -1, 1)
            seconds.append(time.process_time() - started)
            nodes.append(kernel.nodes)
        build = f"{statistics.mean(seconds) * int(count.replace(',', '')) / 3600:.1f}" if count != "millions" else "-"
        print(
            f"| {ply} | {count} | {len(sample)} | {statistics.median(nodes):,.0f} / {quantile(nodes, 0.9):,.0f} / "
            f"{max(nodes):,} | {statistics.median(seconds):.3f} / {quantile(seconds, 0.9):.3f} / {max(seconds):.3f} "
            f"| {build} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

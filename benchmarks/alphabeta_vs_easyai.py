"""Alpha-beta nodes per second and time to depth on Connect Four, beside easyAI's Negamax.

Needs easyAI (benchmark only, not a project dependency): ``pip install easyAI==2.0.12``.
Both search the same positions to the same depth without iterative deepening;
a node is one position made (easyAI: one `make_move`; ours: one node entered).
Ours runs through `ai.choose_move`, which takes the Connect Four bitboard kernel
(`games.connect4.kernel`, driven by `ai.kernel_search`); the generic searcher over the
Game API (``options["fast"]`` false, same nodes and values) is timed beside it.  Our searches take milliseconds, so
each is repeated and the median time is used; easyAI's take seconds and run once.

    .venv/bin/python benchmarks/alphabeta_vs_easyai.py [depth] [repeats]
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from easyAI import AI_Player, Negamax
from easyAI.games.ConnectFour import ConnectFour

import ai
from games import registry

POSITIONS = ["", "4453", "44433352", "5554224333"]
CONNECT4 = registry.get("connect4")


class CountingConnectFour(ConnectFour):
    made = 0

    def make_move(self, column):
        CountingConnectFour.made += 1
        super().make_move(column)


def easyai_position(moves: str) -> CountingConnectFour:
    game = CountingConnectFour([AI_Player(Negamax(1)), AI_Player(Negamax(1))], np.zeros((6, 7), dtype=int))
    for ch in moves:
        game.play_move(int(ch) - 1)
    return game


def timed_search(state, depth: int, fast: bool, repeats: int) -> tuple[int, float]:
    """(nodes, median seconds) of a fixed-depth search through `ai.choose_move`."""
    config = ai.SearchConfig(time_budget_ms=600_000, max_depth=depth, options={"iterative": False, "fast": fast})
    times, nodes = [], 0
    for _ in range(repeats):
        started = time.perf_counter()
        nodes = ai.choose_move(CONNECT4, state, config).nodes
        times.append(time.perf_counter() - started)
    return nodes, statistics.median(times)


def main(depth: int, repeats: int) -> None:
    print(f"Connect Four, fixed depth {depth}, no iterative deepening; ours: median of {repeats} runs")
    print(
        f"{'position':12} {'easyAI nodes':>12} {'easyAI s':>9} {'easyAI nps':>10} | "
        f"{'ours nodes':>10} {'ours s':>8} {'ours nps':>9} {'generic nps':>11} | {'nps ratio':>9} {'time ratio':>10}"
    )
    totals = [0, 0.0, 0, 0.0, 0.0]
    ai.choose_move(CONNECT4, CONNECT4.initial_state(), ai.SearchConfig(max_depth=3))  # warm up
    for moves in POSITIONS:
        game = easyai_position(moves)
        CountingConnectFour.made = 0
        started = time.perf_counter()
        Negamax(depth)(game)
        e_time = time.perf_counter() - started
        e_nodes = CountingConnectFour.made
        state = CONNECT4.from_moves(moves)
        o_nodes, o_time = timed_search(state, depth, True, repeats)
        g_nodes, g_time = timed_search(state, depth, False, max(1, repeats // 5))
        assert g_nodes == o_nodes  # the kernel searches the same tree
        print(
            f"{moves or '(empty)':12} {e_nodes:12d} {e_time:9.3f} {e_nodes / e_time:10.0f} | "
            f"{o_nodes:10d} {o_time:8.4f} {o_nodes / o_time:9.0f} {g_nodes / g_time:11.0f} | "
            f"{(o_nodes / o_time) / (e_nodes / e_time):9.1f} {e_time / o_time:10.1f}"
        )
        totals[0] += e_nodes
        totals[1] += e_time
        totals[2] += o_nodes
        totals[3] += o_time
        totals[4] += g_time
    e_nps, o_nps, g_nps = totals[0] / totals[1], totals[2] / totals[3], totals[2] / totals[4]
    print(
        f"{'all':12} {totals[0]:12d} {totals[1]:9.3f} {e_nps:10.0f} | {totals[2]:10d} {totals[3]:8.4f} "
        f"{o_nps:9.0f} {g_nps:11.0f} | {o_nps / e_nps:9.1f} {totals[1] / totals[3]:10.1f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5, int(sys.argv[2]) if len(sys.argv) > 2 else 20)

"""Alpha-beta nodes per second and time to depth on Connect Four, beside easyAI's Negamax.

Needs easyAI (benchmark only, not a project dependency): ``pip install easyAI==2.0.12``.
Both search the same positions to the same depth without iterative deepening;
a node is one position made (easyAI: one `make_move`; ours: one node entered).

    .venv/bin/python benchmarks/alphabeta_vs_easyai.py [depth]
"""

from __future__ import annotations

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


def main(depth: int) -> None:
    print(f"Connect Four, fixed depth {depth}, no iterative deepening")
    print(
        f"{'position':12} {'easyAI nodes':>12} {'easyAI s':>9} {'easyAI nps':>10} | "
        f"{'ours nodes':>10} {'ours s':>8} {'ours nps':>9} | {'nps ratio':>9} {'time ratio':>10}"
    )
    totals = [0, 0.0, 0, 0.0]
    ai.choose_move(CONNECT4, CONNECT4.initial_state(), ai.SearchConfig(max_depth=3))  # warm up
    for moves in POSITIONS:
        game = easyai_position(moves)
        CountingConnectFour.made = 0
        started = time.perf_counter()
        Negamax(depth)(game)
        e_time = time.perf_counter() - started
        e_nodes = CountingConnectFour.made
        state = CONNECT4.from_moves(moves)
        config = ai.SearchConfig(time_budget_ms=600_000, max_depth=depth, options={"iterative": False})
        started = time.perf_counter()
        result = ai.choose_move(CONNECT4, state, config)
        o_time = time.perf_counter() - started
        print(
            f"{moves or '(empty)':12} {e_nodes:12d} {e_time:9.3f} {e_nodes / e_time:10.0f} | "
            f"{result.nodes:10d} {o_time:8.3f} {result.nodes / o_time:9.0f} | "
            f"{(result.nodes / o_time) / (e_nodes / e_time):9.1f} {e_time / o_time:10.1f}"
        )
        totals[0] += e_nodes
        totals[1] += e_time
        totals[2] += result.nodes
        totals[3] += o_time
    e_nps, o_nps = totals[0] / totals[1], totals[2] / totals[3]
    print(
        f"{'all':12} {totals[0]:12d} {totals[1]:9.3f} {e_nps:10.0f} | {totals[2]:10d} {totals[3]:8.3f} "
        f"{o_nps:9.0f} | {o_nps / e_nps:9.1f} {totals[1] / totals[3]:10.1f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)

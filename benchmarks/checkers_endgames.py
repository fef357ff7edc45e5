"""Checkers: the Master against exact play in small endgames (`games.checkers.endgame`'s solver).

Random positions of a few pieces (`random_endgame`, seeded) that the solver proves won or drawn
for the side to move; the Master plays that side with its own settings at the given budget, the
solver the other (the longest defence, or a drawing move).  Prints each game and how many proven
results the Master kept: wins converted within the 40-move rule, draws held; and the share of its
moves that kept the proven value.

    nice .venv/bin/python benchmarks/checkers_endgames.py [--positions N] [--pieces 3] [--budget-ms MS]
        [--kings-only] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ai  # noqa: E402
from games.checkers import CHECKERS, CheckersState  # noqa: E402
from games.checkers.endgame import DRAW, LOSS, WIN, EndgameSolver, random_endgame  # noqa: E402

TRIVIAL_WIN = 5  # quiet plies: wins this short are in any search's sight; not counted


def master_config(budget_ms: int, seed: int) -> ai.SearchConfig:
    top = max(CHECKERS.spec.ladder, key=lambda s: s.level)
    return ai.SearchConfig(algorithm=top.algorithm, time_budget_ms=budget_ms or top.time_budget_ms, seed=seed,
                           **top.settings)  # fmt: skip


def play(solver: EndgameSolver, start: CheckersState, budget_ms: int) -> tuple[int, int, int]:
    """(result for the Master's side, its moves that kept the proven value, its moves)."""
    master, state = start.to_move, start
    kept = moves = 0
    while not CHECKERS.is_terminal(state):
        if state.to_move == master:
            move = ai.choose_move(CHECKERS, state, master_config(budget_ms, state.ply)).move
            kept += -solver.verdict(CHECKERS.apply(state, move)).value == solver.verdict(state).value
            moves += 1
        else:
            move = solver.best_move(state)
        state = CHECKERS.play(state, move)
    winner = CHECKERS.outcome(state).winner
    return (DRAW if winner is None else WIN if winner == master else LOSS), kept, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--pieces", type=int, default=3)
    parser.add_argument("--budget-ms", type=int, default=0, help="the Master's budget a move (default: its own)")
    parser.add_argument("--kings-only", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    solver, rng = EndgameSolver(), random.Random(args.seed)
    started = time.perf_counter()
    tally = {WIN: [0, 0], DRAW: [0, 0]}  # proven value: [kept, games]
    kept_moves = all_moves = 0
    while sum(games for _, games in tally.values()) < args.positions:
        start = random_endgame(rng, args.pieces, 1.0 if args.kings_only else 0.5)
        verdict = solver.verdict(start)
        if verdict.value == LOSS or (verdict.value == WIN and (verdict.quiet_plies or 0) < TRIVIAL_WIN):
            continue
        result, kept, moves = play(solver, start, args.budget_ms)
        tally[verdict.value][0] += result == verdict.value
        tally[verdict.value][1] += 1
        kept_moves, all_moves = kept_moves + kept, all_moves + moves
        print(f"  {CHECKERS.position_notation(start)}: proven {verdict.value} ({verdict.quiet_plies} quiet plies), "
              f"played {result}; {kept} of {moves} moves kept the value", flush=True)  # fmt: skip
    (won, wins), (held, draws) = tally[WIN], tally[DRAW]
    print(f"Master ({args.budget_ms or 'its own'} ms a move), {args.pieces} pieces, seed {args.seed}: "
          f"wins converted {won} of {wins}, draws held {held} of {draws}; "
          f"{kept_moves} of {all_moves} moves kept the value; {time.perf_counter() - started:.0f} s")  # fmt: skip


if __name__ == "__main__":
    main()

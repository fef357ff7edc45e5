"""The Othello endgame solver: how many empties it solves within the Master's time, and what it is worth.

    python benchmarks/othello_endgame.py speed --positions 12 --empties 12,14,16,18,20
    python benchmarks/othello_endgame.py match --games 40 --budget-cap-ms 500

``speed``: positions from games of the level-3 bot against itself (6 random opening plies,
seeded), cut at each number of empties; for each, the CPU time of an exact score, of a weak
solve (win, draw or loss) and of the Master's whole exact decision (`ai.endgame.exact_move`:
a move that does not lose, then one that wins, else every move scored), and the share of
decisions done within the Master's solver share of its budget (0.6 of 2 s).  The compiled
search against the Python one on the same positions at 10 empties, as a ratio.

``match``: the Master with its exact endgame against the same Master without it, both with
the same capped budget, from the same random openings with colours swapped; the score with
a 95 % interval.
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

from ai import endgame  # noqa: E402
from ai.budget import Deadline  # noqa: E402
from games.othello import OTHELLO, OthelloState  # noqa: E402
from games.othello.endgame import OthelloSolver  # noqa: E402


def empties(state: OthelloState) -> int:
    return 64 - (state.black | state.white).bit_count()


def positions(count: int, cut: int, seed: int) -> list[OthelloState]:
    """Positions of level-3 games against itself (6 random opening plies) at `cut` empties."""
    onyx = botplay.ProfileBot(botplay.ladder("othello")[3], cap_ms=100)
    found: list[OthelloState] = []
    rng = random.Random(seed)
    while len(found) < count:
        state = OTHELLO.initial_state()
        while not OTHELLO.is_terminal(state) and empties(state) > cut:
            moves = OTHELLO.legal_moves(state)
            move = rng.choice(moves) if state.ply < 6 else onyx.move(OTHELLO, state, rng.randrange(2**31), "x")
            state = OTHELLO.apply(state, move)
        if not OTHELLO.is_terminal(state) and empties(state) == cut:
            found.append(state)
    return found


def cpu(call) -> float:
    started = time.process_time()
    call()
    return time.process_time() - started


def speed(args: argparse.Namespace) -> None:
    share_s = 2.0 * endgame.SOLVER_SHARE
    print(f"CPU seconds a position, median / p90 / max; decisions within {share_s:.1f} s (the Master's share)")
    print("| empties | exact score | weak solve | the Master's decision | within its share | nodes/s (exact) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for cut in args.empties:
        exact, weak, decision, rates = [], [], [], []
        for state in positions(args.positions, cut, args.seed):
            solver = OthelloSolver()
            exact.append(cpu(lambda s=state, v=solver: v.solve_state(s)))
            rates.append(solver.nodes / max(exact[-1], 1e-6))
            solver = OthelloSolver()
            weak.append(cpu(lambda s=state, v=solver: v.solve_state(s, weak=True)))
            # The decision as the Master makes it, with a fresh process's tables (ai.endgame keeps one solver).
            endgame._SOLVERS.pop(OTHELLO.id, None)
            decision.append(cpu(lambda s=state: endgame.exact_move(OTHELLO, s, Deadline.after_ms(600_000), from_ply=0)))
        within = sum(t <= share_s for t in decision)
        print(
            f"| {cut} | {spread(exact)} | {spread(weak)} | {spread(decision)} | {within} of {len(decision)} "
            f"| {statistics.median(rates) / 1e6:.1f} M |"
        )
    states = positions(args.positions, 10, args.seed + 1)
    compiled = sum(cpu(lambda s=s: OthelloSolver().solve_state(s)) for s in states)
    python = sum(cpu(lambda s=s: OthelloSolver(compiled=False).solve_state(s)) for s in states)
    ratio = python / compiled
    print(f"10 empties, {len(states)} positions: Python {python:.2f} s, compiled {compiled:.3f} s: {ratio:.0f}x")


def spread(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, round(0.9 * (len(values) - 1)))]
    return f"{statistics.median(values):.3f} / {p90:.3f} / {values[-1]:.3f}"


def match(args: argparse.Namespace) -> None:
    master = dict(botplay.ladder("othello")[5])
    without = {
        **master,
        "search_options": {k: v for k, v in (master.get("search_options") or {}).items() if k != "exact_endgame"},
    }
    assert (master.get("search_options") or {}).get("exact_endgame"), "the Master has no exact endgame"
    score = 0.0
    for played, game in enumerate(range(args.games), start=1):
        bots = [botplay.ProfileBot(spec, cap_ms=args.budget_cap_ms) for spec in (master, without)]
        seat = game % 2  # the solver's seat
        seated = bots if seat == 0 else bots[::-1]
        opening = args.seed + game // 2  # each opening twice, colours swapped
        returns, _ = botplay.play(OTHELLO, seated, seed=args.seed + game, opening_plies=6, opening_seed=opening)
        score += (returns[seat] + 1) / 2
        share = score / played
        margin = botplay.interval(share, played)
        print(f"game {played}: {returns[seat]:+.0f}; with the endgame {share:.1%} +- {margin:.1%}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--positions", type=int, default=12)
    s.add_argument("--empties", type=lambda t: [int(x) for x in t.split(",")], default=[12, 14, 16, 18, 20])
    s.add_argument("--seed", type=int, default=1)
    m = sub.add_parser("match")
    m.add_argument("--games", type=int, default=40)
    m.add_argument("--budget-cap-ms", type=int, default=500)
    m.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    speed(args) if args.command == "speed" else match(args)


if __name__ == "__main__":
    main()

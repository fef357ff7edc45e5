"""Chess search, each refinement measured: nodes and time to depth, and Bratko-Kopec solved.

    .venv/bin/python benchmarks/chess_search.py [--depth 4] [--bk-ms 1000,5000] [--skip-features] [--skip-bk]
                                                [--check-evasions] [--engine]

Part 1, time to depth: every configuration searches the same middle-game positions to
``--depth`` plies (a budget too long to matter), one after the other in this process, so
the ratios are taken under the same load.  "plain" is the generic alpha-beta with its
table, killers, history and PVS but no quiescence; every other row adds to "quiescence"
(captures and promotions past the horizon, MVV-LVA first) one refinement, and "all" has
them all, as the Master plays.  Printed: nodes, CPU seconds (``time.process_time``),
nodes per CPU second, and the CPU time relative to "plain" and to "quiescence".

Part 2, Bratko-Kopec: the 24 positions of ``tests/data/chess/bratko-kopec.epd``, the
Master's search settings at each ``--bk-ms`` budget per position; a position counts as
solved when the move played is one of the EPD's ``bm`` moves.  "quiescence" (no other
refinement) runs at the first budget for comparison.

``--where-time-goes`` (alone): the Master's settings to ``--depth`` on the middle games under
cProfile, each function's own time (``tottime``) summed by where its code lives: python-chess,
the game's evaluation, the rest of the chess package (the Game API over python-chess), the
search (``ai/``), and everything else; so a faster engine starts where the time is.

``--engine`` (alone): the Master's Python search (the settings of "all") and the compiled
engine (`games.chess.engine`, what the Master runs where it is built) on the middle games,
one position after the other in alternating order: nodes, CPU seconds and nodes per CPU
second to ``--depth``, then each at ``--engine-ms`` a position; and Bratko-Kopec solved by
the engine at the first ``--bk-ms`` budget.  The two count nodes alike (one a position
entered, quiescence included); their trees differ (the engine prunes more).

``--check-evasions`` (alone): the Master's settings with quiescence as it is (a side in
check searches every evasion, never stands pat) and as it was (standing pat in check,
then the evasions, delta-pruned), in the same process: nodes and CPU to ``--depth`` on
the middle games, and Bratko-Kopec solved at the first ``--bk-ms`` budget.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess

import ai
from ai.alphabeta import AlphaBeta
from games import registry

ROOT = Path(__file__).resolve().parent.parent
BRATKO_KOPEC = ROOT / "tests" / "data" / "chess" / "bratko-kopec.epd"
LONG_BUDGET_MS = 600_000

# Quiet middle games from master play (after the openings named), white and black to move.
MIDDLE_GAMES = [
    ("Queen's Gambit Declined", "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8"),
    ("Italian Game", "r1bq1rk1/bpp2ppp/p1np1n2/4p3/2B1P3/2PP1N2/PP1N1PPP/R1BQR1K1 w - - 0 9"),
    ("Sicilian Najdorf", "rn1qkb1r/1p2pppp/p2p1n2/8/3NP1b1/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 7"),
    ("King's Indian", "r1bq1rk1/ppp1npbp/3p1np1/3Pp3/2P1P3/2N2N2/PP2BPPP/R1BQ1RK1 b - - 0 9"),
]

ALL = {
    "check_extension": True,
    "null_move": True,
    "lmr": True,
    "delta_pruning": True,
    "see_pruning": True,
    "tactical_first": True,
}
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("plain", {"quiescence": False}),
    ("quiescence", {}),
    ("+ delta pruning", {"delta_pruning": True}),
    ("+ SEE pruning", {"see_pruning": True}),
    ("+ tactical first", {"tactical_first": True}),
    ("+ check extension", {"check_extension": True}),
    ("+ null move", {"null_move": True}),
    ("+ late-move reductions", {"lmr": True}),
    ("all", ALL),
]


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min)"


def time_to_depth(depth: int) -> None:
    game = registry.get("chess")
    states = [game.from_fen(fen) for _, fen in MIDDLE_GAMES]
    print(f"## Time to depth {depth}, {len(states)} middle games; {load()}")
    print("| configuration | nodes | CPU s | nodes/s | CPU vs plain | CPU vs quiescence | moves |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    cpu_of: dict[str, float] = {}
    for label, options in CONFIGS:
        nodes, cpu, moves = 0, 0.0, []
        for state in states:
            config = ai.SearchConfig(max_depth=depth, time_budget_ms=LONG_BUDGET_MS, seed=1, options=options)
            started = time.process_time()
            result = ai.choose_move(game, state, config)
            cpu += time.process_time() - started
            nodes += result.nodes
            moves.append(result.move)
        cpu_of[label] = cpu
        vs_plain = cpu / cpu_of["plain"]
        vs_quiescence = f"{cpu / cpu_of['quiescence']:.2f}" if "quiescence" in cpu_of else "-"
        figures = f"{nodes:,} | {cpu:.1f} | {nodes / cpu:,.0f} | {vs_plain:.2f} | {vs_quiescence}"
        print(f"| {label} | {figures} | {' '.join(moves)} |", flush=True)
    print(f"({load()} at the end)\n")


def bratko_kopec_positions() -> list[tuple[str, str, set[str]]]:
    positions = []
    for line in BRATKO_KOPEC.read_text().splitlines():
        board, operations = chess.Board.from_epd(line)
        best = {move.uci() for move in operations["bm"]}  # type: ignore[union-attr]
        positions.append((str(operations["id"]), board.fen(), best))
    return positions


def bratko_kopec(budgets_ms: list[int]) -> None:
    game = registry.get("chess")
    positions = bratko_kopec_positions()
    runs = [("all (Master)", ALL, ms) for ms in budgets_ms] + [("quiescence", {}, budgets_ms[0])]
    print(f"## Bratko-Kopec, {len(positions)} positions; {load()}")
    print("| search | budget | solved | mean depth | not solved |")
    print("| --- | --- | --- | --- | --- |")
    for label, options, ms in runs:
        solved, depths, missed = 0, [], []
        for name, fen, best in positions:
            config = ai.SearchConfig(time_budget_ms=ms, seed=1, options=options)
            result = ai.choose_move(game, game.from_fen(fen), config)
            depths.append(result.depth)
            if result.move in best:
                solved += 1
            else:
                missed.append(name.removeprefix("BK."))
        mean_depth = sum(depths) / len(depths)
        print(f"| {label} | {ms} ms | {solved}/{len(positions)} | {mean_depth:.1f} | {' '.join(missed)} |", flush=True)
    print(f"({load()} at the end)")


def _standing_pat_in_check(
    self: AlphaBeta, state: Any, seat: int, alpha: float, beta: float, ply: int, qply: int
) -> float:
    """Quiescence in check as it was before evasions were searched without a stand pat."""
    stand_pat = self.evaluate(state, seat)
    if stand_pat >= beta:
        return stand_pat
    best, alpha = stand_pat, max(alpha, stand_pat)
    for move in self.game.noisy_moves(state):  # chess: every evasion
        if self.delta_pruning and stand_pat + self.game.capture_gain(state, move) <= alpha:
            continue
        score = self.quiesce_child(state, move, seat, alpha, beta, ply, qply)
        if score > best:
            best, alpha = score, max(alpha, score)
            if alpha >= beta:
                break
    return best


@contextlib.contextmanager
def quiescence_in_check(standing_pat: bool) -> Iterator[None]:
    searched = AlphaBeta.quiesce_evasions
    if standing_pat:
        AlphaBeta.quiesce_evasions = _standing_pat_in_check  # type: ignore[method-assign]
    try:
        yield
    finally:
        AlphaBeta.quiesce_evasions = searched  # type: ignore[method-assign]


def check_evasions(depth: int, bk_ms: int) -> None:
    """The Master's settings with and without a stand pat in check, in the same process."""
    game = registry.get("chess")
    states = [game.from_fen(fen) for _, fen in MIDDLE_GAMES]
    positions = bratko_kopec_positions()
    print(f"## Quiescence in check, Master's settings; {load()}")
    print(f"| in check | nodes to depth {depth} | CPU s | moves | Bratko-Kopec at {bk_ms} ms | mean depth |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, standing_pat in (("stands pat (before)", True), ("searches every evasion", False)):
        with quiescence_in_check(standing_pat):
            nodes, cpu, moves = 0, 0.0, []
            for state in states:
                config = ai.SearchConfig(max_depth=depth, time_budget_ms=LONG_BUDGET_MS, seed=1, options=ALL)
                started = time.process_time()
                result = ai.choose_move(game, state, config)
                cpu += time.process_time() - started
                nodes += result.nodes
                moves.append(result.move)
            solved, depths = 0, []
            for _, fen, best in positions:
                config = ai.SearchConfig(time_budget_ms=bk_ms, seed=1, options=ALL)
                result = ai.choose_move(game, game.from_fen(fen), config)
                solved += result.move in best
                depths.append(result.depth)
        mean_depth = sum(depths) / len(depths)
        figures = f"{nodes:,} | {cpu:.1f} | {' '.join(moves)} | {solved}/{len(positions)} | {mean_depth:.1f}"
        print(f"| {label} | {figures} |", flush=True)
    print(f"({load()} at the end)")


def engine_against_python(depth: int, ms: int, bk_ms: int) -> None:
    """The Python search and the compiled engine, alternating, under the same load."""
    game = registry.get("chess")
    states = [game.from_fen(fen) for _, fen in MIDDLE_GAMES]
    runs = {"Python search": ALL, "compiled engine": {**ALL, "engine": True}}
    print(f"## The compiled engine against the Python search, {len(states)} middle games; {load()}")
    print("| search | limit | nodes | CPU s | nodes per CPU s | mean depth | moves |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for limit in (f"depth {depth}", f"{ms} ms"):
        totals = {label: [0, 0.0, 0, []] for label in runs}
        for state in states:
            for label, options in runs.items():
                if limit.startswith("depth"):
                    config = ai.SearchConfig(max_depth=depth, time_budget_ms=LONG_BUDGET_MS, seed=1, options=options)
                else:
                    config = ai.SearchConfig(time_budget_ms=ms, seed=1, options=options)
                started = time.process_time()
                result = ai.choose_move(game, state, config)
                row = totals[label]
                row[0] += result.nodes
                row[1] += time.process_time() - started
                row[2] += result.depth
                row[3].append(result.move)
        for label, (nodes, cpu, depths, moves) in totals.items():
            figures = f"{nodes:,} | {cpu:.2f} | {nodes / max(cpu, 1e-9):,.0f} | {depths / len(states):.1f}"
            print(f"| {label} | {limit} | {figures} | {' '.join(moves)} |", flush=True)
    positions = bratko_kopec_positions()
    solved, depths = 0, []
    for _, fen, best in positions:
        config = ai.SearchConfig(time_budget_ms=bk_ms, seed=1, options=runs["compiled engine"])
        result = ai.choose_move(game, game.from_fen(fen), config)
        solved += result.move in best
        depths.append(result.depth)
    print(
        f"\nBratko-Kopec, compiled engine at {bk_ms} ms: {solved}/{len(positions)}, mean depth "
        f"{sum(depths) / len(depths):.1f}"
    )
    print(f"({load()} at the end)")


AREAS = (  # (label, a path fragment of the code's file), the first that matches
    ("python-chess", "site-packages/chess/"),
    ("the evaluation (games/chess/evaluation.py)", "games/chess/evaluation.py"),
    ("the rest of games/chess (the Game API over python-chess)", "games/chess/"),
    ("the search (ai/)", "/ai/"),
)


def where_time_goes(depth: int) -> None:
    """The Master's search to `depth` under cProfile, its own time by where the code lives."""
    game = registry.get("chess")
    states = [game.from_fen(fen) for _, fen in MIDDLE_GAMES]
    profile = cProfile.Profile()
    nodes = 0
    for state in states:
        config = ai.SearchConfig(max_depth=depth, time_budget_ms=LONG_BUDGET_MS, seed=1, options=ALL)
        profile.enable()
        nodes += ai.choose_move(game, state, config).nodes
        profile.disable()
    totals: dict[str, float] = {}
    calls: dict[str, int] = {}
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]  # the raw table: (file, line, name) -> figures
    for (filename, _, _), (_, ncalls, tottime, _, _) in stats.items():
        area = next((label for label, part in AREAS if part in filename), "everything else (builtins, Python)")
        totals[area] = totals.get(area, 0.0) + tottime
        calls[area] = calls.get(area, 0) + ncalls
    whole = sum(totals.values())
    print(f"## Where the Master's time goes, depth {depth}, {len(states)} middle games, {nodes:,} nodes; {load()}")
    print("| code | own time (profiled) | share | calls a node |")
    print("| --- | --- | --- | --- |")
    for area, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"| {area} | {seconds:.1f} s | {seconds / whole:.0%} | {calls[area] / nodes:.0f} |")
    print("\nThe functions with the most own time:")
    top = sorted(stats.items(), key=lambda item: -item[1][2])[:8]
    for (filename, line, name), (_, ncalls, tottime, _, _) in top:
        print(f"- {Path(filename).name}:{line} {name}: {tottime / whole:.0%}, {ncalls / nodes:.1f} calls a node")
    print(f"({load()} at the end; cProfile roughly doubles the time, the shares stay)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--bk-ms", default="1000,5000", help="budgets per Bratko-Kopec position, comma-separated")
    parser.add_argument("--skip-features", action="store_true")
    parser.add_argument("--skip-bk", action="store_true")
    parser.add_argument("--check-evasions", action="store_true", help="only quiescence in check, before and after")
    parser.add_argument("--engine", action="store_true", help="only the compiled engine against the Python search")
    parser.add_argument("--engine-ms", type=int, default=1000, help="with --engine: the budget a position")
    parser.add_argument("--where-time-goes", action="store_true", help="only the Master's time by code, profiled")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, python-chess {chess.__version__}, {os.cpu_count()} cores\n")
    if args.where_time_goes:
        where_time_goes(args.depth)
        return
    if args.engine:
        engine_against_python(args.depth, args.engine_ms, int(args.bk_ms.split(",")[0]))
        return
    if args.check_evasions:
        check_evasions(args.depth, int(args.bk_ms.split(",")[0]))
        return
    if not args.skip_features:
        time_to_depth(args.depth)
    if not args.skip_bk:
        bratko_kopec([int(ms) for ms in args.bk_ms.split(",")])


if __name__ == "__main__":
    main()

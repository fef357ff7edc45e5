"""The Stockfish-confirmed tactical positions solved by a chess level at fixed times per move.

    .venv/bin/python benchmarks/chess_tactics.py [--level 5] [--ms 1000,5000] [--limit N]

Each position of ``tests/data/chess_tactics.epd`` (Win At Chess, kept where Stockfish
confirms a ``bm`` move at depth 20: ``benchmarks/tactics_confirm.py``) is searched with the
level's own profile settings (``server.bots.seed``: the Master's refinements), its time
budget replaced by each ``--ms`` budget; solved when the move played is one of the ``bm``
moves. ``--limit N`` takes the first N positions at every budget, or ``--limit 0,100`` a
limit per budget. Budgets are wall-clock, as in play: on a loaded machine the search gets
less of a core and goes less deep (the mean depth is printed; so is the load). A search
that took more than twice its budget (plus 0.5 s) was paused from outside and is left out
of the count, and listed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import chess
from botplay import ladder, search_config

import ai
from games import registry

ROOT = Path(__file__).resolve().parent.parent
TACTICS = ROOT / "tests" / "data" / "chess_tactics.epd"
PAUSED_FACTOR, PAUSED_SLACK_MS = 2, 500


def positions(path: Path) -> list[tuple[str, str, set[str]]]:
    """(id, FEN, the ``bm`` moves as UCI) of every line."""
    found = []
    for line in path.read_text().splitlines():
        board, operations = chess.Board.from_epd(line)
        best = {move.uci() for move in operations["bm"]}  # type: ignore[union-attr]
        found.append((str(operations["id"]), board.fen(), best))
    return found


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min)"


def run(level: int, ms: int, chosen: list[tuple[str, str, set[str]]]) -> None:
    game = registry.get("chess")
    spec = {**ladder("chess")[level], "time_budget_ms": ms}
    solved, depths, missed, paused = 0, [], [], []
    started = time.time()
    for name, fen, best in chosen:
        before = time.monotonic()
        result = ai.choose_move(game, game.from_fen(fen), search_config(spec, seed=1))
        number = name.removeprefix("WAC.")
        # A search that took far longer than its budget was stopped from outside (a paused process):
        # its depth says nothing about the level, so it is left out of the count and listed.
        if (time.monotonic() - before) * 1000 > PAUSED_FACTOR * ms + PAUSED_SLACK_MS:
            paused.append(number)
            continue
        depths.append(result.depth)
        if result.move in best:
            solved += 1
        else:
            missed.append(number)
    counted = len(chosen) - len(paused)
    share = f"{solved}/{counted} ({solved / max(counted, 1):.0%})"
    mean_depth = sum(depths) / max(len(depths), 1)
    print(
        f"| {spec['slug']} | {ms} ms | {share} | {mean_depth:.1f} | {time.time() - started:.0f} s "
        f"| {' '.join(missed)} | {' '.join(paused) or 'none'} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--ms", default="1000,5000", help="budgets per position, comma-separated")
    parser.add_argument("--limit", default="0", help="first N positions (0: all), one value or one per budget")
    parser.add_argument("--epd", type=Path, default=TACTICS)
    args = parser.parse_args()
    budgets = [int(ms) for ms in args.ms.split(",")]
    limits = [int(n) for n in args.limit.split(",")]
    limits += [limits[-1]] * (len(budgets) - len(limits))
    every = positions(args.epd)
    print(f"python {sys.version.split()[0]}, python-chess {chess.__version__}, {len(every)} positions; {load()}\n")
    print("| level | budget | solved | mean depth | wall | not solved (WAC numbers) | paused, left out |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for ms, limit in zip(budgets, limits, strict=True):
        run(args.level, ms, every[:limit] if limit else every)
    print(f"\n({load()} at the end)")


if __name__ == "__main__":
    main()

"""The real opening book and endgame tables, where the system has them (not in CI).

    apt-get install -y gnuchess-book gaviotatb
    PYTHONPATH=$PWD .venv/bin/python benchmarks/chess_tables.py [--seeds 200]

Book (``CHESS_BOOK_PATH``, default Debian's ``/usr/share/games/gnuchess/book.bin``): the
entries for the start position and their weights, and how often the bot (search option
``opening_book``) played each over ``--seeds`` seeds; then how many plies a book-playing
Master stays in book against itself.

Tables (``CHESS_GAVIOTA_PATH``, default Debian's ``/usr/share/gaviotatb/gtb4``, three
pieces): from each ending below the Master (search option ``tablebases``) plays both
sides; printed: the DTM the tables give at the start, the plies the game took to mate or
draw, and the time per move (python-chess's pure-Python prober, one probe per reply).
The game must end in exactly the tables' DTM: the winner takes the fastest mate and the
loser the longest defence.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

import chess

import ai
from games import registry
from games.chess import tables

ENDINGS = [
    ("KQ v K", "8/8/8/8/8/3k4/8/3KQ3 w - - 0 1"),
    ("KR v K", "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"),
    ("KP v K, won", "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"),
    ("KP v K, drawn", "8/4k3/8/4K3/4P3/8/8/8 w - - 0 1"),
]


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min)"


def book(seeds: int) -> None:
    reader = tables.opening_book()
    if reader is None:
        print(f"no book at {tables.book_path()}: apt-get install -y gnuchess-book")
        return
    start = chess.Board()
    entries = sorted(reader.find_all(start), key=lambda e: -e.weight)
    total = sum(e.weight for e in entries)
    game = registry.get("chess")
    config = {"opening_book": True}
    played = Counter(
        ai.choose_move(game, game.initial_state(), ai.SearchConfig(seed=s, options=config)).move for s in range(seeds)
    )
    print(f"## Book {tables.book_path()}: {len(reader):,} entries; start position, {seeds} seeds")
    print("| move | weight | share | played |")
    print("| --- | --- | --- | --- |")
    for entry in entries:
        uci = entry.move.uci()
        print(f"| {start.san(entry.move)} | {entry.weight} | {entry.weight / total:.1%} | {played[uci] / seeds:.1%} |")
    plies = []
    for seed in range(10):
        state, n = game.initial_state(), 0
        while True:
            result = ai.choose_move(
                game, state, ai.SearchConfig(seed=seed * 1000 + n, time_budget_ms=50, options=config)
            )
            if result.stats.get("source") != "book":
                break
            state, n = game.apply(state, result.move), n + 1
        plies.append(n)
    print(f"\nPlies in book, 10 self-play openings: {plies} (mean {sum(plies) / len(plies):.1f})\n")


def endings() -> None:
    prober = tables.tablebase()
    if prober is None:
        print(f"no tables at {tables.gaviota_path()}: apt-get install -y gaviotatb")
        return
    game = registry.get("chess")
    config = ai.SearchConfig(time_budget_ms=3000, options={"tablebases": True})
    print(f"## Tables {tables.gaviota_path()}; {load()}")
    print("| ending | DTM at the start | plies played | result | ms per move | every move from the tables |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, fen in ENDINGS:
        state = game.from_fen(fen)
        dtm = prober.get_dtm(chess.Board(fen))
        plies, from_tables, elapsed = 0, True, 0.0
        while not game.is_terminal(state) and plies < 200:
            started = time.perf_counter()
            result = ai.choose_move(game, state, config)
            elapsed += time.perf_counter() - started
            from_tables &= result.stats.get("source") == "tablebase" or bool(result.stats.get("forced"))
            state, plies = game.apply(state, result.move), plies + 1
        outcome = game.outcome(state).reason if game.is_terminal(state) else "unfinished"
        print(f"| {name} | {dtm} | {plies} | {outcome} | {elapsed / plies * 1000:.0f} | {from_tables} |", flush=True)
    print(f"({load()} at the end)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=200)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, python-chess {chess.__version__}; {load()}\n")
    book(args.seeds)
    endings()


if __name__ == "__main__":
    main()

"""The chess ladder rated against Stockfish held to an Elo (``UCI_LimitStrength``, ``UCI_Elo``).

Not in CI. Needs Debian's engine: ``apt-get install -y stockfish`` (the binary is
``/usr/games/stockfish``). Each chosen level plays ``--games`` games (colours alternating,
a few random opening plies so games differ) against Stockfish at each ``--elo``, through
python-chess's ``chess.engine``; Stockfish gets ``--sf-ms`` per move, one thread, 16 MB of
hash. A game still going after ``--max-plies`` is scored a draw (said in the output).
The level's rating on Stockfish's scale is the Elo that its score implies,
``elo + 400 log10(s / (1 - s))``, with the interval of the score's 95% bounds.

    .venv/bin/python benchmarks/chess_stockfish.py [--levels 3,5] [--elo 1350,1600] [--games 4]
        [--sf-ms 100] [--budget-scale 1.0] [--max-plies 240]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import sys
import time

import chess
import chess.engine
from botplay import ProfileBot, interval, ladder

from games import registry

STOCKFISH_PATHS = ("stockfish", "/usr/games/stockfish")


def rating(elo: int, score: float) -> float:
    """The Elo a score against an `elo` opponent implies (scores of 0 and 1 clipped to keep it finite)."""
    s = min(max(score, 0.02), 0.98)
    return elo + 400 * math.log10(s / (1 - s))


def play_one(engine: chess.engine.SimpleEngine, bot: ProfileBot, bot_white: bool, seed: int, args: argparse.Namespace):
    """One game; returns the bot's score (1, 1/2, 0), plies, and whether it was cut at max plies."""
    game = registry.get("chess")
    state = game.initial_state()
    opening = random.Random(seed)
    plies = 0
    while not game.is_terminal(state) and plies < args.max_plies:
        if plies < args.opening_plies:
            move = opening.choice(game.legal_moves(state))
        elif (state.board.turn == chess.WHITE) == bot_white:
            move = bot.move(game, state, seed * 1000 + plies, f"sf:{seed}")
        else:
            played = engine.play(state.board, chess.engine.Limit(time=args.sf_ms / 1000))
            assert played.move is not None
            move = played.move.uci()
        state = game.apply(state, move)
        plies += 1
    if not game.is_terminal(state):
        return 0.5, plies, True
    returns = game.returns(state)
    mine = returns[0 if bot_white else 1]
    return (1.0 if mine > 0 else 0.5 if mine == 0 else 0.0), plies, False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="3,5")
    parser.add_argument("--elo", default="1350,1600", help="Stockfish's UCI_Elo values (Debian's 15.1: 1350 at least)")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--sf-ms", type=int, default=100)
    parser.add_argument("--budget-scale", type=float, default=1.0, help="multiply the levels' time budgets")
    parser.add_argument("--max-plies", type=int, default=240)
    parser.add_argument("--opening-plies", type=int, default=4)
    args = parser.parse_args()
    path = next((p for p in map(shutil.which, STOCKFISH_PATHS) if p), None)
    if path is None:
        sys.exit("Stockfish not found: apt-get install -y stockfish")
    levels = ladder("chess")
    one, five, _ = os.getloadavg()
    print(
        f"# {args.games} games per pairing, Stockfish {args.sf_ms} ms/move (1 thread, 16 MB), "
        f"levels' budgets x{args.budget_scale}, {args.opening_plies} random opening plies, "
        f"draw at {args.max_plies} plies; load average {one:.1f} / {five:.1f}"
    )
    print("| level | Stockfish UCI_Elo | games | score | wins-draws-losses | cut at max plies | rating (95%) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    started = time.time()
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        for level in (int(x) for x in args.levels.split(",")):
            for elo in (int(x) for x in args.elo.split(",")):
                engine.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": elo})
                bot = ProfileBot(levels[level], None, args.budget_scale)
                points, tally, cut = 0.0, [0, 0, 0], 0
                for i in range(args.games):
                    score, _, was_cut = play_one(engine, bot, i % 2 == 0, 100 * level + i // 2, args)
                    points += score
                    tally[0 if score == 1 else 1 if score == 0.5 else 2] += 1
                    cut += was_cut
                s = points / args.games
                half = interval(s, args.games)
                low, high = rating(elo, s - half), rating(elo, s + half)
                if s == 1:  # a clean sweep bounds the rating from below only
                    estimate = f"above {low:.0f}"
                elif s == 0:
                    estimate = f"below {high:.0f}"
                else:
                    estimate = f"{rating(elo, s):.0f} ({low:.0f} to {high:.0f})"
                print(
                    f"| {levels[level]['slug']} | {elo} | {args.games} | {s:.2f} | {'-'.join(map(str, tally))} "
                    f"| {cut} | {estimate} |",
                    flush=True,
                )
    print(f"\n# {time.time() - started:.0f} s wall")


if __name__ == "__main__":
    main()

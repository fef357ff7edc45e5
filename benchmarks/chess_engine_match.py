"""The chess Master with its compiled engine against the Master with the Python search.

Not in CI.  Both play the seeded Master profile (book and tables included where installed),
one with ``engine`` on (`games.chess.engine`), one with it off (the Python search of
`ai.alphabeta`, as before the engine), each capped at ``--ms`` a move.  Games go in pairs
from the same random opening (``--opening-plies``), colours swapped; a game still going
after ``--max-plies`` is scored a draw.  Printed: the engine's score with a 95 % interval
and the Elo difference it implies; every game is appended to ``--log`` (JSON lines) and a
run resumes from it.

    .venv/bin/python benchmarks/chess_engine_match.py [--games 20] [--ms 200] [--log FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from pathlib import Path

from botplay import ProfileBot, interval, ladder, read_log

from games import registry


def elo(score: float) -> float:
    s = min(max(score, 0.01), 0.99)
    return 400 * math.log10(s / (1 - s))


def play_one(
    engine_bot: ProfileBot, python_bot: ProfileBot, engine_white: bool, seed: int, args: argparse.Namespace
) -> dict:
    game = registry.get("chess")
    state = game.initial_state()
    opening = random.Random(seed)
    plies = 0
    while not game.is_terminal(state) and plies < args.max_plies:
        if plies < args.opening_plies:
            move = opening.choice(game.legal_moves(state))
        else:
            white = state.board.turn
            bot = engine_bot if white == engine_white else python_bot
            move = bot.move(game, state, seed * 1000 + plies, f"match:{seed}:{engine_white}")
        state = game.apply(state, move)
        plies += 1
    returns = game.returns(state) if game.is_terminal(state) else [0.0, 0.0]
    mine = returns[0 if engine_white else 1]
    score = 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
    return {"seed": seed, "engine_white": engine_white, "score": score, "plies": plies, "ms": args.ms,
            "load": os.getloadavg()[0], "cut": not game.is_terminal(state)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games (pairs of colours)")
    parser.add_argument("--ms", type=int, default=200, help="each side's budget a move")
    parser.add_argument("--opening-plies", type=int, default=6)
    parser.add_argument("--max-plies", type=int, default=240)
    parser.add_argument("--log", type=Path, default=Path("chess_engine_match.jsonl"))
    args = parser.parse_args()
    master = ladder("chess")[5]
    python_spec = {**master, "search_options": {**master["search_options"], "engine": False}}
    engine_spec = {**master, "search_options": {**master["search_options"], "engine": True}}
    engine_bot, python_bot = ProfileBot(engine_spec, args.ms), ProfileBot(python_spec, args.ms)
    records = [r for r in read_log(args.log) if r.get("ms") == args.ms]
    done = {(r["seed"], r["engine_white"]) for r in records}
    started = time.time()
    for seed in range(args.games // 2):
        for engine_white in (True, False):
            if (seed, engine_white) in done:
                continue
            record = play_one(engine_bot, python_bot, engine_white, seed, args)
            with args.log.open("a") as log:
                log.write(json.dumps(record) + "\n")
            records.append(record)
            colour = "white" if engine_white else "black"
            print(f"# game {len(records)}: seed {seed}, engine {colour}, score {record['score']}, "
                  f"{record['plies']} plies, {time.time() - started:.0f} s", flush=True)  # fmt: skip
    n = len(records)
    score = sum(r["score"] for r in records) / max(n, 1)
    half = interval(score, n)
    wdl = "-".join(str(sum(r["score"] == v for r in records)) for v in (1.0, 0.5, 0.0))
    print(f"| engine Master vs Python Master | {args.ms} ms | {n} games | {score:.2f} ± {half:.2f} | {wdl} | "
          f"{elo(score):+.0f} ({elo(score - half):+.0f} to {elo(score + half):+.0f}) Elo |")  # fmt: skip
    for bot in (engine_bot, python_bot):
        t = bot.tally
        print(f"# {'engine' if bot is engine_bot else 'python'}: {t.moves} moves searched, mean depth "
              f"{t.depth / max(t.moves, 1):.1f}, {t.nodes / max(t.ms / 1000, 1e-9):,.0f} nodes a second")  # fmt: skip
    one, five, _ = os.getloadavg()
    print(f"# load average {one:.1f} / {five:.1f} at the end")


if __name__ == "__main__":
    main()

"""Othello's Master against GRhino over GTP, the board cross-checked after every move.

    apt-get install -y grhino        # Debian's GRhino 0.16.1: /usr/games/gtp-rhino
    python benchmarks/othello_grhino.py --games 40 --level 5 --log results/othello_grhino_l5.jsonl.gz

Each game starts from the standard position after `--opening-plies` random moves (seeded; each
opening played twice, colours swapped), the Master (`othello-master`, its seeded settings and
budget, `--budget-cap-ms` to cap it; `--engine` adds the compiled midgame search) against
``gtp-rhino --level N`` (its own search: GRhino takes no clock; its book off with ``--book 0`` so
openings vary).  After every move GRhino's ``showboard`` must show our board, disc for disc, and
its ``genmove`` must be legal by our rules: a disagreement stops the run.  Games go to the
``--log`` as they finish and a rerun continues from it.  Prints each game, the score with a 95 %
interval, and both sides' time a move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "clients"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import botplay  # noqa: E402
from plyground_bot.bridges.engine import engine_command  # noqa: E402
from plyground_bot.bridges.gtp import COLOURS, GtpEngine, from_vertex, to_vertex  # noqa: E402

from games.othello import OTHELLO, OthelloState  # noqa: E402


def board_rows(state: OthelloState) -> list[str]:
    """Our board as GRhino draws it: rows 1-8 from the top, X black, O white."""
    cell = lambda sq: "X" if state.black >> sq & 1 else "O" if state.white >> sq & 1 else "."  # noqa: E731
    return [" ".join(cell(r * 8 + c) for c in range(8)) for r in range(8)]


async def showboard(engine: GtpEngine) -> list[str]:
    await engine.process.send("showboard")
    lines = await engine.process.read_until(lambda line: line == "", 10)
    while len(lines) == 1:  # an empty line left over from an earlier response
        lines = await engine.process.read_until(lambda line: line == "", 10)
    # The engine's lines come stripped: "4 . . X X X . . ." is row 4.
    return [line[1:].strip() for line in lines if line[:1].isdigit()]


async def one_game(engine: GtpEngine, master: botplay.ProfileBot, index: int, args: argparse.Namespace) -> dict:
    master_seat = index % 2
    opening = random.Random(args.seed + index // 2)
    state, moves = OTHELLO.initial_state(), []
    await engine.ask("clear_board")
    times = {"master": 0.0, "grhino": 0.0}
    while not OTHELLO.is_terminal(state):
        legal = OTHELLO.legal_moves(state)
        started = time.perf_counter()
        if len(moves) < args.opening_plies:
            move = opening.choice(legal)
        elif state.seat == master_seat:
            move = master.move(OTHELLO, state, args.seed * 1000 + len(moves), f"grhino:{index}")
            times["master"] += time.perf_counter() - started
        elif legal == ["pass"]:
            move = "pass"
        else:
            move = from_vertex(await engine.ask(f"genmove {COLOURS[state.seat]}", 600))
            times["grhino"] += time.perf_counter() - started
            if move not in legal:
                raise SystemExit(f"game {index}: GRhino played {move}, not legal here: {legal} (moves {moves})")
        if move != "pass" and (len(moves) < args.opening_plies or state.seat == master_seat):
            await engine.ask(f"play {COLOURS[state.seat]} {to_vertex(move)}")
        state = OTHELLO.apply(state, move)
        moves.append(move)
        if await showboard(engine) != board_rows(state):
            raise SystemExit(f"game {index}: GRhino's board differs from ours after {' '.join(moves)}")
    black, white = OTHELLO.score(state)
    returns = OTHELLO.returns(state)
    return {
        "game": index, "master_seat": master_seat, "score": [black, white], "result": returns[master_seat],
        "moves": " ".join(moves), "seconds": {k: round(v, 1) for k, v in times.items()},
        "master_moves": sum(1 for i in range(args.opening_plies, len(moves)) if i % 2 == master_seat),
    }  # fmt: skip


async def run(args: argparse.Namespace) -> None:
    log = Path(args.log) if args.log else None
    records = botplay.read_log(log)
    spec = botplay.ladder("othello")[5]
    if args.engine:  # the compiled midgame search (games.othello.engine) in place of the Python one
        spec = {**spec, "search_options": {**(spec.get("search_options") or {}), "engine": True}}
    master = botplay.ProfileBot(spec, cap_ms=args.budget_cap_ms)
    command = engine_command(f"gtp-rhino --level={args.level} --book=0")
    engine = GtpEngine(command)
    await engine.start()
    budget = botplay.budget_ms(spec, args.budget_cap_ms)
    print(f"# {engine.name} ({' '.join(command)}) against {spec['slug']} at {budget} ms "
          f"({spec.get('search_options')}); {len(records)} games already in the log", flush=True)  # fmt: skip
    try:
        for index in range(len(records), args.games):
            record = await one_game(engine, master, index, args)
            records.append(record)
            if log:
                botplay.append_line(log, json.dumps(record))
            print(f"game {index + 1}: master as {COLOURS[record['master_seat']]} {record['result']:+.0f} "
                  f"({record['score'][0]}-{record['score'][1]}) {summary(records)}", flush=True)  # fmt: skip
    finally:
        await engine.stop()
    print(summary(records))


def summary(records: list[dict]) -> str:
    n = len(records)
    share = sum((r["result"] + 1) / 2 for r in records) / n
    wins = sum(r["result"] > 0 for r in records)
    draws = sum(r["result"] == 0 for r in records)
    ms = sum(r["seconds"]["master"] for r in records) / max(1, sum(r["master_moves"] for r in records)) * 1000
    margin = botplay.interval(share, n)
    return f"{wins}-{draws}-{n - wins - draws}, {share:.1%} +- {margin:.1%} over {n}; master {ms:.0f} ms a move"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--level", type=int, default=5, choices=range(1, 6))
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--budget-cap-ms", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", default="")
    parser.add_argument("--engine", action="store_true", help="the Master with `engine: true` added to its options")
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()

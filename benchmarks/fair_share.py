"""A person's bot replies while one visitor floods the workers with bot-vs-bot matches.

On the real stack (`tests.support.LiveStack`: daphne, the Celery workers, Redis): a client
starts `--matches` bot-vs-bot matches of the strongest Connect Four bots (the caps raised
for the run), from one guest or from `--guests` fresh guests of the same address; then a
person plays Rook (300 ms) over a match socket and times each reply, from sending the move
to the bot's move frame.  Run once with the fair share (the default) and once with
``BOT_FAIR_SHARE=0`` (every bot turn on one queue, first come first served, no reserved
worker, no caps) as the reference, and print p50/p95/max of the replies, the budget, how
many bot-vs-bot turns were played meanwhile, and the ratio.

    .venv/bin/python benchmarks/fair_share.py [--matches 30] [--guests 1] [--moves 8] [--modes fair,old]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support import LiveStack  # noqa: E402

MASTER = "connect4-master"
PERSONS_BOT = "connect4-casual"  # Rook, 300 ms
REPLY_TIMEOUT_S = 180


def stack_env(mode: str) -> dict[str, str]:
    if mode == "old":
        return {"BOT_FAIR_SHARE": "0"}
    # The caps raised for the run, and guests allowed, so the flood gets through to the queues.
    return {"FAIR_SHARE_BOT_MATCHES": "1000,1000", "BOT_MATCHES_ACCOUNTS_ONLY": "0"}


def flood(stack: LiveStack, matches: int, guests: int) -> list[int]:
    tokens = [stack.guest()[1] for _ in range(guests)]
    seats = [{"kind": "bot", "profile": MASTER}] * 2
    started = time.monotonic()
    ids = [
        stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, tokens[i % guests])["id"]
        for i in range(matches)
    ]
    print(f"  {matches} Master-vs-Master matches from {guests} guest(s) in {time.monotonic() - started:.1f} s")
    return ids


def bot_turns_played(stack: LiveStack, ids: list[int]) -> int:
    return sum(len(stack.api("GET", f"/api/matches/{i}/")["moves"]) for i in ids)


async def person_plays(stack: LiveStack, moves: int, rng: random.Random) -> list[float]:
    """Seconds from each of the person's moves to the bot's reply, over as many matches as it takes."""
    _, token = stack.guest()
    replies: list[float] = []
    while len(replies) < moves:
        seats = [{"kind": "human"}, {"kind": "bot", "profile": PERSONS_BOT}]
        match = stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, token)
        async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
            state = json.loads(await ws.recv())["match"]
            ply, legal = state["ply"], state["legal_moves"]
            while legal and len(replies) < moves:
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
                frame = await reply_to(ws, ply)
                if frame is None:  # the person's move ended the match
                    break
                replies.append(time.monotonic() - sent)
                ply, legal = frame["ply"] + 1, frame["legal_moves"] if frame["to_move"] == 0 else []
    return replies


async def reply_to(ws, ply: int) -> dict | None:
    """The bot's move frame after the person's move at `ply`, or None when the match ended first."""
    async with asyncio.timeout(REPLY_TIMEOUT_S):
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "move" and frame["ply"] == ply and not frame["legal_moves"]:
                return None
            if frame["type"] == "move" and frame["ply"] == ply + 1:
                return frame
            if frame["type"] == "game_over":
                return None


def run(mode: str, args: argparse.Namespace) -> dict:
    workers = 1 if mode == "old" else 2
    with LiveStack(extra_env=stack_env(mode)) as stack:
        while stack.server_log().count(" ready.") < workers:
            time.sleep(0.2)
        ids = flood(stack, args.matches, args.guests)
        before = bot_turns_played(stack, ids)
        started = time.monotonic()
        replies = asyncio.run(person_plays(stack, args.moves, random.Random(args.seed)))
        wall = time.monotonic() - started
        ran = bot_turns_played(stack, ids) - before
    replies.sort()
    return {
        "mode": mode,
        "p50": statistics.median(replies),
        "p95": replies[min(len(replies) - 1, round(0.95 * (len(replies) - 1)))],
        "max": replies[-1],
        "n": len(replies),
        "bot_vs_bot_turns": ran,
        "wall": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=30, help="bot-vs-bot matches started (default 30)")
    parser.add_argument("--guests", type=int, default=1, help="fresh guests of one address that start them")
    parser.add_argument("--moves", type=int, default=8, help="the person's moves timed (default 8)")
    parser.add_argument("--modes", default="fair,old", help="fair (the default settings), old (BOT_FAIR_SHARE=0)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores; the person's bot budget 300 ms")
    results = []
    for mode in args.modes.split(","):
        print(f"{mode}:")
        result = run(mode, args)
        results.append(result)
        print(
            f"  replies p50 {result['p50']:.2f} s, p95 {result['p95']:.2f} s, max {result['max']:.2f} s "
            f"over {result['n']}; {result['bot_vs_bot_turns']} bot-vs-bot turns meanwhile ({result['wall']:.0f} s)"
        )
    print("| mode | p50 s | p95 s | max s | replies | bot-vs-bot turns | within 0.3 s + 1 s at p95 |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        ok = "yes" if r["p95"] <= 1.3 else "no"
        figures = f"{r['p50']:.2f} | {r['p95']:.2f} | {r['max']:.2f} | {r['n']} | {r['bot_vs_bot_turns']}"
        print(f"| {r['mode']} | {figures} | {ok} |")
    by_mode = {r["mode"]: r for r in results}
    if {"fair", "old"} <= by_mode.keys():
        print(f"p95 old / fair: {by_mode['old']['p95'] / by_mode['fair']['p95']:.1f}x")
    print(f"load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()

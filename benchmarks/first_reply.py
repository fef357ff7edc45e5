"""The first bot reply after a start, against the next ones, with and without the search warm-up.

    .venv/bin/python benchmarks/first_reply.py [--rounds 2] [--bots connect4-shallow,connect4-medium]

Each run starts a fresh full stack (``python -m server.run``: daphne, the Celery workers,
Redis; `tests.support.LiveStack`), waits until both workers say they are ready, then for
each bot in turn opens a match against it and plays three random moves over the match
socket, timing each bot reply from the move's send to the bot's `move` frame.  The bots
are depth-limited, so a reply's search does the same work cold or warm.  Runs alternate
between ``SEARCH_WARM_UP=0`` (no warm-up: the first search pays for the first calls) and the
default warm-up (`ai.warm_up` in each pool process before it takes work), so both face the
same machine load.  Prints, per mode, each bot's first reply and the median of the later
ones (ms), and the ratio of the first replies.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support import LiveStack  # noqa: E402

REPLIES = 3
WORKERS = 2  # the worker and the reserved worker (server.run)


async def replies_ms(stack: LiveStack, bot: str, seed: int) -> list[tuple[float, float]]:
    """For the first `REPLIES` replies: ms from our move to the bot's reply, and the reply's search (`think_ms`)."""
    _, token = stack.guest()
    game = bot.split("-")[0]
    seats = [{"kind": "human"}, {"kind": "bot", "profile": bot}]
    match = stack.api("POST", "/api/matches/", {"game": game, "seats": seats}, token)
    rng, took = random.Random(seed), list[tuple[float, float]]()
    async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
        state = json.loads(await ws.recv())
        legal, ply = state["match"]["legal_moves"], state["match"]["ply"]
        while len(took) < REPLIES:
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
                if frame["type"] in ("error", "game_over"):
                    return took
                if frame["type"] == "move" and frame["seat"] == 1:
                    took.append(((time.perf_counter() - sent) * 1000, float(frame["think_ms"])))
                    legal, ply = frame["legal_moves"], frame["ply"] + 1
                    break
    return took


def one_run(warm: bool, bots: list[str], seed: int) -> dict[str, list[tuple[float, float]]]:
    with LiveStack(extra_env={"SEARCH_WARM_UP": "1" if warm else "0"}) as stack:
        wait_for_both_workers(stack)
        return {bot: asyncio.run(replies_ms(stack, bot, seed)) for bot in bots}


def wait_for_both_workers(stack: LiveStack, timeout_s: float = 120) -> None:
    """The stack serves once one worker is ready; a person's bot turn may go to either (the reserved one too)."""
    deadline = time.monotonic() + timeout_s
    while stack.server_log().count(" ready.") < WORKERS and time.monotonic() < deadline:
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--bots", default="connect4-shallow,connect4-medium")
    args = parser.parse_args()
    bots = args.bots.split(",")
    firsts: dict[bool, list[float]] = {False: [], True: []}
    searches: dict[bool, list[float]] = {False: [], True: []}
    for round_ in range(args.rounds):
        for warm in (False, True):
            replies = one_run(warm, bots, seed=round_)
            for bot, took in replies.items():
                later = statistics.median(t for t, _ in took[1:]) if len(took) > 1 else float("nan")
                later_search = statistics.median(s for _, s in took[1:]) if len(took) > 1 else float("nan")
                mode = "on " if warm else "off"
                print(f"round {round_} warm-up {mode} {bot:18} reply: first {took[0][0]:6.0f} ms, later {later:6.0f} ms"
                      f"   search: first {took[0][1]:5.0f} ms, later {later_search:5.0f} ms")  # fmt: skip
                firsts[warm].append(took[0][0])
                searches[warm].append(took[0][1])
    for name, figures in (("reply", firsts), ("search", searches)):
        off, on = statistics.median(figures[False]), statistics.median(figures[True])
        print(
            f"first {name}, median over runs and bots: warm-up off {off:.0f} ms, on {on:.0f} ms, on/off {on / off:.2f}"
        )


if __name__ == "__main__":
    main()

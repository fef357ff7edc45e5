"""How many human-vs-bot matches one Celery worker serves at the seeded budgets, and what players see above that.

    .venv/bin/python benchmarks/bot_capacity.py [--steps 1,2,4,8,16] [--seconds 60] [--game connect4]

Starts the real stack (`tests.support.LiveStack`: daphne, one Celery worker with the
`make run` concurrency, Redis on 127.0.0.1, DB 9, a private queue), then for each N
plays N Connect Four matches at once against the seeded bots, levels 1 to 5 in turn, as
they are configured (budgets 200 ms to 4 s, the level-4 bot's 500 ms minimum pause).
The "people" are scripted WebSocket clients that answer each bot move after
`--human-ms` (default 500 ms) with a random legal move, and start a new match when one
ends.  Per N it prints: bot moves, fallback moves, queue wait p50/p99/max (the
`queue_wait_ms` of the bot moves: how long a turn waited for a free worker process),
think time p50 (the search's time), how many turns waited longer than 1 s, and the
load average at the end of the step.  Everything is on loopback and bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets  # noqa: E402

from tests.support import STACK_ID_ENV, LiveStack  # noqa: E402

MAKE_PEOPLE = """
from server.players.services import player_create_guest_with_token
for i in range({n}):
    print("token", player_create_guest_with_token()[1])
"""


@dataclass
class Step:
    n: int
    bot_moves: int = 0
    fallbacks: list[str] = field(default_factory=list)
    queue_waits: list[int] = field(default_factory=list)
    thinks: list[int] = field(default_factory=list)
    late: int = 0  # moves that came later than queue wait 0 + budget + 3 s grace would allow
    errors: list[str] = field(default_factory=list)
    matches: int = 0


def worker_rss_mb(stack: LiveStack) -> list[int]:
    """RSS (MiB) of each Celery process of the stack (found by its id in their environment), in pid order."""
    mark = f"{STACK_ID_ENV}={stack.stack_id}".encode()
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            worker = b"server.worker" in cmdline or b"celery" in cmdline
            if not worker or mark not in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
                continue
            rss_pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
        except OSError:
            continue
        found.append((int(pid), rss_pages * os.sysconf("SC_PAGE_SIZE") // 2**20))
    return [rss for _, rss in sorted(found)]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def person(stack: LiveStack, token: str, slugs: list[str], budgets: dict[str, int], index: int,
                 stop_at: float, human_s: float, step: Step) -> None:  # fmt: skip
    """One scripted player: matches against the bots in turn until `stop_at`, answering each bot move promptly."""
    rng = random.Random(index)
    k = index
    while time.monotonic() < stop_at:
        slug = slugs[k % len(slugs)]
        k += 1
        seats = [{"kind": "human"}, {"kind": "bot", "profile": slug}]
        match = await asyncio.to_thread(stack.api, "POST", "/api/matches/", {"game": "connect4", "seats": seats}, token)
        step.matches += 1
        url = f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}"
        async with websockets.connect(url, max_size=2**22) as ws:
            state = json.loads(await ws.recv())["match"]
            legal, ply = state["legal_moves"], state["ply"]
            while time.monotonic() < stop_at:
                await asyncio.sleep(human_s)
                await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
                frame = await reply(ws, stop_at + 60)
                if frame is None or frame["type"] != "move":
                    if frame is not None and frame["type"] == "error":
                        step.errors.append(frame.get("code", "?"))
                    break
                step.bot_moves += 1
                if frame.get("fallback"):
                    step.fallbacks.append(frame["fallback"])
                wait = frame.get("queue_wait_ms")
                if wait is not None:
                    step.queue_waits.append(wait)
                step.thinks.append(frame["think_ms"])
                if frame["think_ms"] > budgets[slug] + 3000:
                    step.late += 1
                if not frame["legal_moves"]:
                    break
                legal, ply = frame["legal_moves"], frame["ply"] + 1
            else:
                await ws.send(json.dumps({"type": "resign"}))


async def reply(ws, give_up_at: float) -> dict | None:
    """The bot's move (or the end of the game, or an error) after our move."""
    while True:
        try:
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(1.0, give_up_at - time.monotonic())))
        except (TimeoutError, websockets.ConnectionClosed):
            return None
        if frame["type"] in ("error", "game_over") or (frame["type"] == "move" and frame["seat"] == 1):
            if frame["type"] == "game_over":
                return None
            return frame


async def run_step(stack: LiveStack, tokens: list[str], slugs, budgets, n: int, seconds: float, human_s: float):
    step = Step(n)
    stop_at = time.monotonic() + seconds
    players = [person(stack, tokens[i], slugs, budgets, i, stop_at, human_s, step) for i in range(n)]
    results = await asyncio.gather(*players, return_exceptions=True)
    step.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="1,2,4,8,16", help="numbers of concurrent matches, in order")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each step")
    parser.add_argument("--human-ms", type=int, default=500, help="how long the scripted people take to answer")
    parser.add_argument("--levels", default="1,2,3,4,5", help="seeded Connect Four levels, played in turn")
    parser.add_argument("--concurrency", default=os.environ.get("WORKER_CONCURRENCY", "2"), help="worker processes")
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    levels = {int(x) for x in args.levels.split(",")}
    with LiveStack(extra_env={"WORKER_CONCURRENCY": args.concurrency}) as stack:
        bots = stack.api("GET", "/api/bots/?game=connect4")
        bots = [b for b in bots if b["level"] in levels and "adaptive" not in b["slug"]]
        bots.sort(key=lambda b: b["level"])
        slugs = [b["slug"] for b in bots]
        budgets = {b["slug"]: b["time_budget_ms"] for b in bots}
        made = stack.manage("shell", "-c", MAKE_PEOPLE.format(n=max(steps)))  # past the guest throttle
        tokens = [line.split()[1] for line in made.splitlines() if line.startswith("token ")]
        print(f"worker RSS at the start (MiB, main process then children): {worker_rss_mb(stack)}")
        print(f"one Celery worker, concurrency {args.concurrency}, {os.cpu_count()} cores; bots: "
              + ", ".join(f"{b['slug']} {b['time_budget_ms']} ms" for b in bots)
              + f"; people answer after {args.human_ms} ms; {args.seconds:.0f} s a step")  # fmt: skip
        print(f"{'N':>3} {'matches':>7} {'bot moves':>9} {'fallback':>8} {'wait p50':>8} {'wait p99':>8} "
              f"{'wait max':>8} {'>1 s':>5} {'think p50':>9} {'late':>4} {'load':>5}  worker RSS MiB")  # fmt: skip
        for n in steps:
            step = asyncio.run(run_step(stack, tokens, slugs, budgets, n, args.seconds, args.human_ms / 1000))
            load = os.getloadavg()[0]
            waited = sum(1 for w in step.queue_waits if w > 1000)
            print(
                f"{n:>3} {step.matches:>7} {step.bot_moves:>9} {len(step.fallbacks):>8} "
                f"{percentile(step.queue_waits, 0.5):>8.0f} {percentile(step.queue_waits, 0.99):>8.0f} "
                f"{max(step.queue_waits, default=0):>8.0f} {waited:>5} {percentile(step.thinks, 0.5):>9.0f} "
                f"{step.late:>4} {load:>5.2f}  {worker_rss_mb(stack)}",
                flush=True,
            )
            if step.fallbacks or step.errors:
                print(f"    fallbacks: {sorted(set(step.fallbacks))}  errors: {step.errors[:5]}", flush=True)
            time.sleep(5)  # the worker drains what resigned matches left queued
        log = stack.server_log()
        print(f"server log: {log.count('fallback move')} fallback lines, {log.count('Traceback')} tracebacks")


if __name__ == "__main__":
    main()

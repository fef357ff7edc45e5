"""Time from a player's move to the bot's reply on the socket, on the full stack and embedded.

    .venv/bin/python benchmarks/bot_latency.py [--replies 20] [--budget-ms 300]

Plays Connect Four against an alpha-beta bot with no depth cap (so it spends its whole
budget) over a real WebSocket, and prints per mode: reply latency (median, p90, max),
how much of it was queueing (task sent -> search started), and the overshoot of the
latency over the budget.  Both modes run in the same invocation so they compare directly.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets  # noqa: E402

from tests.support import LiveStack  # noqa: E402

MAKE_BOT = """
from server.bots.models import BotProfile
BotProfile.objects.update_or_create(slug="bench-300", defaults=dict(
    game="connect4", name="Bench", level=4, algorithm="alphabeta", time_budget_ms={budget}, max_depth=None,
    listed=False))
"""


async def measure(stack: LiveStack, replies: int, seed: int) -> list[tuple[float, float]]:
    """(reply latency ms, queued ms) for `replies` bot replies, over as many games as it takes."""
    rng = random.Random(seed)
    samples: list[tuple[float, float]] = []
    while len(samples) < replies:
        _, token = stack.guest()
        seats = [{"kind": "human"}, {"kind": "bot", "profile": "bench-300"}]
        match = stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, token)
        async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
            state = json.loads(await ws.recv())
            legal, ply = state["match"]["legal_moves"], state["match"]["ply"]
            while len(samples) < replies:
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
                frame = None
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                    if frame["type"] in ("game_over", "error") or (frame["type"] == "move" and frame["seat"] == 1):
                        break
                if frame["type"] != "move":
                    break
                samples.append(((time.perf_counter() - sent) * 1000, frame["stats"]["queued_ms"]))
                if not frame["legal_moves"]:
                    break
                legal, ply = frame["legal_moves"], frame["ply"] + 1
    return samples


def report(mode: str, samples: list[tuple[float, float]], budget: int) -> None:
    latency = sorted(s[0] for s in samples)
    queued = sorted(s[1] for s in samples)
    p90 = latency[int(0.9 * (len(latency) - 1))]
    print(
        f"{mode:11} replies={len(samples):3}  latency ms: median {statistics.median(latency):6.1f}"
        f"  p90 {p90:6.1f}  max {latency[-1]:6.1f}  |  queued ms: median {statistics.median(queued):5.1f}"
        f"  max {queued[-1]:5.1f}  |  median over budget {statistics.median(latency) - budget:+5.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--replies", type=int, default=20)
    parser.add_argument("--budget-ms", type=int, default=300)
    args = parser.parse_args()
    print(f"Connect Four, alpha-beta bot with a {args.budget_ms} ms budget, {args.replies} replies per mode")
    for mode, embedded in (("full stack", False), ("embedded", True)):
        with LiveStack(embedded=embedded) as stack:
            stack.manage("shell", "-c", MAKE_BOT.format(budget=args.budget_ms))
            report(mode, asyncio.run(measure(stack, args.replies, seed=1)), args.budget_ms)


if __name__ == "__main__":
    main()

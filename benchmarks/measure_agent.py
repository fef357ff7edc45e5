"""Measure my agent, the long version: an agent run by the client is measured against a ladder.

On a fresh full stack (daphne, a Celery worker, Redis; the seeded ratings), a bot account
runs `--agent` through clients/plyground_bot while the site plays a measurement
(docs/bots.md, "Measuring a bot"); prints the table per step, the agent's rating with its
95 % interval, and, for an agent that searches as a house bot does, that house bot's own
rating: the two should agree.

    .venv/bin/python benchmarks/measure_agent.py --agent random --games-per-step 10 [--openings standard]
    .venv/bin/python benchmarks/measure_agent.py --agent house:connect4-master \
        --steps connect4-deep,connect4-master --games-per-step 10
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients"), str(ROOT / "examples")]

from plyground_bot import connect  # noqa: E402
from random_agent import RandomAgent  # noqa: E402
from search_agent import SearchAgent, house_config  # noqa: E402

from tests.support import LiveStack  # noqa: E402

SETUP = """
from server.agents.services import bot_account_create
from server.players.models import ApiToken, Player
owner = Player.objects.create(name="Margot", is_guest=False)
print("OWNER", ApiToken.issue(owner))
print("BOT", ApiToken.issue(bot_account_create(owner, "Quokka")))
"""


def agent_for(spec: str, seed: int) -> object:
    if spec == "random":
        return RandomAgent(seed)
    if spec.startswith("house:"):
        return SearchAgent(house_config(spec.removeprefix("house:"), seed))
    raise SystemExit(f"--agent is random or house:<slug>, not {spec!r}")


async def run(stack: LiveStack, args: argparse.Namespace, owner: str, bot: str) -> dict:
    body = {
        "game": args.game,
        "games_per_step": args.games_per_step,
        "steps": [s for s in args.steps.split(",") if s],
        "clock": {"minutes": args.minutes, "increment": args.increment},
        "openings": args.openings or None,
    }
    async with connect(stack.url, bot, agent_for(args.agent, args.seed)):
        measurement = stack.api("POST", "/api/agents/Quokka/measurements/", body, owner)
        shown = -1
        while measurement["status"] in ("queued", "running"):
            await asyncio.sleep(2)
            measurement = stack.api("GET", f"/api/agents/measurements/{measurement['id']}/", token=bot)
            progress = measurement["progress"]
            if progress["finished"] != shown:
                shown = progress["finished"]
                print(f"  {shown}/{progress['total']} games", flush=True)
        return measurement


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="random", help="random, or house:<slug> (searches as that house bot)")
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--steps", default="", help="comma-separated step slugs; none: the whole ladder")
    parser.add_argument("--games-per-step", type=int, default=10)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--increment", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--openings", default="", help="an opening set (standard); none: the initial position")
    args = parser.parse_args()
    started = time.monotonic()
    with LiveStack() as stack:
        stack.manage("seed_bots")
        printed = stack.manage("shell", "-c", SETUP).splitlines()
        tokens = dict(line.split() for line in printed if line.startswith(("OWNER ", "BOT ")))
        measurement = asyncio.run(run(stack, args, tokens["OWNER"], tokens["BOT"]))
        house = {b["slug"]: b for b in stack.api("GET", f"/api/bots/?game={args.game}")}
    result = measurement["result"] or {}
    openings = f", openings {args.openings}" if args.openings else ""
    print(f"\n{args.agent} on {args.game}{openings}: {measurement['status']} {measurement['reason'] or ''}")
    print(f"{'step':<24} {'rating':>7} {'±':>4} {'games':>5} {'W-D-L':>8} {'score':>6}")
    for row in result.get("steps", []):
        wdl = f"{row['wins']}-{row['draws']}-{row['losses']}"
        print(f"{row['step']:<24} {row['step_rating']:>7} {row['step_deviation']:>4} {row['games']:>5} {wdl:>8} "
              f"{row['score'] if row['score'] is not None else '-':>6}")  # fmt: skip
    if result:
        print(f"agent's rating: {result['rating']} ({result['low']}-{result['high']}, 95 %), {result['games']} games")
    if args.agent.startswith("house:") and (own := house.get(args.agent.removeprefix("house:"))):
        print(f"that house bot's own rating: {own['rating']:.0f} ± {1.96 * own['deviation']:.0f} (95 %)")
    print(f"wall time {time.monotonic() - started:.0f} s; aborted games {measurement['progress']['aborted']}")


if __name__ == "__main__":
    main()

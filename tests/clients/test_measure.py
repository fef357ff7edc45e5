"""Measure my agent on the real stack (daphne, a Celery worker, Redis): the random agent, run by
the client as a researcher runs it, plays the ladder's lowest steps and is rated below them.

The short version of `benchmarks/measure_agent.py`: two steps, two games each, quick clocks.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import urllib.request

import pytest

from tests.support import ROOT, LiveStack

sys.path.insert(0, str(ROOT / "clients"))
sys.path.insert(0, str(ROOT / "examples"))

from plyground_bot import Move, connect  # noqa: E402  # the client as its users import it
from random_agent import RandomAgent  # noqa: E402

pytestmark = pytest.mark.fullstack
RUN_TIMEOUT_S = 240

SETUP = """
from server.agents.services import bot_account_create
from server.players.models import ApiToken, Player
owner = Player.objects.create(name="Owner{suffix}", is_guest=False)
print("OWNER", ApiToken.issue(owner))
print("BOT", ApiToken.issue(bot_account_create(owner, "Quokka{suffix}")))
"""


@pytest.fixture
def stack(live_stack: LiveStack) -> LiveStack:
    """The run's shared stack, with the ladder's measured ratings as `make run` puts them in."""
    live_stack.manage("seed_bots")
    return live_stack


async def measured(stack: LiveStack, steps: list[str], agent: object = None, **request: object) -> tuple[dict, str]:
    """The run, played to its end by `agent` (the random agent by default), and the bot's token."""
    suffix = "".join(random.choices("bcdfghjkmnpqrstvxz", k=8))  # names of its own on the shared stack
    printed = stack.manage("shell", "-c", SETUP.format(suffix=suffix)).splitlines()
    tokens = dict(line.split() for line in printed if line.startswith(("OWNER ", "BOT ")))
    async with connect(stack.url, tokens["BOT"], agent or RandomAgent(seed=7)):
        body = {"game": "connect4", "games_per_step": 2, "steps": steps, "clock": {"minutes": 1, "increment": 1}}
        run = stack.api("POST", f"/api/agents/Quokka{suffix}/measurements/", {**body, **request}, tokens["OWNER"])
        while run["status"] in ("queued", "running"):
            await asyncio.sleep(0.5)
            run = stack.api("GET", f"/api/agents/measurements/{run['id']}/", token=tokens["BOT"])
        return run, tokens["BOT"]


def test_the_random_agent_is_measured_below_the_lowest_step(stack):
    ladder = [b for b in stack.api("GET", "/api/bots/?game=connect4") if b["level"] >= 1 and not b["adaptive"]]
    steps = sorted(ladder, key=lambda b: b["level"])[:2]
    run, _ = asyncio.run(asyncio.wait_for(measured(stack, [s["slug"] for s in steps]), RUN_TIMEOUT_S))
    assert run["status"] == "done", run
    assert run["progress"] == {"finished": 4, "total": 4, "aborted": 0, "playing": None}
    result = run["result"]
    assert result["games"] == 4 and [r["games"] for r in result["steps"]] == [2, 2]
    assert result["rating"] < min(s["rating"] for s in steps)
    for match_id in run["matches"]:
        match = stack.api("GET", f"/api/matches/{match_id}/")
        assert match["status"] == "finished" and match["rated"] is False
        kinds = sorted(seat["player"]["kind"] if seat["player"] else seat["kind"] for seat in match["seats"])
        assert kinds == ["agent", "bot"], match["seats"]


class Reporting(RandomAgent):
    """The random agent, sending figures of its own with each move as a searching agent would."""

    async def on_turn(self, turn) -> Move:
        return Move(self.random.choice(turn.legal_moves), {"nodes": len(turn.legal_moves), "ply": turn.ply})


def test_a_run_from_the_standard_openings_keeps_and_exports_the_agents_stats(stack):
    from server.agents.openings import opening_set

    lowest = min((b for b in stack.api("GET", "/api/bots/?game=connect4") if b["level"] >= 1), key=lambda b: b["level"])
    request = {"games_per_step": 4, "openings": "standard"}
    run, token = asyncio.run(
        asyncio.wait_for(measured(stack, [lowest["slug"]], Reporting(seed=3), **request), RUN_TIMEOUT_S)
    )
    assert run["status"] == "done" and run["openings"] == "standard", run
    assert run["progress"] == {"finished": 4, "total": 4, "aborted": 0, "playing": None}
    lines = opening_set("standard", "connect4")
    for match_id, opening in zip(run["matches"], (0, 0, 1, 1), strict=True):  # each opening with both colours
        match = stack.api("GET", f"/api/matches/{match_id}/")
        plies = match["opening_plies"]
        assert plies == len(lines[opening]) and [m["move"] for m in match["moves"][:plies]] == list(lines[opening])
        own = [m for m in match["moves"][plies:] if m["by"]["kind"] == "agent"]
        assert own and all(m["stats"] == {"nodes": m["stats"]["nodes"], "ply": m["ply"]} for m in own)
    request = urllib.request.Request(f"{stack.url}/api/agents/measurements/{run['id']}/export/jsonl/")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        games = [json.loads(line) for line in answer.read().decode().splitlines()]
    assert [g["opening"]["index"] for g in games] == [0, 0, 1, 1]
    assert all(
        m["stats"]["ply"] == m["ply"] for g in games for m in g["moves"] if m["by"] == "agent" and not m["opening"]
    )

"""Measure my agent on the real stack (daphne, a Celery worker, Redis): the random agent, run by
the client as a researcher runs it, plays the ladder's lowest steps and is rated below them.

The short version of `benchmarks/measure_agent.py`: two steps, two games each, quick clocks.
"""

from __future__ import annotations

import asyncio
import random
import sys

import pytest

from tests.support import ROOT, LiveStack

sys.path.insert(0, str(ROOT / "clients"))
sys.path.insert(0, str(ROOT / "examples"))

from plyground_bot import connect  # noqa: E402  # the client as its users import it
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


async def measured(stack: LiveStack, steps: list[str]) -> dict:
    suffix = "".join(random.choices("bcdfghjkmnpqrstvxz", k=8))  # names of its own on the shared stack
    printed = stack.manage("shell", "-c", SETUP.format(suffix=suffix)).splitlines()
    tokens = dict(line.split() for line in printed if line.startswith(("OWNER ", "BOT ")))
    async with connect(stack.url, tokens["BOT"], RandomAgent(seed=7)):
        body = {"game": "connect4", "games_per_step": 2, "steps": steps, "clock": {"minutes": 1, "increment": 1}}
        run = stack.api("POST", f"/api/agents/Quokka{suffix}/measurements/", body, tokens["OWNER"])
        while run["status"] in ("queued", "running"):
            await asyncio.sleep(0.5)
            run = stack.api("GET", f"/api/agents/measurements/{run['id']}/", token=tokens["BOT"])
        return run


def test_the_random_agent_is_measured_below_the_lowest_step(stack):
    ladder = [b for b in stack.api("GET", "/api/bots/?game=connect4") if b["level"] >= 1 and not b["adaptive"]]
    steps = sorted(ladder, key=lambda b: b["level"])[:2]
    run = asyncio.run(asyncio.wait_for(measured(stack, [s["slug"] for s in steps]), RUN_TIMEOUT_S))
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

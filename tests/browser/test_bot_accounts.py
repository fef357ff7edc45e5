"""A person challenges a bot account from its profile and meets it in the match room, disclosed as an AI."""

from __future__ import annotations

import asyncio
import random
import re
import sys
import threading

from playwright.sync_api import expect

from tests.support import ROOT, LiveStack

sys.path.insert(0, str(ROOT / "clients"))
sys.path.insert(0, str(ROOT / "examples"))

from plyground_bot import BotClient  # noqa: E402  # the client as its users import it
from random_agent import RandomAgent  # noqa: E402

SETUP = """
from server.agents.services import bot_account_create
from server.players.models import ApiToken, Player
owner = Player.objects.create(name="{owner}", is_guest=False)
print("TOKEN", ApiToken.issue(bot_account_create(owner, "{bot}")))
"""


def a_bot(stack: LiveStack) -> tuple[str, str, str]:
    """A bot account on the shared stack (names of their own: the stack lives for the whole run)."""
    suffix = "".join(random.choices("bcdfghjkmnpqrstvxz", k=8))
    owner, bot = f"Owner{suffix}", f"Quokka{suffix}"
    lines = stack.manage("shell", "-c", SETUP.format(owner=owner, bot=bot)).splitlines()
    return owner, bot, next(line.split()[1] for line in lines if line.startswith("TOKEN "))


def run_agent(url: str, token: str, stop: threading.Event) -> None:
    async def main() -> None:
        client = BotClient(url, token, RandomAgent(seed=1))
        task = asyncio.ensure_future(client.run())
        while not stop.is_set():
            await asyncio.sleep(0.1)
        await client.stop()
        task.cancel()

    asyncio.run(main())


def test_a_person_challenges_a_bot_account_and_sees_it_disclosed_as_ai(new_page, plyground, screenshot):
    owner, bot, token = a_bot(plyground)
    stop = threading.Event()
    agent = threading.Thread(target=run_agent, args=(plyground.url, token, stop), daemon=True)
    agent.start()
    try:
        page = new_page(f"/players/{bot}/")
        expect(page.locator("#profile-heading").get_by_test_id("ai-badge")).to_have_text(f"AI · by {owner}")
        expect(page.get_by_test_id("agent-section")).to_contain_text(f"registered by {owner}")
        form = page.get_by_test_id("challenge-form")
        form.locator("select[name=game]").select_option("chess")  # seats by the game's own names
        expect(form.locator("select[name=seat] option")).to_have_text(["white", "black"])
        expect(form.locator("select[name=game] option[value=chinese-checkers]")).to_have_count(0)  # for three
        form.locator("select[name=game]").select_option("connect4")
        page.get_by_role("button", name=f"Challenge {bot}").click()
        page.wait_for_url(re.compile(r"/matches/\d+/"), timeout=20_000)
        expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
        seat = page.locator("#seats li").nth(1)
        expect(seat.locator(".player-name")).to_have_text(bot)
        expect(seat.get_by_test_id("ai-badge")).to_have_text(f"AI · by {owner}")
        expect(seat.get_by_test_id("guest-badge")).to_have_count(0)
        screenshot(page, "bot-account-seat")
    finally:
        stop.set()
        agent.join(10)

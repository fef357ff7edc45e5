"""A person challenges a bot account from its profile and meets it in the match room, disclosed as an AI."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import threading

from playwright.sync_api import expect

from tests.support import ROOT, LiveStack

sys.path.insert(0, str(ROOT / "clients"))
sys.path.insert(0, str(ROOT / "examples"))

from plyground_bot import BotClient, ClosedForGood  # noqa: E402  # the client as its users import it
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


def signed_up_on_a_phone(new_page, owner: str, suffix: str):
    """A person signs up on a phone-sized page and opens the account page; the page, and its bot-accounts section."""
    page = new_page("/signup/", viewport={"width": 360, "height": 740})
    page.get_by_label("Display name").fill(owner)
    page.get_by_label("E-mail address").fill(f"{suffix}@example.org")
    page.get_by_label("Password", exact=True).fill("a-long-enough-secret-9")
    page.get_by_label("Password again").fill("a-long-enough-secret-9")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/players/"))
    page.goto("/account/")
    return page, page.get_by_test_id("bot-accounts")


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


def test_a_person_registers_a_bot_account_gives_it_a_token_and_revokes_it_on_a_phone(new_page, plyground, screenshot):
    """The owner's side, as a person does it: sign up, register the bot on the account page, copy its
    token into a program, see the program accepted, revoke the token and the program is let go."""
    suffix = "".join(random.choices("bcdfghjkmnpqrstvxz", k=8))
    owner, bot = f"Owner{suffix}", f"Wombat{suffix}"
    page, section = signed_up_on_a_phone(new_page, owner, suffix)
    section.get_by_label("Name").fill(f"{bot} AI")  # the name policy is everyone's: no AI words
    section.get_by_role("button", name="Register a bot account").click()
    expect(section.get_by_test_id("bot-status")).to_contain_text("AI or a bot")
    section.get_by_label("Name").fill(bot)
    section.get_by_role("button", name="Register a bot account").click()
    entry = section.locator(f'[data-bot="{bot}"]')
    expect(entry.get_by_test_id("ai-badge")).to_have_text(f"AI · by {owner}")
    entry.get_by_role("button", name="New token").click()
    token = entry.get_by_test_id("token-value").inner_text()
    expect(entry.get_by_test_id("token-list").locator("li")).to_have_count(1)
    screenshot(page, "bot-account-token-phone")

    ended, why = threading.Event(), []

    def program() -> None:
        try:
            asyncio.run(BotClient(plyground.url, token, RandomAgent(seed=2)).run())
        except ClosedForGood as exc:  # what a refused token ends the client with
            why.append(exc.code)
        ended.set()

    threading.Thread(target=program, daemon=True).start()
    challenger = new_page(f"/players/{bot}/")
    challenger.get_by_test_id("challenge-form").locator("select[name=game]").select_option("tictactoe")
    challenger.get_by_role("button", name=f"Challenge {bot}").click()
    challenger.wait_for_url(re.compile(r"/matches/\d+/"), timeout=20_000)  # the program took it with the token

    entry.get_by_test_id("token-list").get_by_role("button", name="Revoke").click()
    expect(entry.get_by_test_id("token-list").locator("li")).to_have_count(0)
    assert ended.wait(20) and why == [4401], "the program was not let go when its token was revoked"


def test_the_owner_measures_a_bot_against_the_house_ladder_and_follows_the_run_on_a_phone(
    new_page, plyground, screenshot
):
    """Start a measurement on the account page while the program plays: its progress, the rating so
    far and the table per house bot follow the games; the owner cancels it."""
    plyground.manage("seed_bots")  # make run's set-up: the ladder's measured ratings
    suffix = "".join(random.choices("bcdfghjkmnpqrstvxz", k=8))
    owner, bot = f"Owner{suffix}", f"Numbat{suffix}"
    page, section = signed_up_on_a_phone(new_page, owner, suffix)
    section.get_by_label("Name").fill(bot)
    section.get_by_role("button", name="Register a bot account").click()
    entry = section.locator(f'[data-bot="{bot}"]')
    entry.get_by_role("button", name="New token").click()
    token = entry.get_by_test_id("token-value").inner_text()
    stop = threading.Event()
    agent = threading.Thread(target=run_agent, args=(plyground.url, token, stop), daemon=True)
    agent.start()
    try:
        measure = entry.get_by_test_id("measure")
        measure.locator("summary").click()
        form = measure.get_by_test_id("measure-form")
        form.get_by_label("Game", exact=True).select_option("connect4")
        form.get_by_label("Games against each house bot").select_option("2")
        form.get_by_label("Openings").select_option("standard")
        form.get_by_role("button", name="Start").click()
        run = measure.get_by_test_id("measurement")
        expect(run.get_by_test_id("measure-progress")).to_contain_text(
            re.compile(r"Connect Four: running, \d+ of 10 games played")
        )
        expect(run.get_by_test_id("measure-table").locator("tr[data-step]")).to_have_count(5)  # the ladder, 1 to 5
        # The program plays; the page follows without a reload.
        expect(run.get_by_test_id("measure-result")).to_contain_text("so far", timeout=90_000)
        expect(run.locator('tr[data-step="connect4-shallow"] td').nth(2)).not_to_have_text("0")
        # Its games, from the standard openings, every move with the stats: JSONL and CSV (PGN is chess's).
        links = run.get_by_test_id("measure-export").get_by_role("link")
        expect(links).to_have_text(["JSONL", "CSV"])
        exported = page.request.get(links.first.get_attribute("href"))
        first = json.loads(exported.text().splitlines()[0])
        assert exported.ok and first["opening"] == {"set": "standard", "index": 0}, exported.text()[:300]
        assert first["moves"][0]["opening"] is True and first["game"] == "connect4"
        # The owner opts the bot's games into research exports.
        research = entry.get_by_test_id("bot-research")
        expect(research).to_be_enabled()
        expect(research).not_to_be_checked()
        research.check()
        expect(section.get_by_test_id("bot-status")).to_contain_text("go into research exports from now on")
        assert page.request.get(f"/api/agents/{bot}/consent/").json()["research"] is True
        wide = page.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361)"
            ".map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12)"
        )
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 360, wide
        screenshot(page, "measure-bot-phone")
        run.get_by_role("button", name="Cancel the run").click()
        expect(measure.get_by_test_id("measurement")).to_have_attribute("data-status", "cancelled")
        expect(measure.get_by_test_id("measure-progress")).to_contain_text("cancelled")
    finally:
        stop.set()
        agent.join(10)

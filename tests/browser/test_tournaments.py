"""The tournament pages on a phone and a desktop: created from the form, joined, started by the
tick, every change seen live on the other page; bots shown as AI."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.browser.test_research import sign_up

PHONE = {"width": 360, "height": 740}
ADD_HOUSE_BOT = """
from server.bots.models import BotProfile
from server.tournaments import services
services.house_bot_add({tid}, BotProfile.objects.get(slug="tictactoe-random"))
"""
START_NOW = """
from django.utils import timezone
from server.tournaments.models import Tournament
Tournament.objects.filter(pk={tid}).update(starts_at=timezone.now())
"""


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def test_a_tournament_created_joined_and_started_live(new_page, plyground, screenshot):
    name = f"Host{uuid.uuid4().hex[:6]}"
    phone = new_page("/", viewport=PHONE)
    sign_up(phone, name, f"{name.lower()}@example.org")
    phone.goto("/")
    phone.get_by_test_id("nav-tournaments").click()
    phone.wait_for_url(re.compile(r"/tournaments/$"))
    form = phone.get_by_test_id("create-form")
    form.locator("input[name=name]").fill(f"{name} cup")
    form.locator("select[name=game]").select_option("tictactoe")
    form.locator("select[name=entry]").select_option("open")
    form.locator("input[name=rounds]").fill("2")
    no_sideways_scroll(phone)
    form.get_by_role("button", name="Create").click()
    phone.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    tid = int(phone.url.rstrip("/").rsplit("/", 1)[1])
    expect(phone.locator("#tournament")).to_have_attribute("data-ready", "true")
    expect(phone.get_by_test_id("tournament-facts")).to_contain_text("Swiss · Tic-tac-toe · 3+2 · 2 rounds")
    expect(phone.get_by_test_id("tournament-status")).to_contain_text("0 of 16 entered")

    desktop = new_page(f"/tournaments/{tid}/")  # a guest watching: told to sign up to play
    expect(desktop.locator("#tournament")).to_have_attribute("data-ready", "true")
    expect(desktop.get_by_test_id("tournament-actions")).to_contain_text("Sign up or log in to play")

    phone.get_by_test_id("join").click()
    expect(phone.get_by_test_id("withdraw")).to_be_visible()
    expect(desktop.get_by_test_id("standing-1")).to_contain_text(name)  # live, without a reload
    expect(desktop.get_by_test_id("tournament-status")).to_contain_text("1 of 16 entered")

    plyground.manage("shell", "-c", ADD_HOUSE_BOT.format(tid=tid))  # an admin enters a house bot
    bot_row = desktop.get_by_test_id("standings").locator("tr", has_text="AI")
    expect(bot_row.get_by_test_id("ai-badge")).to_contain_text("AI · level 0")
    expect(phone.get_by_test_id("standings").get_by_test_id("ai-badge")).to_be_visible()

    plyground.manage("shell", "-c", START_NOW.format(tid=tid))  # its time came: the next tick starts it
    for page in (phone, desktop):
        expect(page.get_by_test_id("tournament-status")).to_contain_text("round 1 of 2", timeout=30_000)
        pairing = page.get_by_test_id("pairing")
        expect(pairing).to_have_count(1)
        expect(pairing.get_by_test_id("ai-badge")).to_be_visible()
        expect(pairing.locator("a")).to_have_attribute("href", re.compile(r"^/matches/\d+/$"))
    no_sideways_scroll(phone)
    screenshot(phone, "tournament-phone")
    screenshot(desktop, "tournament-desktop")

    desktop.goto("/tournaments/")  # the list shows it running, linked
    row = desktop.get_by_test_id(f"tournament-{tid}")
    expect(row).to_contain_text("Under way")
    expect(row.locator("a")).to_have_attribute("href", f"/tournaments/{tid}/")
    expect(desktop.get_by_test_id("create-form")).to_have_count(0)  # a guest is asked to sign up instead

    phone.get_by_test_id("pairing").locator("a").click()  # the game is an ordinary match
    phone.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(phone.locator("#match-room")).to_have_attribute("data-ready", "true")
    expect(phone.get_by_test_id("match-tournament")).to_contain_text(f"A game of {name} cup, round 1 of 2")
    phone.get_by_test_id("match-tournament").locator("a").click()  # and back to the tournament
    phone.wait_for_url(re.compile(rf"/tournaments/{tid}/$"))
    no_sideways_scroll(phone)

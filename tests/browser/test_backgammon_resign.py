"""Backgammon resignations for points in the browser: a person offers a gammon or a single game from a
choice of the three levels, the other person sees the points and declines or accepts, and the result
says how they were counted; a bot answers an offer at once.  Desktop and phone sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import start_bot_match

PHONE = {"width": 360, "height": 780}
SIZES = pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
PANEL = '[data-testid="offer-panel"]'
RESIGN = '[data-testid="resign-offer-button"]'


def offer(page: Page, level: str) -> None:
    """Open the choice of levels and pick one."""
    page.locator(RESIGN).click()
    choice = page.locator(PANEL)
    expect(choice).to_contain_text("Resign this game at cube 1, if your opponent accepts")
    expect(choice.locator('[data-testid="resign-single"]')).to_have_text("A single game")
    expect(choice.locator('[data-testid="resign-backgammon"]')).to_be_visible()
    choice.locator(f'[data-testid="resign-{level}"]').click()


def friend_backgammon(new_page, viewport) -> tuple[Page, Page]:
    host = new_page("/", viewport=viewport)
    host.locator('[data-testid="option-backgammon-cube"]').check()
    host.locator('[data-testid="play-friend-backgammon"]').click()
    host.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(host.locator("#match-room")).to_have_attribute("data-ready", "true")
    friend = new_page(host.locator("#invite-link").input_value(), viewport=viewport)
    friend.locator('[data-testid="join-button"]').click()
    expect(friend.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    expect(host.locator("#match-room")).to_have_attribute("data-status", "active")
    return host, friend


@SIZES
def test_two_people_a_gammon_offered_and_declined_then_a_single_game_accepted(new_page, screenshot, viewport):
    host, friend = friend_backgammon(new_page, viewport)
    offer(host, "gammon")
    expect(host.locator('[data-testid="own-offer"]')).to_contain_text("You offered to resign a gammon: 2 points")
    panel = friend.locator(PANEL)
    expect(panel).to_contain_text("offers to resign a gammon: 2 points (2 points x cube 1 = 2)")
    expect(friend.locator(RESIGN)).to_be_disabled()  # one offer at a time
    screenshot(friend, "offered")
    panel.locator('[data-testid="decline-button"]').click()
    expect(host.locator('[data-testid="offer-answer"]')).to_contain_text("declined the resignation")
    expect(host.locator("#match-room")).to_have_attribute("data-status", "active")  # play goes on

    offer(host, "single")
    panel.locator('[data-testid="accept-button"]').click()
    for page in (host, friend):
        expect(page.locator("#match-room")).to_have_attribute("data-status", "finished")
        expect(page.locator("#result")).to_contain_text("resigned a single game: 1 point x cube 1 = 1")
        expect(page.locator('[data-testid="result-points"]')).to_contain_text("1 point")
        expect(page.locator(RESIGN)).to_be_hidden()
    expect(friend.locator("#move-list")).to_contain_text("resigns a single game")
    expect(friend.locator("#move-list")).not_to_contain_text("seat 0")  # as players say it
    screenshot(host, "accepted")


@SIZES
def test_a_bot_accepts_a_single_game_resigned_at_the_start(new_page, screenshot, viewport):
    page = new_page("/", viewport=viewport)
    page.locator('[data-testid="option-backgammon-cube"]').check()
    start_bot_match(page, "backgammon", "backgammon-master")
    expect(page.locator(RESIGN)).to_be_visible()
    offer(page, "single")  # an even game is worth less to the bot than a point
    expect(page.locator("#match-room")).to_have_attribute("data-status", "finished", timeout=20000)
    expect(page.locator("#result")).to_contain_text("resigned a single game: 1 point x cube 1 = 1")
    screenshot(page, "bot-accepted")


def test_games_without_levels_show_no_resignation_for_points(new_page):
    page = new_page("/", viewport=PHONE)
    start_bot_match(page, "connect4", "connect4-random")
    expect(page.locator('[data-testid="takeback-button"], [data-testid="resign-button"]').first).to_be_attached()
    expect(page.locator(RESIGN)).to_be_hidden()

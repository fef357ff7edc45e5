"""Consent in a browser (docs/exports.md, "Consent"): a guest's notice, answered once and kept; an account's
setting on its account page. At phone and desktop sizes."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.helpers import start_bot_match
from tests.browser.test_research import sign_up

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
SIZES = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


def _consent(page) -> dict:
    answer = page.request.get("/api/players/me/consent/")
    assert answer.ok, answer.text()
    return answer.json()


def _fits(page) -> None:
    """Nothing wider than the screen: the page never scrolls sideways."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@SIZES
def test_a_guest_is_asked_once_outside_the_match_room_and_keeps_its_answer(new_page, viewport, screenshot):
    page = new_page("/", viewport=viewport)
    notice = page.get_by_test_id("consent-notice")
    expect(notice).to_have_count(0)  # no player yet: nobody to ask
    start_bot_match(page, "tictactoe", "tictactoe-random")
    expect(notice).to_have_count(0)  # a game is not interrupted
    page.goto("/")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Both boxes are off")
    research, training = notice.get_by_test_id("consent-research"), notice.get_by_test_id("consent-training")
    expect(research).not_to_be_checked()
    expect(training).not_to_be_checked()
    _fits(page)
    box = notice.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    screenshot(page, f"notice-{viewport['width']}")
    page.screenshot(path=str(SCREENSHOTS / f"consent-notice-{viewport['width']}-first-screen.png"))  # as first seen

    notice.get_by_label("Include my games in research exports").check()
    notice.get_by_test_id("consent-save").click()
    expect(notice).to_be_hidden()
    expect(page.get_by_test_id("announcer")).to_contain_text("research exports")
    assert _consent(page) == {"research": True, "training": False, "answered": True}
    page.reload()
    expect(page.get_by_test_id("player-name")).to_be_visible()
    expect(notice).to_have_count(0)  # answered: not asked again


@SIZES
def test_an_account_chooses_on_its_account_page_which_says_the_default_and_why(new_page, viewport, screenshot):
    page = new_page("/", viewport=viewport)
    name = "Consent " + "".join(random.choices("bcdfghjkmnpqrstvxz", k=8)).capitalize()  # a shared stack
    sign_up(page, name, f"{name.replace(' ', '.').lower()}@example.org")
    page.goto("/account/")
    section = page.get_by_test_id("consent-settings")
    expect(section).to_contain_text("By default your games are not used")
    expect(section).to_contain_text("consent")
    research, training = section.get_by_test_id("consent-research"), section.get_by_test_id("consent-training")
    expect(research).not_to_be_checked()
    expect(training).not_to_be_checked()
    expect(page.get_by_test_id("consent-notice")).to_have_count(0)  # accounts choose here
    _fits(page)

    section.get_by_label("Use my games to train Plyground's bots").check()
    section.get_by_test_id("consent-save").click()
    expect(section.get_by_test_id("consent-status")).to_have_text(
        "Saved: your games may be used for training our bots."
    )
    screenshot(page, f"account-{viewport['width']}")
    page.reload()
    expect(training).to_be_checked()
    expect(research).not_to_be_checked()

    training.uncheck()
    section.get_by_test_id("consent-save").click()
    expect(section.get_by_test_id("consent-status")).to_have_text("Saved: your games are used for neither.")
    assert _consent(page) == {"research": False, "training": False, "answered": True}

"""Accounts in a browser: a guest with a running match signs up and keeps it; the profile shows it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.helpers import start_bot_match, wait_my_turn_or_over

PASSWORD = "a-long-enough-secret-9"
PHONE = {"width": 390, "height": 844}


def test_a_guest_signs_up_mid_match_and_keeps_it_on_the_profile(new_page, screenshot):
    page = new_page("/")
    match_id = start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    guest_name = page.locator("#player-name").inner_text().replace("guest", "").strip()
    expect(page.get_by_role("link", name="Sign up")).to_be_visible()

    page.get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    expect(page.locator("main")).to_contain_text(guest_name)  # the guest that becomes the account
    page.get_by_label("Display name").fill("Rook AI")  # refused: names that claim to be a bot
    page.get_by_label("E-mail address").fill("zoe@example.org")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    summary = page.get_by_test_id("error-summary")
    expect(summary).to_contain_text("AI or a bot")
    screenshot(page, "signup-error")

    page.get_by_label("Display name").fill("Zoe Browser")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/players/Zoe%20Browser/$"))
    header = page.get_by_test_id("player-name")
    expect(header.get_by_role("link", name="Zoe Browser")).to_be_visible()
    expect(page.get_by_test_id("account-nav").get_by_role("button", name="Log out")).to_be_visible()
    entry = page.locator(f'[data-match="{match_id}"]')
    expect(entry).to_contain_text("In progress")
    expect(entry.get_by_role("link", name=re.compile("Open"))).to_have_attribute("href", f"/matches/{match_id}/")
    screenshot(page, "profile")

    entry.get_by_role("link", name=re.compile("Open")).click()
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    wait_my_turn_or_over(page)
    assert page.locator("#match-room").get_attribute("data-your-seat") == "0"  # still their seat

    phone = page.context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto("/players/Zoe%20Browser/")
    expect(phone.locator(f'[data-match="{match_id}"]')).to_be_visible()
    screenshot(phone, "profile-phone")


def test_log_out_and_in_again_with_the_keyboard(new_page, screenshot):
    page = new_page("/signup/", viewport=PHONE)
    page.get_by_label("Display name").fill("Keyboard Kim")
    page.get_by_label("E-mail address").fill("kim@example.org")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/players/Keyboard%20Kim/$"))
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Display name or e-mail").fill("keyboard kim")
    page.get_by_label("Password").fill("not the password")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("error-summary")).to_contain_text("do not match")
    screenshot(page, "login-error-phone")
    page.get_by_label("Password").fill(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("player-name").get_by_role("link", name="Keyboard Kim")).to_be_visible()
    page.get_by_role("link", name="Account").click()
    expect(page.get_by_label("Display name")).to_have_value("Keyboard Kim")
    screenshot(page, "account-phone")


def test_an_unknown_name_is_a_not_found_page(new_page):
    page = new_page("/")
    answer = page.goto("/players/Nobody%20Here/")
    assert answer.status == 404  # the page itself (DEBUG off) is checked in tests/server/players/

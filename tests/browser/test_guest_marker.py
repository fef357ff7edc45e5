"""The Guest marker in the match room: a guest's seat and chat lines say "Guest", an account's do not."""

from __future__ import annotations

import random
import re

from playwright.sync_api import expect

from tests.browser.test_chat import lines, say
from tests.browser.test_match_actions import friend_match

PASSWORD = "a-long-enough-secret-9"


def test_a_guest_carries_the_guest_marker_in_the_match_room_and_an_account_does_not(new_page, screenshot):
    host, friend = friend_match(new_page, "connect4")
    room = host.url
    name = "Host " + "".join(random.choices("bcdfghjkmnpqrstvxz", k=8)).capitalize()  # one per run: a shared stack
    host.goto("/signup/")  # the host's guest becomes an account, keeping its seat
    host.get_by_label("Display name").fill(name)
    host.get_by_label("E-mail address").fill(f"{name.replace(' ', '.').lower()}@example.org")
    host.get_by_label("Password", exact=True).fill(PASSWORD)
    host.get_by_label("Password again").fill(PASSWORD)
    host.get_by_role("button", name="Create account").click()
    host.wait_for_url(re.compile(r"/players/"))
    host.goto(room)
    expect(host.locator("#match-room")).to_have_attribute("data-ready", "true")

    friend.reload()
    expect(friend.locator("#match-room")).to_have_attribute("data-ready", "true")
    seats = friend.locator("#seats li")
    expect(seats.nth(0).locator(".player-name")).to_have_text(name)
    expect(seats.nth(0).get_by_test_id("guest-badge")).to_have_count(0)  # an account: its name is its own
    expect(seats.nth(1).get_by_test_id("guest-badge")).to_have_text("Guest")
    expect(seats.nth(1).get_by_test_id("ai-badge")).to_have_count(0)

    say(friend, "good luck")
    expect(lines(host)).to_have_count(1)
    author = lines(host).first.locator(".chat-author")
    expect(author.get_by_test_id("guest-badge")).to_have_text("Guest")
    expect(host.locator("#seats li").nth(1).get_by_test_id("guest-badge")).to_be_visible()
    say(host, "you too")
    expect(lines(friend)).to_have_count(2)
    expect(lines(friend).nth(1).locator(".chat-author")).to_have_text(f"{name}:")  # no marker for an account
    screenshot(friend, "guest-marker")

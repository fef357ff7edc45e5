"""Quick pairing and rematch between two people, each in their own browser context."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

MATCH_URL = re.compile(r"/matches/(\d+)/$")
PHONE = {"width": 390, "height": 844}


def match_id(page: Page) -> int:
    page.wait_for_url(MATCH_URL)
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    return int(page.locator("#match-room").get_attribute("data-match-id"))


def seek(page: Page, game: str, clock: str, casual: bool = False) -> None:
    form = page.locator('[data-testid="seek-form"]')
    expect(form.locator(f'option[value="{game}"]')).to_be_attached()
    form.locator('[data-testid="seek-game"]').select_option(game)
    form.locator('[data-testid="seek-clock"]').select_option(clock)
    if casual:
        form.locator('[data-testid="seek-casual"]').check()
    form.locator('[data-testid="seek-submit"]').click()


def resign(page: Page) -> None:
    page.locator("#resign-button").click()
    page.locator("#resign-button").click()  # confirm
    expect(page.locator("#match-room")).to_have_attribute("data-status", "finished")


def test_two_seeks_open_one_match_on_both_pages(new_page, screenshot):
    alice = new_page("/")
    bob = new_page("/", viewport=PHONE)
    seek(alice, "connect4", "3+2")
    expect(alice.locator('[data-testid="my-seek"]')).to_contain_text("Connect Four")
    row = bob.locator('[data-testid="seek-list"] li')
    expect(row).to_have_count(1)
    expect(row).to_contain_text("3 min + 2 s")
    screenshot(alice, "seeking")
    screenshot(bob, "seek-shown-phone")
    seek(bob, "connect4", "3+2")
    assert match_id(alice) == match_id(bob)
    screenshot(bob, "paired-phone")


def test_clicking_an_open_seek_opens_the_match_on_both_pages(new_page):
    alice, bob = new_page("/"), new_page("/")
    seek(alice, "tictactoe", "", casual=True)
    bob.locator('[data-testid="seek-list"] button', has_text="Play").click()
    assert match_id(alice) == match_id(bob)


def test_a_cancelled_seek_leaves_the_other_lobby(new_page):
    alice, bob = new_page("/"), new_page("/")
    seek(alice, "othello", "5+3")
    expect(bob.locator('[data-testid="seek-list"] li')).to_have_count(1)
    alice.locator('[data-testid="seek-cancel"]').click()
    expect(bob.locator('[data-testid="seek-list"] li')).to_have_count(0)
    expect(alice.locator('[data-testid="seek-form"]')).to_be_visible()


def test_rematch_is_offered_accepted_in_place_and_declined_visibly(new_page, screenshot):
    alice, bob = new_page("/"), new_page("/")
    seek(alice, "tictactoe", "")
    seek(bob, "tictactoe", "")
    first = match_id(alice)
    assert match_id(bob) == first
    resign(alice)
    expect(bob.locator("#match-room")).to_have_attribute("data-status", "finished")

    alice.locator("#rematch-button").click()
    expect(alice.locator('[data-testid="rematch-panel"]')).to_contain_text("Waiting for")
    expect(bob.locator('[data-testid="rematch-panel"]')).to_contain_text("offers a rematch")
    bob.locator('[data-testid="rematch-decline"]').click()
    expect(alice.locator('[data-testid="rematch-note"]')).to_contain_text("declined the rematch")
    expect(bob.locator('[data-testid="rematch-note"]')).to_contain_text("You declined")
    screenshot(alice, "rematch-declined")

    bob.locator("#rematch-button").click()
    expect(alice.locator('[data-testid="rematch-accept"]')).to_be_visible()
    screenshot(alice, "rematch-offered")
    seat_before = alice.locator("#match-room").get_attribute("data-your-seat")
    alice.locator('[data-testid="rematch-accept"]').click()
    alice.wait_for_url(re.compile(rf"/matches/(?!{first}/)\d+/$"))
    bob.wait_for_url(re.compile(rf"/matches/(?!{first}/)\d+/$"))
    second = match_id(alice)
    assert match_id(bob) == second != first
    expect(alice.locator("#match-room")).not_to_have_attribute("data-your-seat", seat_before)  # colours swapped

"""Takebacks, offers, clocks and presence in the match room (docs/wire.md), in a real browser."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.helpers import start_bot_match, wait_my_turn_or_over


def friend_match(new_page, game: str, clock: str = ""):
    host = new_page("/")
    if clock:
        host.locator(f'[data-testid="clock-{game}"]').select_option(clock)
    host.locator(f'[data-testid="play-friend-{game}"]').click()
    host.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(host.locator("#match-room")).to_have_attribute("data-ready", "true")
    expect(host.locator("#status")).to_have_text(re.compile("Waiting for an opponent"))
    friend = new_page(host.locator("#invite-link").input_value())
    friend.locator('[data-testid="join-button"]').click()
    expect(friend.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    return host, friend


def test_takeback_against_a_bot(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    expect(page.locator('[data-testid="draw-button"]')).to_be_hidden()  # bots take no draws
    page.locator('#board [data-move="4"]').click()
    expect(page.locator("#move-list li.move")).to_have_count(2)
    wait_my_turn_or_over(page)
    takeback = page.locator('[data-testid="takeback-button"]')
    expect(takeback).to_have_text("Take back")
    screenshot(page, "before")
    takeback.click()
    expect(page.locator("#move-list li.move")).to_have_count(0)
    expect(page.locator("#match-room")).to_have_attribute("data-ply", "0")
    expect(page.locator("#status")).to_have_text(re.compile("Your move"))
    expect(page.locator("#board [data-move].legal")).to_have_count(7)
    expect(takeback).to_be_hidden()  # nothing left to take back
    page.locator('#board [data-move="3"]').click()  # play goes on from the position before
    expect(page.locator("#move-list li.move")).to_have_count(2)
    expect(page.locator("#move-list li.move").first).to_have_attribute("data-seat", "0")
    expect(page.locator("#move-list li.move .move-text").first).to_have_text("3")


def test_two_people_takeback_request_then_a_draw_by_agreement(new_page, screenshot):
    host, friend = friend_match(new_page, "connect4")
    wait_my_turn_or_over(host)
    host.locator('#board [data-move="4"]').click()
    expect(friend.locator("#move-list li.move")).to_have_count(1)
    host.locator('[data-testid="takeback-button"]').click()
    expect(host.locator('[data-testid="offer-panel"]')).to_contain_text("Waiting for an answer")
    panel = friend.locator('[data-testid="offer-panel"]')
    expect(panel).to_contain_text("asks to take back their last move")
    screenshot(friend, "request")
    panel.locator('[data-testid="accept-button"]').click()
    for page in (host, friend):
        expect(page.locator("#move-list li.move")).to_have_count(0)
        expect(page.locator('[data-testid="offer-panel"]')).to_be_hidden()
    expect(host.locator("#status")).to_have_text(re.compile("Your move"))

    friend.locator('[data-testid="draw-button"]').click()
    expect(host.locator('[data-testid="offer-panel"]')).to_contain_text("offers a draw")
    host.locator('[data-testid="decline-button"]').click()
    expect(friend.locator('[data-testid="offer-panel"]')).to_be_hidden()
    friend.locator('[data-testid="draw-button"]').click()
    host.locator('[data-testid="accept-button"]').click()
    for page in (host, friend):
        expect(page.locator("#result")).to_contain_text("Draw")
        expect(page.locator("#result")).to_contain_text("draw agreed")


def test_clocks_run_and_an_opponent_who_leaves_is_shown_with_a_countdown(new_page, screenshot):
    host, friend = friend_match(new_page, "connect4", clock="3+2")
    for ply, (mover, move) in enumerate([(host, "4"), (friend, "4")]):  # the first moves: no clock runs yet
        wait_my_turn_or_over(mover)
        mover.locator(f'#board [data-move="{move}"]').click()
        expect(host.locator("#match-room")).to_have_attribute("data-ply", str(ply + 1))
    expect(host.locator('[data-testid="clock-0"]')).to_have_class(re.compile("running"))
    expect(host.locator('[data-testid="clock-1"]')).to_have_text("3:00")
    host.wait_for_function("() => document.querySelector('[data-testid=clock-0]').textContent !== '3:00'")
    wait_my_turn_or_over(host)
    host.locator('#board [data-move="3"]').click()
    expect(friend.locator('[data-testid="clock-1"]')).to_have_class(re.compile("running"))
    expect(friend.locator('[data-testid="clock-0"]')).to_have_text(re.compile(r"^3:0[0-2]$"))  # + 2 s increment
    friend.close()
    note = host.locator('[data-testid="presence-note"]')
    expect(note).to_contain_text("Your opponent disconnected")
    expect(note).to_contain_text("abandonment")
    screenshot(host, "opponent-gone")

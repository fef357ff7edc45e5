"""Rated or casual, as the match room and the lobby show it (the match object's `rated`)."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from tests.browser.test_ratings import sign_up

MEANINGS = {"Rated": "the result changes the players' ratings", "Casual": "ratings do not change"}


def expect_room_tag(page: Page, word: str) -> None:
    tag = page.locator('[data-testid="match-rated"]')
    expect(tag).to_have_attribute("data-rated", str(word == "Rated").lower())
    expect(tag.locator(".tag")).to_have_text(word)
    expect(tag.locator(".tag")).to_have_attribute("title", MEANINGS[word])
    expect(tag).to_have_text(f"{word}: {MEANINGS[word]}")  # what a screen reader reads
    expect(page.locator("#match-title")).to_have_text(re.compile(r" · match \d+$"))  # the title itself unchanged


def expect_lobby_tag(lobby: Page, section: str, match_id: int, word: str) -> None:
    tag = lobby.locator(f'#{section} [data-testid="rated-{match_id}"]')
    expect(tag).to_contain_text(word)
    expect(tag).to_have_attribute("title", MEANINGS[word])


def test_a_rated_match_between_two_people_says_so_everywhere(new_page, screenshot):
    lobby = new_page("/")
    expect(lobby.locator("#games .game-card").first).to_be_visible()
    host = new_page("/")
    tag = uuid.uuid4().hex[:6]
    sign_up(host, f"Host{tag}")  # rated games are between accounts
    host.locator('[data-testid="rated-tictactoe"]').select_option("rated")
    host.locator('[data-testid="play-friend-tictactoe"]').click()
    host.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(host.locator("#match-room")).to_have_attribute("data-ready", "true")
    match_id = int(host.locator("#match-room").get_attribute("data-match-id"))
    expect_room_tag(host, "Rated")
    expect_lobby_tag(lobby, "open-matches", match_id, "Rated")

    friend = new_page("/", viewport={"width": 390, "height": 844})
    sign_up(friend, f"Friend{tag}")
    friend.goto(host.locator("#invite-link").input_value())
    friend.locator('[data-testid="join-button"]').click()
    expect(friend.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    expect_room_tag(friend, "Rated")
    expect_room_tag(host, "Rated")
    expect_lobby_tag(lobby, "live-matches", match_id, "Rated")
    assert friend.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(friend, "phone")
    screenshot(lobby, "lobby")


def test_a_casual_match_says_casual(new_page, plyground):
    lobby = new_page("/")
    expect(lobby.locator("#games .game-card").first).to_be_visible()
    host = new_page("/")
    host.locator('[data-testid="play-friend-connect4"]').click()  # casual unless asked
    host.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(host.locator("#match-room")).to_have_attribute("data-ready", "true")
    match_id = int(host.locator("#match-room").get_attribute("data-match-id"))
    assert plyground.api("GET", f"/api/matches/{match_id}/")["rated"] is False
    expect_room_tag(host, "Casual")
    expect_lobby_tag(lobby, "open-matches", match_id, "Casual")
    friend = new_page(host.locator("#invite-link").input_value())
    friend.locator('[data-testid="join-button"]').click()
    expect(friend.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    expect_room_tag(friend, "Casual")
    expect_lobby_tag(lobby, "live-matches", match_id, "Casual")

"""Backgammon with the doubling cube in the browser: the option chosen in the lobby, the cube drawn
in the tray, Double offered before the roll (by keyboard), and a bot answering through its turn."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import start_bot_match, wait_my_turn_or_over

CUBE = '#board [data-testid="bg-cube"]'
DOUBLE = '[data-testid="bg-double"]'
TAKE = '[data-testid="bg-take"]'
CONFIRM = '[data-testid="bg-confirm"]'


def wait_ply_after(page: Page, ply: str | None) -> None:
    page.wait_for_function(f"() => document.getElementById('match-room').dataset.ply !== '{ply}'", timeout=30000)


def play_to_my_cube_decision(page: Page) -> int:
    """Play our turns by clicks (the first checker, its first target) until we may double before
    rolling; the cube's value then.  A double of the bot's (it may be ahead early) is taken."""
    for _ in range(8):
        assert wait_my_turn_or_over(page, timeout=30000) == "active"
        if page.locator(DOUBLE).is_visible():
            return int(page.locator(CUBE).get_attribute("data-value") or "1")
        if page.locator(TAKE).is_visible():
            ply = page.locator("#match-room").get_attribute("data-ply")
            page.locator(TAKE).click()
            wait_ply_after(page, ply)
            continue
        if page.locator('[data-testid="bg-notice"]').is_visible():  # a forced play, made for us
            wait_ply_after(page, page.locator("#match-room").get_attribute("data-ply"))
            continue
        while page.locator("#board .movable").count():
            page.locator("#board .movable").first.click()
            page.locator("#board .target").first.click()
        ply = page.locator("#match-room").get_attribute("data-ply")  # before the play: its answer may be quick
        page.locator(CONFIRM).click()
        wait_ply_after(page, ply)
    raise AssertionError("no cube decision came")


@pytest.mark.parametrize("viewport", [None, {"width": 360, "height": 780}], ids=["desktop", "phone"])
def test_a_person_doubles_a_bot_and_the_bot_answers(new_page, screenshot, viewport):
    page = new_page("/", viewport=viewport)
    page.locator('[data-testid="option-backgammon-cube"]').check()
    start_bot_match(page, "backgammon", "backgammon-master")
    expect(page.locator('[data-testid="match-options"]')).to_contain_text("cube")
    expect(page.locator(CUBE)).to_have_attribute("data-owner", "")  # centred
    expect(page.locator(CUBE)).to_contain_text("64")
    expect(page.locator('[data-testid="bg-score"]')).to_contain_text("Cube 1, centred")
    value = play_to_my_cube_decision(page)  # 1, or 2 where the bot doubled first and we took
    expect(page.locator('[data-testid="bg-roll"]')).to_be_visible()
    expect(page.locator('[data-testid="bg-cube-prompt"]')).to_contain_text("double, or roll")
    screenshot(page, "may-double")
    # Keyboard: the choice has the focus when it comes; Enter doubles.
    expect(page.locator(DOUBLE)).to_be_focused()
    expect(page.locator(DOUBLE)).to_have_text(f"Double to {2 * value}")
    page.keyboard.press("Enter")
    # The bot answers through its turn: a take (the cube doubled, on its side) or a drop (we win the cube).
    page.wait_for_function(
        f"""() => {{
          const room = document.getElementById('match-room');
          const cube = document.querySelector('#board [data-testid="bg-cube"]');
          return room.dataset.status === 'finished' || (cube && cube.dataset.value === '{2 * value}');
        }}""",
        timeout=30000,
    )
    if page.locator("#match-room").get_attribute("data-status") == "finished":
        expect(page.locator('[data-testid="result-points"]')).to_contain_text(f"wins {value} point")
        expect(page.locator(".result")).to_contain_text("double dropped")
    else:
        expect(page.locator(CUBE)).to_have_attribute("data-owner", "1")
        expect(page.locator('[data-testid="bg-score"]')).to_contain_text(f"Cube {2 * value}, owned by")
        expect(page.locator("#move-list")).to_contain_text("take")
    expect(page.locator(DOUBLE)).to_have_count(0)
    screenshot(page, "answered")


def test_a_match_to_n_shows_its_score_line_and_an_invalid_choice_is_explained(new_page):
    page = new_page("/", viewport={"width": 360, "height": 780})
    # The Jacoby rule is for money games: the server says so, and the card shows it.
    page.locator('[data-testid="option-backgammon-jacoby"]').check()
    page.locator('[data-testid="option-backgammon-match_to"]').fill("3")
    page.locator('[data-testid="bot-backgammon-beginner"]').click()
    page.locator('[data-testid="play-bot-backgammon"]').click()
    expect(page.locator('[data-game="backgammon"] .card-error')).to_contain_text("Jacoby rule")
    page.locator('[data-testid="option-backgammon-jacoby"]').uncheck()
    start_bot_match(page, "backgammon", "backgammon-beginner")
    expect(page.locator('[data-testid="match-options"]')).to_contain_text("cube · match to 3")
    expect(page.locator('[data-testid="bg-score"]')).to_contain_text("Match to 3: you 0,")
    expect(page.locator('[data-testid="bg-score"]')).to_contain_text("Cube 1, centred")

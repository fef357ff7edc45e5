"""Post-game analysis in a real browser: finish a game against a bot, open its analysis, see the graph."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.helpers import play_until_over, start_bot_match, wait_my_turn_or_over


def test_a_finished_game_is_analysed_with_its_graph(new_page, screenshot):
    page = new_page("/")
    match_id = start_bot_match(page, "tictactoe", "tictactoe-random")
    played = play_until_over(page, preferred=["5", "1", "9", "3", "7"])
    link = page.locator('[data-testid="analyse-link"]')
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(f"**/matches/{match_id}/analysis/")
    root = page.locator("#analysis")
    expect(root).to_have_attribute("data-status", "done", timeout=30000)
    expect(page.locator('[data-testid="eval-graph"] svg [data-testid="eval-line"]')).to_be_visible()
    moves = page.locator("#analysis-moves li")
    assert moves.count() >= played  # every move of both seats
    expect(page.locator("#analysis-summary li")).to_have_count(2)
    expect(page.locator("#analysis-summary")).to_contain_text("AI")  # the bot is disclosed here too
    screenshot(page, "analysis")


def test_a_hint_in_a_casual_game_against_a_bot(new_page):
    page = new_page("/")
    page.locator('[data-testid="bot-tictactoe-random"]').click()
    page.locator('[data-testid="hints-tictactoe"]').check()
    page.locator('[data-testid="play-bot-tictactoe"]').click()
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    wait_my_turn_or_over(page)
    page.locator('[data-testid="hint-button"]').click()
    expect(page.locator('[data-testid="hint-box"]')).to_contain_text("would play")

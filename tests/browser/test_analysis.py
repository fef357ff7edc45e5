"""Post-game analysis in a real browser: finish a game against a bot, open its analysis, see the graph."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import play_until_over, start_bot_match, wait_my_turn_or_over
from tests.support import LiveStack


@pytest.fixture(scope="module")
def quick_analysis():
    """A stack of its own whose analyses search 150 ms a position, whatever the strongest bot's budget."""
    with LiveStack(extra_env={"ANALYSIS_TIME_BUDGET_MS": "150"}) as stack:
        yield stack


def wait_to_play(page, ready: str) -> None:
    """Until it is your turn and the board shows what you can move (`ready`, a selector)."""
    page.wait_for_function(
        "(ready) => { const room = document.getElementById('match-room');"
        " return room.dataset.status === 'active' && room.dataset.toMove === room.dataset.yourSeat"
        " && document.querySelector(ready) !== null; }",
        arg=ready,
    )


def play_once_then_resign(page, ready: str, play, stack: LiveStack, match_id: int) -> int:
    """`play(page)` one move, let the bots answer, resign (confirmed); the number of moves by a seat."""
    wait_to_play(page, ready)
    ply = page.locator("#match-room").get_attribute("data-ply")
    play(page)
    page.wait_for_function(f"() => document.getElementById('match-room').dataset.ply !== '{ply}'")
    wait_to_play(page, ready)
    resign = page.locator("#resign-button")
    resign.click()
    resign.click()
    expect(page.locator("#match-room")).to_have_attribute("data-status", "finished")
    return sum(1 for m in stack.api("GET", f"/api/matches/{match_id}/")["moves"] if m["seat"] >= 0)


def first_legal_play(page) -> None:
    page.locator("#board [data-move].legal").first.click()


def first_hop(page) -> None:
    page.locator("#board .movable").first.click()
    page.locator("#board .destination").first.click()


def open_analysis(page, match_id: int) -> None:
    page.locator('[data-testid="analyse-link"]').click()
    page.wait_for_url(f"**/matches/{match_id}/analysis/")
    expect(page.locator("#analysis")).to_have_attribute("data-status", "done", timeout=30000)


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


def test_a_backgammon_match_is_analysed_without_judging_the_dice(new_page, quick_analysis, screenshot):
    page = new_page("/", server=quick_analysis)
    match_id = start_bot_match(page, "backgammon", "backgammon-random")
    decisions = play_once_then_resign(page, "#board [data-move].legal", first_legal_play, quick_analysis, match_id)
    open_analysis(page, match_id)
    expect(page.locator('[data-testid="eval-graph"] svg [data-testid="eval-line"]')).to_have_count(1)
    moves = page.locator("#analysis-moves li")
    expect(moves).to_have_count(decisions)  # one entry per play, none for a roll
    expect(page.locator('#analysis-moves [data-testid="move-roll"]')).to_have_count(decisions)
    expect(moves.first).to_contain_text(re.compile(r"(open|roll) \d-\d:"))
    expect(page.locator("#analysis-summary li")).to_have_count(2)
    expect(page.locator("#analysis-legend")).to_contain_text("Rolls of the dice are not judged")
    screenshot(page, "backgammon")


def test_a_three_player_match_has_a_line_per_player(new_page, quick_analysis, screenshot):
    page = new_page("/", server=quick_analysis)
    match_id = start_bot_match(page, "chinese-checkers", "chinese-checkers-random")
    decisions = play_once_then_resign(page, "#board .movable", first_hop, quick_analysis, match_id)
    open_analysis(page, match_id)
    lines = page.locator('[data-testid="eval-graph"] svg [data-testid="eval-line"]')
    expect(lines).to_have_count(3)
    assert {lines.nth(i).get_attribute("data-seat") for i in range(3)} == {"0", "1", "2"}
    # Told apart by more than colour: each line ends in its seat's shape, and the dashes differ.
    expect(page.locator('[data-testid="eval-seat-end"]')).to_have_count(3)
    assert len({lines.nth(i).get_attribute("stroke-dasharray") for i in range(3)}) == 3
    expect(page.locator("#analysis-summary li")).to_have_count(3)
    expect(page.locator("#analysis-moves li")).to_have_count(decisions)
    screenshot(page, "chinese-checkers")

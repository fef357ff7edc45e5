"""Checkers in the match room: boards/checkers.js and css/games/checkers.css against the real server.

A whole game against the random bot, played as a person plays it: a typed move, pieces picked
and landed by pointer, and by keyboard (the focus moved with the arrow keys, Enter to pick and
land).  The page never decides legality: it shows the server's legal moves.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import start_bot_match, wait_my_turn_or_over


def square(page: Page, number: int | str):
    return page.locator(f'#board [data-square="{number}"]')


def after_move(page: Page, ply: str | None) -> None:
    page.wait_for_function(
        f"() => document.getElementById('match-room').dataset.ply !== '{ply}'"
        " || document.getElementById('match-room').dataset.status !== 'active'"
    )


def focused_square(page: Page) -> str | None:
    return page.evaluate("() => document.activeElement && document.activeElement.dataset.square || null")


def test_a_full_game_against_the_random_bot(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "checkers", "checkers-random")
    expect(page.locator("#board")).to_have_attribute("data-game", "checkers")
    wait_my_turn_or_over(page)
    expect(page.locator("#board [data-square]")).to_have_count(32)
    expect(page.locator("#board [data-square].movable")).to_have_count(4)  # 9, 10, 11, 12
    expect(square(page, 11)).to_have_attribute("aria-label", "11, black man, can move")
    expect(page.locator('[data-testid="seats"]')).to_contain_text("black: ")  # the seat name from the spec
    # The game's own stylesheet is linked and applies: the dark squares are green.
    fill = square(page, 11).locator(".hit").evaluate("(node) => getComputedStyle(node).fill")
    assert fill == "rgb(111, 143, 94)", fill

    square(page, 11).click()  # picked: its two landing squares are marked
    expect(page.locator("#board .landing")).to_have_count(2)
    square(page, 11).click()  # picked again: let go
    expect(page.locator("#board .landing")).to_have_count(0)

    ply = page.locator("#match-room").get_attribute("data-ply")
    page.locator("#move-input").fill("11-15")
    page.locator("#move-input").press("Enter")
    after_move(page, ply)
    expect(page.locator("#move-list li.move .move-text").first).to_have_text("11-15")
    screenshot(page, "opening")

    played = 1
    while wait_my_turn_or_over(page) == "active":
        ply = page.locator("#match-room").get_attribute("data-ply")
        start = page.locator("#board [data-square].movable").first.get_attribute("data-square")
        if played % 3 == 0:  # by keyboard: Enter picks, the arrow keys move the focus, Enter lands
            square(page, start).focus()
            page.keyboard.press("Enter")
            expect(square(page, start)).to_have_class(re.compile(r"\bselected\b"))
            landing = page.locator("#board .landing").first.get_attribute("data-square")
            page.keyboard.press("ArrowRight")
            assert focused_square(page) != start
            square(page, landing).focus()
            page.keyboard.press("Enter")
        else:
            square(page, start).click()
            page.locator("#board .landing").first.click()
        after_move(page, ply)
        played += 1
        if played == 150:  # never loop for ever: resign
            page.locator("#resign-button").click()
            page.locator("#resign-button").click()
            break
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result).to_contain_text(re.compile("You won|Draw|You lost"))
    expect(page.locator("#board [data-square].movable")).to_have_count(0)
    square(page, 1).click()  # over: the room says so, and nothing is sent
    expect(page.locator('[data-testid="error"]')).to_have_text("The game is not running.")
    screenshot(page, "result")


def test_the_analysis_marks_the_best_move_on_its_squares(new_page, screenshot):
    page = new_page("/")
    match_id = start_bot_match(page, "checkers", "checkers-random")
    wait_my_turn_or_over(page)
    ply = page.locator("#match-room").get_attribute("data-ply")
    square(page, 12).click()
    square(page, 16).click()
    after_move(page, ply)
    wait_my_turn_or_over(page)
    page.locator("#resign-button").click()
    page.locator("#resign-button").click()  # confirmed
    expect(page.locator("#match-room")).to_have_attribute("data-status", "finished")
    page.locator('[data-testid="analyse-link"]').click()
    page.wait_for_url(f"**/matches/{match_id}/analysis/")
    expect(page.locator("#analysis")).to_have_attribute("data-status", "done", timeout=60000)
    board = page.locator("#analysis-board")
    expect(page.locator('#analysis-moves li[data-ply="0"] .move-text')).to_have_text("12-16")
    marker = board.locator('[data-testid="move-marker"]')
    expect(marker).to_have_count(1)
    best = marker.get_attribute("data-move")
    assert re.fullmatch(r"\d{1,2}([-x]\d{1,2})+", best), best

    def on_its_square() -> None:  # the marker's first box sits on the square the move starts from
        start = best.replace("x", "-").split("-")[0]
        box = marker.locator("rect").first
        cell = board.locator(f'[data-square="{start}"] .hit')
        assert (box.get_attribute("x"), box.get_attribute("y")) == (
            str(float(cell.get_attribute("x")) + 6).removesuffix(".0"),
            str(float(cell.get_attribute("y")) + 6).removesuffix(".0"),
        )

    on_its_square()
    screenshot(page, "analysis")

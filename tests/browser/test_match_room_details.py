"""The match room's small things, in a real browser: focus, a board that stays put, offers
answered on screen, results for spectators, a missing match, no move lost to the rate limit,
seats told apart, hints explained and bot moves marked in the analysis."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import play_until_over, start_bot_match, wait_my_turn_or_over
from tests.browser.test_match_actions import friend_match

PHONE = {"width": 390, "height": 844}
FOCUS_IN_BOARD = "() => document.getElementById('board').contains(document.activeElement)"
BOARD_TOP = "() => document.getElementById('board').getBoundingClientRect().top + window.scrollY"

# Every socket the page opens, on window.sockets; a move frame listed in window.refuseMoves
# (by its move) is answered by a made-up rate_limited error instead of reaching the server.
SOCKET_SPY = """
(() => {
  const Native = window.WebSocket;
  window.sockets = [];
  window.refuseMoves = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.sockets.push(this); }
    send(data) {
      const frame = JSON.parse(data);
      const refused = frame.type === 'move' && window.refuseMoves.indexOf(frame.move) >= 0;
      if (!refused) return super.send(data);
      window.refuseMoves.splice(window.refuseMoves.indexOf(frame.move), 1);
      const answer = JSON.stringify({type: 'error', code: 'rate_limited', message: 'too many frames: slow down'});
      setTimeout(() => this.dispatchEvent(new MessageEvent('message', {data: answer})), 50);
    }
  };
})();
"""


def ply(page) -> int:
    return int(page.locator("#match-room").get_attribute("data-ply"))


def test_the_focus_stays_on_the_board_after_the_bot_replies(new_page):
    page = new_page("/")
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="4"]').click()
    page.wait_for_function("() => document.getElementById('match-room').dataset.ply === '2'")
    wait_my_turn_or_over(page)
    page.wait_for_function(FOCUS_IN_BOARD)
    assert page.evaluate("document.activeElement.dataset.move") == "4"  # where the player was
    page.keyboard.press("3")  # the keys the help text promises, with no Tab first
    page.wait_for_function("() => document.getElementById('match-room').dataset.ply === '4'")

    # Nothing focused (the page's background clicked): a typed move still reaches the board.
    wait_my_turn_or_over(page)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("5")
    page.wait_for_function("() => document.getElementById('match-room').dataset.ply === '6'")

    # A control the player is using keeps the focus through the bot's reply.
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="1"]').click()
    page.locator("#move-input").focus()
    page.wait_for_function("() => document.getElementById('match-room').dataset.ply === '8'")
    assert page.evaluate("document.activeElement.id") == "move-input"


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_the_board_does_not_move_while_the_bot_thinks(new_page, screenshot, viewport):
    page = new_page("/", viewport=viewport)
    start_bot_match(page, "connect4", "connect4-deep")
    wait_my_turn_or_over(page)
    before = page.evaluate(BOARD_TOP)
    page.locator('#board [data-move="4"]').click()
    expect(page.locator("#thinking")).to_be_visible()
    during = []
    while page.locator("#thinking").is_visible():
        during.append(page.evaluate(BOARD_TOP))
        if len(during) == 3:
            screenshot(page, "thinking")
        page.wait_for_timeout(100)
    wait_my_turn_or_over(page)
    after = page.evaluate(BOARD_TOP)
    assert {round(top) for top in [before, *during, after]} == {round(before)}, (before, during, after)
    bar = page.evaluate("document.querySelector('.turn-bar').getBoundingClientRect().height")
    if viewport == PHONE:
        assert bar <= 48, f"the phone's turn bar is {bar} px high: one compact line"
    screenshot(page, "after")


def test_a_declined_draw_offer_is_shown_to_the_one_who_offered(new_page, screenshot):
    host, friend = friend_match(new_page, "connect4")
    friend.locator('[data-testid="draw-button"]').click()
    host.locator('[data-testid="decline-button"]').click()
    panel = friend.locator('[data-testid="offer-panel"]')
    expect(panel).to_be_visible()
    expect(panel.locator('[data-testid="offer-answer"]')).to_have_text(re.compile(r"declined the draw offer"))
    screenshot(friend, "declined")
    expect(panel).to_be_hidden(timeout=12000)  # for a while, then it steps aside


def test_a_spectator_sees_a_win_as_a_win(new_page):
    page = new_page("/")
    match_id = start_bot_match(page, "connect4", "connect4-random")
    play_until_over(page, preferred=["4", "3", "5"])
    spectator = new_page(f"/matches/{match_id}/")
    result = spectator.locator("#result")
    expect(result).to_be_visible()
    expect(spectator.locator("#board-help")).to_be_hidden()  # no "click a column" for a spectator
    expect(spectator.locator("#status")).to_have_class(re.compile("covered"))  # the result box says it
    if result.get_attribute("data-winner"):
        expect(result.locator(".result-icon")).to_have_text("★")
        expect(result).to_contain_text("won")
    else:
        expect(result.locator(".result-icon")).to_have_text("=")


def test_a_missing_match_draws_no_empty_panels(new_page):
    page = new_page("/matches/999999/")
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "missing")
    expect(page.locator("#status")).to_be_visible()
    for hidden in (".match-side", "#board", "#board-help", "#move-form"):
        expect(page.locator(hidden)).to_be_hidden()


def test_a_move_refused_as_one_frame_too_many_is_sent_again_not_lost(new_page, screenshot):
    page = new_page("/")
    page.context.add_init_script(SOCKET_SPY)
    page.reload()
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    # The other frames' budget spent: moves have their own, so the next move still goes through.
    page.evaluate("() => { for (let i = 0; i < 25; i++) window.sockets.at(-1).send(JSON.stringify({type: 'sync'})); }")
    page.locator('#board [data-move="4"]').click()
    page.wait_for_function("() => document.getElementById('match-room').dataset.ply === '2'")
    # A move refused all the same is kept, the player is told, and it is sent again.
    wait_my_turn_or_over(page)
    page.evaluate("window.refuseMoves.push('3')")
    page.locator('#board [data-move="3"]').click()
    expect(page.locator("#error")).to_contain_text("is sent again in a moment")
    screenshot(page, "sent-again")
    page.wait_for_function("() => document.getElementById('match-room').dataset.ply === '4'")
    expect(page.locator("#move-list li.move").nth(2).locator(".move-text")).to_have_text("3")
    expect(page.locator("#error")).to_have_text("")


def test_two_bots_of_one_name_are_told_apart_by_their_seats_colour(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "chinese-checkers", "chinese-checkers-random")
    names = page.locator("#seats .seat .player-name")
    expect(names).to_have_count(3)
    bot_names = [names.nth(i).inner_text() for i in (1, 2)]
    assert bot_names[0] != bot_names[1], bot_names
    assert [re.search(r"\((\w+)\)$", name)[1] for name in bot_names] == ["orange", "purple"], bot_names
    page.wait_for_function("() => document.querySelector('#board .movable')")
    page.locator("#board .movable").first.click()
    page.locator("#board .destination").first.click()
    expect(page.locator("#move-list li.move")).to_have_count(3)
    labels = [page.locator("#move-list li.move button").nth(i).get_attribute("aria-label") for i in (1, 2)]
    assert "(orange)" in labels[0] and "(purple)" in labels[1], labels
    expect(page.locator("#announcer")).to_contain_text(re.compile(r"\((orange|purple)\)"))
    screenshot(page, "seats")


def test_the_hints_choice_says_what_hints_do(new_page):
    page = new_page("/")
    label = page.locator(".hints-choice").first
    expect(label).to_contain_text("Hint button")
    expect(label).not_to_contain_text("then unrated")


def test_the_analysis_marks_the_bots_moves_as_ai(new_page):
    page = new_page("/")
    match_id = start_bot_match(page, "tictactoe", "tictactoe-random")
    play_until_over(page, preferred=["5", "1", "9", "3", "7"])
    page.locator('[data-testid="analyse-link"]').click()
    page.wait_for_url(f"**/matches/{match_id}/analysis/")
    expect(page.locator("#analysis")).to_have_attribute("data-status", "done", timeout=30000)
    bot_rows = page.locator('#analysis-moves li[data-seat="1"]')
    assert bot_rows.count() >= 1
    for i in range(bot_rows.count()):
        expect(bot_rows.nth(i).locator(".ai-badge")).to_have_text(re.compile(r"^AI"))
    expect(page.locator('#analysis-moves li[data-seat="0"] .ai-badge')).to_have_count(0)

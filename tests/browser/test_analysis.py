"""Post-game analysis in a real browser: finish a game against a bot, open its analysis, see the graph."""

from __future__ import annotations

import json
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
    moves = stack.api("GET", f"/api/matches/{match_id}/")["moves"]
    # A backgammon resignation is stored as the resigning seat's move: agreed, not chosen, not judged.
    return sum(1 for m in moves if m["seat"] >= 0 and " resigns " not in m["move"])


def first_legal_play(page) -> None:
    # Backgammon's list of whole plays is for the keyboard: it comes into sight when focused.
    page.locator("#board [data-move].legal").first.focus()
    page.keyboard.press("Enter")


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
    # every play in the viewer's numbering, the bot's too: the same text the match room's list shows
    page.goto(f"{quick_analysis.url}/matches/{match_id}/")
    plays = page.locator("#move-list li:not(.chance) .move-text")
    expect(plays).to_have_count(decisions + 1)  # the room lists the resignation too, last
    room = [t.strip() for t in plays.all_inner_texts()][:-1]
    page.goto(f"{quick_analysis.url}/matches/{match_id}/analysis/")
    expect(moves).to_have_count(decisions)
    expect(moves.locator(".move-text")).to_have_text(room)
    expect(page.locator("#analysis-summary li")).to_have_count(2)
    expect(page.locator("#analysis-legend")).to_contain_text("Rolls of the dice are not judged")
    expect(page.locator("#analysis-board svg")).to_be_visible()
    screenshot(page, "backgammon")
    # On a phone the board turns upright and keeps the best move's arrows; each summary line
    # keeps its colon by the name when the counts wrap.
    page.locator("#analysis-moves li").first.click()
    expect(page.locator('#analysis-board [data-testid="move-marker"]')).to_have_count(1)
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator("#analysis-board svg")).to_have_attribute("data-portrait", "true")
    expect(page.locator('#analysis-board [data-testid="move-marker"]')).to_have_count(1)
    for who in page.locator("#analysis-summary li .summary-who").all():
        expect(who).to_have_text(re.compile(r":$"))
    screenshot(page, "backgammon-phone")


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
    expect(page.locator("#analysis-board svg")).to_be_visible()  # the position before the first move
    expect(page.locator('[data-testid="position-caption"]')).to_contain_text("Move 1:")
    marker = page.locator('#analysis-board [data-testid="move-marker"]')
    expect(marker).to_have_count(1)  # the best hop's path
    best = marker.get_attribute("data-move")
    # A click on the board draws it again (and the page says it is not for playing): the path stays.
    page.locator("#analysis-board [data-cell]").first.click()
    expect(marker).to_have_count(1)
    expect(marker).to_have_attribute("data-move", best)
    screenshot(page, "chinese-checkers")


def finished_tictactoe_analysis(page) -> int:
    match_id = start_bot_match(page, "tictactoe", "tictactoe-random")
    play_until_over(page, preferred=["5", "1", "9", "3", "7"])
    open_analysis(page, match_id)
    return match_id


def step(page) -> str:
    return page.locator("#analysis-board").get_attribute("data-step")


def test_the_analysis_shows_each_position_with_the_best_move_and_steps_by_keyboard_graph_and_moves(
    new_page, screenshot
):
    page = new_page("/")
    finished_tictactoe_analysis(page)
    board = page.locator("#analysis-board")
    expect(board.locator("svg.board-tictactoe")).to_be_visible()
    caption = page.locator('[data-testid="position-caption"]')
    moves = page.locator("#analysis-moves li")
    last = moves.count()

    page.keyboard.press("Home")
    assert step(page) == "0"
    expect(caption).to_contain_text("Move 1:")
    expect(board.locator('[data-testid="move-marker"]')).to_have_count(1)  # the best move, on the board
    expect(board.locator(".mark")).to_have_count(0)  # the empty board before the first move
    expect(moves.first).to_have_attribute("aria-current", "step")
    expect(page.locator('[data-testid="eval-cursor"]')).to_have_count(1)
    screenshot(page, "first-position")

    page.keyboard.press("ArrowRight")
    assert step(page) == "1"
    expect(caption).to_contain_text("Move 2:")
    expect(board.locator(".mark")).to_have_count(1)  # the first move is on the board
    page.keyboard.press("ArrowLeft")
    assert step(page) == "0"
    page.keyboard.press("End")
    assert step(page) == str(last)
    expect(caption).to_contain_text("final position")
    expect(board.locator('[data-testid="move-marker"]')).to_have_count(0)
    page.keyboard.press("ArrowRight")  # the end stays the end
    assert step(page) == str(last)

    moves.nth(2).click()
    assert step(page) == "2"
    expect(caption).to_contain_text("Move 3:")
    graph = page.locator('[data-testid="eval-graph"] svg')
    box = graph.bounding_box()
    graph.click(position={"x": 2, "y": box["height"] / 2})  # the graph's left end: the start
    assert step(page) == "0"
    page.locator('[data-testid="step-next"]').click()
    assert step(page) == "1"
    screenshot(page, "stepped")

    phone = new_page(page.url, viewport={"width": 390, "height": 844})
    expect(phone.locator("#analysis")).to_have_attribute("data-status", "done", timeout=30000)
    expect(phone.locator("#analysis-board svg")).to_be_visible()
    phone.keyboard.press("ArrowRight")
    assert phone.locator("#analysis-board").get_attribute("data-step") == "1"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    screenshot(phone, "phone")


def test_a_waiting_analysis_shows_its_place_in_the_queue_then_its_progress(new_page, screenshot):
    page = new_page("/")
    match_id = start_bot_match(page, "tictactoe", "tictactoe-random")
    play_until_over(page, preferred=["5", "1", "9", "3", "7"])
    # The server answers as it would while busy: queued behind two, then part done.
    answers = [
        {"status": "queued", "queue_position": 2, "progress": 0, "total": 7},
        {"status": "queued", "queue_position": 2, "progress": 0, "total": 7},
        {"status": "running", "queue_position": None, "progress": 3, "total": 7},
    ]

    def busy(route):
        response = route.fetch()
        body = response.json()
        if answers:
            body.update(answers.pop(0), plies=[], finished_at=None)
        route.fulfill(response=response, body=json.dumps(body))

    page.route(f"**/api/matches/{match_id}/analysis/", busy)
    page.locator('[data-testid="analyse-link"]').click()
    text = page.locator("#analysis-progress-text")
    expect(text).to_contain_text("2 analyses ahead of this one")
    screenshot(page, "queued")
    expect(text).to_contain_text("3 of 7 positions done", timeout=10000)
    screenshot(page, "running")
    expect(page.locator("#analysis")).to_have_attribute("data-status", "done", timeout=15000)
    expect(page.locator("#analysis-board svg")).to_be_visible()


def test_a_connect_four_analysis_marks_the_best_column(new_page, quick_analysis, screenshot):
    page = new_page("/", server=quick_analysis)
    match_id = start_bot_match(page, "connect4", "connect4-random")
    play_until_over(page, preferred=["4"])
    open_analysis(page, match_id)
    board = page.locator("#analysis-board")
    expect(board.locator("svg.board-connect4")).to_be_visible()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step(page) == "2"
    expect(board.locator(".disc")).to_have_count(2)  # the position before the third move
    marker = board.locator('[data-testid="move-marker"]')
    expect(marker).to_have_count(1)
    expect(page.locator('[data-testid="position-caption"]')).to_contain_text("Move 3:")
    assert marker.get_attribute("data-move") in list("1234567")
    expect(page.locator("#analysis-moves li").nth(2)).to_have_attribute("aria-current", "step")
    screenshot(page, "connect4")


def test_the_analysis_states_its_thresholds_and_reads_values_as_winning_chances_at_phone_and_desktop(
    new_page, screenshot
):
    """Tic-tac-toe's evaluations read as winning chances (or a proven win, draw or loss), the graph plots them,
    and the legend states the drops in winning chances that make a move an inaccuracy, a mistake, a blunder."""
    page = new_page("/")
    match_id = start_bot_match(page, "tictactoe", "tictactoe-random")
    play_until_over(page, preferred=["5", "1", "9", "3", "7"])
    open_analysis(page, match_id)
    legend = page.locator("#analysis-legend")
    expect(legend).to_contain_text("at least 5 points of the mover's winning chances")
    expect(legend).to_contain_text("a blunder (??) from 15")
    expect(legend).to_contain_text("winning chances")
    expect(page.locator("#graph-help")).to_contain_text("Winning chances")
    figures = page.locator("#analysis-moves .move-figures").first
    expect(figures).to_contain_text(re.compile(r"mover: (\d+%|win|draw|loss)"))
    for size in ({"width": 360, "height": 740}, {"width": 1280, "height": 800}):
        page.set_viewport_size(size)
        expect(page.locator('[data-testid="eval-graph"] svg [data-testid="eval-line"]')).to_be_visible()
        page.locator("#analysis-legend").scroll_into_view_if_needed()
        expect(legend).to_be_in_viewport()
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways at {size}"
        screenshot(page, f"analysis-chances-{size['width']}")

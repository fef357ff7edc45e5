"""The match room's players and clocks at the board's edges, at phone and desktop widths."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import start_bot_match, wait_my_turn_or_over
from tests.support import LiveStack

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
LONGEST_NAME = "Bartholomew Featherstone"  # 24 characters: server/players/names.py NAME_MAX


@pytest.fixture
def quick_first_move_stack():
    """A stack that waits 3 s for a first move (CLOCK_FIRST_MOVE_MS) rather than 30."""
    with LiveStack(extra_env={"CLOCK_FIRST_MOVE_MS": "3000"}) as stack:
        yield stack


def friend_match(
    new_page, viewport: dict[str, int], clock: str = "3+2", server: LiveStack | None = None
) -> tuple[Page, Page]:
    host = new_page("/", viewport=viewport, server=server)
    host.locator('[data-testid="clock-connect4"]').select_option(clock)
    host.locator('[data-testid="play-friend-connect4"]').click()
    host.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(host.locator("#match-room")).to_have_attribute("data-ready", "true")
    friend = new_page(host.locator("#invite-link").input_value(), viewport=viewport, server=server)
    friend.locator('[data-testid="join-button"]').click()
    expect(friend.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    return host, friend


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def assert_at_edges(page: Page, near: int, far: int, viewport: dict[str, int]) -> None:
    """`far`'s line is above the board, `near`'s below it, both clocks on screen without scrolling."""
    board = box(page, "#board")
    above, below = box(page, f'[data-testid="seat-{far}"]'), box(page, f'[data-testid="seat-{near}"]')
    assert above["y"] + above["height"] <= board["y"] + 1, (above, board)
    assert below["y"] >= board["y"] + board["height"] - 1, (below, board)
    for seat in (near, far):
        clock = box(page, f'[data-testid="clock-{seat}"]')
        assert clock["y"] >= 0 and clock["y"] + clock["height"] <= viewport["height"], (seat, clock)
        assert clock["x"] + clock["width"] <= viewport["width"], (seat, clock)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_each_side_has_its_name_and_clock_at_its_edge_of_the_board(new_page, screenshot, viewport):
    host, friend = friend_match(new_page, viewport)
    for page in (host, friend):
        expect(page.locator('[data-testid="clock-0"]')).to_have_text("3:00")
    screenshot(host, "host")
    screenshot(friend, "friend")
    assert_at_edges(host, near=0, far=1, viewport=viewport)
    assert_at_edges(friend, near=1, far=0, viewport=viewport)


def test_no_clock_runs_before_its_seats_first_move(new_page):
    host, friend = friend_match(new_page, DESKTOP)
    clock0, clock1 = host.locator('[data-testid="clock-0"]'), host.locator('[data-testid="clock-1"]')
    host.wait_for_timeout(1500)  # time passes: the first player's clock does not run yet
    expect(clock0).to_have_text("3:00")
    expect(clock0).not_to_have_class(re.compile("running"))
    wait_my_turn_or_over(host)
    host.locator('#board [data-move="4"]').click()
    expect(host.locator("#match-room")).to_have_attribute("data-ply", "1")
    expect(clock0).to_have_text("3:00")  # a first move: free, no increment
    expect(clock1).not_to_have_class(re.compile("running"))  # nor the second player's, before theirs
    wait_my_turn_or_over(friend)
    friend.locator('#board [data-move="4"]').click()
    expect(clock0).to_have_class(re.compile("running"))  # both have moved: from here on the clocks run
    expect(clock1).to_have_text("3:00")
    host.wait_for_function("() => document.querySelector('[data-testid=clock-0]').textContent !== '3:00'")


def test_the_longest_name_shows_whole_on_a_phone(new_page, plyground, screenshot):
    page = new_page("/", viewport=PHONE)
    start_bot_match(page, "connect4", "connect4-random")
    me = page.evaluate("() => fetch('/api/players/me/').then((r) => r.json())")
    plyground.manage(
        "shell",
        "-c",
        "from server.players.models import Player\n"
        f"p = Player.objects.get(pk={me['id']}); p.name = {LONGEST_NAME!r}; p.save()",
    )
    page.reload()
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    name = page.locator('[data-testid="seat-0"] .player-name')
    expect(name).to_have_text(LONGEST_NAME)
    cut = name.evaluate("(node) => node.scrollWidth > node.clientWidth || node.scrollHeight > node.clientHeight")
    assert not cut, "the name is cut off"
    shown = box(page, '[data-testid="seat-0"] .player-name')
    assert shown["x"] >= 0 and shown["x"] + shown["width"] <= PHONE["width"], shown
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
    screenshot(page, "longest-name")


def test_a_quick_bot_reply_shows_no_waiting_notice(new_page):
    """The random bot answers in a few milliseconds: "waiting for a free computer" never shows."""
    page = new_page("/", viewport=PHONE)
    start_bot_match(page, "connect4", "connect4-random")
    page.evaluate(
        """() => {
          const notice = document.getElementById('bot-queued');
          window.__queuedSeen = 0;
          new MutationObserver(() => { if (!notice.hidden) window.__queuedSeen += 1; })
            .observe(notice, {attributes: true});
        }"""
    )
    for ply in (0, 2, 4):
        wait_my_turn_or_over(page)
        expect(page.locator("#match-room")).to_have_attribute("data-ply", str(ply))
        page.locator("#board [data-move].legal").first.click()
    expect(page.locator("#match-room")).to_have_attribute("data-ply", re.compile("^(6|[0-9]{2,})$"))
    assert page.evaluate("() => window.__queuedSeen") == 0


def test_a_match_nobody_starts_is_aborted_by_the_servers_watch(new_page, quick_first_move_stack, screenshot):
    host, friend = friend_match(new_page, PHONE, server=quick_first_move_stack)
    wait_my_turn_or_over(host)  # and then the first player makes no move
    for page in (host, friend):
        expect(page.locator("#match-room")).to_have_attribute("data-status", "aborted")
        expect(page.locator("#result")).to_contain_text("Match aborted")
        expect(page.locator("#result")).to_contain_text("no first move")
    screenshot(host, "aborted")

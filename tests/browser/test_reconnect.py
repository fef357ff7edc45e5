"""No move lost in either direction, on the real stack (docs/design.md §5, §7).

A test hook wraps the page's WebSocket (an init script, nothing in the product): it can
lose the next move the page sends and close the socket at once (the server dies right
after the click), hold new connections back, and drop one incoming frame (a frame lost
on its way through the channel layer, with no version gap after it).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import start_bot_match, wait_my_turn_or_over
from tests.support import LiveStack

SOCKET_HOOK = """
(() => {
  const Native = window.WebSocket;
  // dropWhen(frame): drop the first incoming frame it is true for; deaf: a socket that hears nothing more.
  const hook = {
    matchOpens: 0, heartbeats: 0, dropWhen: null, dropped: [], deaf: null,
    loseNextMove: false, swallowNextMove: false, lost: [], block: false, sockets: [],
  };
  window.__ws = hook;
  class TestSocket extends Native {
    constructor(url, protocols) {
      if (hook.block && String(url).includes("/ws/matches/")) {
        throw new DOMException("held back by the test", "SecurityError");
      }
      super(url, protocols);
      hook.sockets.push(this);
      if (String(url).includes("/ws/matches/")) hook.matchOpens += 1;
    }
    send(data) {
      if (hook.loseNextMove && String(data).includes('"type":"move"')) {
        hook.loseNextMove = false;
        hook.lost.push(JSON.parse(data));
        this.close(); // the connection dies with the move: the server never sees it
        return;
      }
      if (hook.swallowNextMove && String(data).includes('"type":"move"')) {
        hook.swallowNextMove = false;
        hook.lost.push(JSON.parse(data)); // gone, while the socket stays open
        return;
      }
      super.send(data);
    }
    addEventListener(type, listener, options) {
      if (type !== "message") return super.addEventListener(type, listener, options);
      return super.addEventListener(type, (event) => {
        if (hook.deaf === this) return;
        const frame = JSON.parse(event.data);
        if (frame.type === "heartbeat") hook.heartbeats += 1;
        if (hook.dropWhen) {
          if (hook.dropWhen(frame)) {
            hook.dropWhen = null;
            hook.dropped.push(frame);
            return;
          }
        }
        listener.call(this, event);
      }, options);
    }
  }
  window.WebSocket = TestSocket;
})();
"""

RETRY_NOW = """() => {
  const banner = document.getElementById('reconnect-banner');
  if (!banner.hidden) banner.querySelector('.banner-retry').click();
}"""


def ply_is(page: Page, ply: int, timeout: float = 20000) -> None:
    page.wait_for_function(f"() => document.getElementById('match-room').dataset.ply === '{ply}'", timeout=timeout)


def hooked_page(new_page, path: str = "/", server: LiveStack | None = None, viewport=None) -> Page:
    page = new_page("about:blank", viewport=viewport, server=server)
    page.context.add_init_script(SOCKET_HOOK)
    page.goto(path)
    return page


def moves_of(stack: LiveStack, match_id: int) -> list[tuple[int, int, str]]:
    return [(m["ply"], m["seat"], m["move"]) for m in stack.api("GET", f"/api/matches/{match_id}/")["moves"]]


def test_a_move_lost_with_its_socket_is_sent_again_once_and_stored_once(new_page, plyground, screenshot):
    page = hooked_page(new_page)
    match_id = start_bot_match(page, "connect4", "connect4-shallow")
    wait_my_turn_or_over(page)
    page.evaluate("() => { window.__ws.loseNextMove = true; }")
    page.locator('#board [data-move="4"]').click()
    ply_is(page, 2)  # the resent move, then the bot's reply
    assert page.evaluate("() => window.__ws.lost.length") == 1
    assert page.evaluate("() => window.__ws.matchOpens") == 2  # one reconnect
    moves = moves_of(plyground, match_id)
    assert [m[:2] for m in moves] == [(0, 0), (1, 1)] and moves[0][2] == "4"  # exactly once
    expect(page.get_by_test_id("error")).to_have_text("")
    expect(page.locator("#move-list li")).to_have_count(2)
    screenshot(page, "resent")


def test_a_move_that_can_no_longer_apply_is_reported_not_dropped(new_page, plyground, screenshot):
    page = hooked_page(new_page)
    match_id = start_bot_match(page, "connect4", "connect4-shallow")
    wait_my_turn_or_over(page)
    page.evaluate("() => { window.__ws.block = true; window.__ws.loseNextMove = true; }")
    page.locator('#board [data-move="4"]').click()
    expect(page.get_by_test_id("reconnect-banner")).to_be_visible()
    # While the page is cut off, the match ends (here: the player resigns from another tab).
    status = page.evaluate(
        """async (id) => {
          const csrf = document.cookie.split('; ').find((c) => c.startsWith('csrftoken=')).split('=')[1];
          const r = await fetch(`/api/matches/${id}/resign/`, {method: 'POST', headers: {'X-CSRFToken': csrf}});
          return r.status;
        }""",
        match_id,
    )
    assert status == 200
    page.evaluate("() => { window.__ws.block = false; }")
    expect(page.get_by_test_id("error")).to_contain_text("Your move column 4 was not played")
    expect(page.locator("#match-room")).to_have_attribute("data-status", "finished")
    assert moves_of(plyground, match_id) == []
    screenshot(page, "reported")


def test_a_move_made_while_offline_waits_for_the_connection_and_is_sent_once(new_page, plyground):
    page = hooked_page(new_page)
    match_id = start_bot_match(page, "connect4", "connect4-shallow")
    wait_my_turn_or_over(page)
    page.evaluate("() => { window.__ws.block = true; window.__ws.sockets.at(-1).close(); }")
    expect(page.get_by_test_id("reconnect-banner")).to_be_visible()
    page.locator('#board [data-move="3"]').click()
    expect(page.get_by_test_id("error")).to_contain_text("will be sent when the connection is back")
    expect(page.get_by_test_id("status")).to_contain_text("Your move is queued")
    page.evaluate("() => { window.__ws.block = false; }")
    page.evaluate(RETRY_NOW)
    ply_is(page, 2)
    moves = moves_of(plyground, match_id)
    assert [m[:3] for m in moves][0] == (0, 0, "3") and len(moves) == 2


def test_a_move_sent_as_the_server_restarts_is_stored_once(new_page, restartable_stack, screenshot):
    stack = restartable_stack
    page = hooked_page(new_page, server=stack)
    match_id = start_bot_match(page, "connect4", "connect4-shallow")
    wait_my_turn_or_over(page)
    stack.stop()
    page.locator('#board [data-move="5"]').click()  # the socket is dead or dying: the move is kept
    expect(page.get_by_test_id("reconnect-banner")).to_be_visible()
    stack.start()
    page.evaluate(RETRY_NOW)  # skip the rest of the backoff
    ply_is(page, 2, timeout=30000)
    moves = moves_of(stack, match_id)
    assert [m[:3] for m in moves][0] == (0, 0, "5") and len(moves) == 2
    expect(page.get_by_test_id("reconnect-banner")).to_be_hidden()
    screenshot(page, "after-restart")


@pytest.fixture(scope="module")
def quick_heartbeat_stack():
    """A stack whose heartbeat comes every 2 s, and whose bot turns get a fallback after 4 s in the queue."""
    with LiveStack(extra_env={"MATCH_HEARTBEAT_MS": "2000", "BOT_QUEUE_CAP_MS": "4000"}) as stack:
        yield stack


def test_a_lost_frame_is_recovered_through_the_heartbeat(new_page, quick_heartbeat_stack):
    stack = quick_heartbeat_stack
    page = hooked_page(new_page, server=stack)
    match_id = start_bot_match(page, "connect4", "connect4-shallow")
    wait_my_turn_or_over(page)
    # The bot's reply is lost on its way, and nothing comes after it: no version gap to notice.
    page.evaluate("() => { window.__ws.dropWhen = (f) => f.type === 'move' && f.seat === 1; }")
    page.locator('#board [data-move="4"]').click()
    page.wait_for_function("() => window.__ws.dropped.length === 1")
    started = time.monotonic()
    ply_is(page, 2, timeout=15000)  # the heartbeat brings the page level (2 s + 1.5 s grace)
    assert time.monotonic() - started < 12
    assert page.evaluate("() => window.__ws.matchOpens") == 1  # a sync, not a reconnect
    assert len(moves_of(stack, match_id)) == 2
    wait_my_turn_or_over(page)


def test_a_silent_socket_is_replaced_by_the_watchdog(new_page, quick_heartbeat_stack):
    page = hooked_page(new_page, server=quick_heartbeat_stack)
    start_bot_match(page, "connect4", "connect4-shallow")
    wait_my_turn_or_over(page)
    page.wait_for_function("() => window.__ws.heartbeats > 0")  # the page knows the interval
    # Every frame is swallowed from now on: the socket looks open but is dead.
    page.evaluate("() => { window.__ws.deaf = window.__ws.sockets.at(-1); }")
    page.wait_for_function("() => window.__ws.matchOpens === 2", timeout=15000)  # 2.5 x 2 s of silence
    wait_my_turn_or_over(page)


def _celery_pids(stack: LiveStack) -> list[int]:
    """The stack's Celery worker processes: descendants of its server process running celery."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])

    def descends(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == stack.proc.pid:
                return True
        return False

    pids = []
    for pid in parents:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if (b"celery" in cmdline or b"server.worker" in cmdline) and descends(pid):
            pids.append(pid)
    return pids


def test_a_queued_bot_turn_waits_honestly_and_a_fallback_says_so(new_page, quick_heartbeat_stack, screenshot):
    stack = quick_heartbeat_stack
    page = hooked_page(new_page, server=stack)
    match_id = start_bot_match(page, "connect4", "connect4-shallow")
    wait_my_turn_or_over(page)
    workers = _celery_pids(stack)
    assert workers, "no Celery worker in the stack"
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)  # every worker busy: nobody starts the bot's search
    try:
        page.locator('#board [data-move="4"]').click()
        queued = page.get_by_test_id("bot-queued")
        expect(queued).to_be_visible()
        expect(queued).to_contain_text("Waiting for a free computer")
        expect(page.get_by_test_id("thinking")).to_be_hidden()
        screenshot(page, "queued")
        # No worker started a search within BOT_QUEUE_CAP_MS: the watchdog plays a random move, and says so.
        ply_is(page, 2, timeout=20000)
        expect(queued).to_be_hidden()
        fallback = page.locator('#move-list li[data-ply="1"]')
        expect(fallback.get_by_test_id("fallback-move")).to_contain_text("AI · no search (random move):")
        expect(fallback.locator(".move-figures")).to_have_count(0)  # no think time, no search figures
        label = fallback.locator(".move-link").get_attribute("aria-label")
        assert "a random move without search" in label
        stored = stack.api("GET", f"/api/matches/{match_id}/")["moves"][1]
        assert stored["fallback"] and stored["fallback"] in fallback.inner_text()
        screenshot(page, "fallback")
    finally:
        for pid in workers:
            os.kill(pid, signal.SIGCONT)


def test_an_idle_match_keeps_its_socket_for_30_s_then_play_goes_on(new_page, plyground):
    page = hooked_page(new_page)
    match_id = start_bot_match(page, "connect4", "connect4-shallow")
    wait_my_turn_or_over(page)
    page.evaluate(
        """() => {
          const banner = document.getElementById('reconnect-banner');
          window.__bannerSeen = false;
          const seen = () => { if (!banner.hidden) window.__bannerSeen = true; };
          new MutationObserver(seen).observe(banner, {attributes: true});
        }"""
    )
    page.wait_for_timeout(30_000)
    assert page.evaluate("() => window.__bannerSeen") is False
    assert page.evaluate("() => window.__ws.matchOpens") == 1
    page.locator('#board [data-move="4"]').click()
    ply_is(page, 2)
    assert len(moves_of(plyground, match_id)) == 2


def test_a_queued_bot_turn_turns_into_thinking_when_a_worker_is_free(new_page, quick_heartbeat_stack):
    stack = quick_heartbeat_stack
    page = hooked_page(new_page, server=stack)
    match_id = start_bot_match(page, "connect4", "connect4-deep")  # a 1 s search: long enough to be seen
    wait_my_turn_or_over(page)
    workers = _celery_pids(stack)
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)
    try:
        page.locator('#board [data-move="4"]').click()
        expect(page.get_by_test_id("bot-queued")).to_be_visible()
        page.wait_for_timeout(1500)  # a wait shorter than BOT_QUEUE_CAP_MS (4 s): no fallback
    finally:
        for pid in workers:
            os.kill(pid, signal.SIGCONT)
    expect(page.get_by_test_id("thinking")).to_be_visible()
    expect(page.get_by_test_id("bot-queued")).to_be_hidden()
    ply_is(page, 2)
    expect(page.get_by_test_id("thinking")).to_be_hidden()
    reply = page.locator('#move-list li[data-ply="1"]')
    expect(reply.get_by_test_id("ai-badge")).to_be_visible()
    expect(reply.get_by_test_id("fallback-move")).to_have_count(0)
    stored = stack.api("GET", f"/api/matches/{match_id}/")["moves"][1]
    assert stored["fallback"] is None and stored["queue_wait_ms"] >= 1000
    expect(reply.locator(".move-figures")).to_contain_text("waited")


def test_a_move_unanswered_on_an_open_socket_is_checked_and_reported(new_page, plyground):
    page = hooked_page(new_page)
    match_id = start_bot_match(page, "connect4", "connect4-shallow")
    wait_my_turn_or_over(page)
    page.evaluate("() => { window.__ws.swallowNextMove = true; }")
    page.locator('#board [data-move="6"]').click()
    expect(page.get_by_test_id("status")).to_contain_text("Sending your move")
    # No answer within 4 s: the page asks sync, finds the move missing, and says so.
    expect(page.get_by_test_id("error")).to_have_text("Your move column 6 did not reach the server: play again.")
    assert moves_of(plyground, match_id) == []
    assert page.evaluate("() => window.__ws.matchOpens") == 1
    page.locator('#board [data-move="6"]').click()  # and playing again works
    ply_is(page, 2)
    expect(page.get_by_test_id("error")).to_have_text("")

"""What a player used to other game sites looks for in the match room, in a real browser:
sounds with a remembered switch, a board that flips, themes that stay readable, the move
list by keyboard, premoves, tap targets of 40 px on a phone, and a clock against a bot."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from tests.browser.helpers import bot_badge, start_bot_match, wait_my_turn_or_over

PHONE = {"width": 390, "height": 844}
MIN_TAP = 40

# Counts what the page asks of the Web Audio API: contexts made and notes started.
AUDIO_SPY = """
(() => {
  const Native = window.AudioContext;
  window.audioLog = {contexts: 0, notes: 0};
  window.AudioContext = class extends Native {
    constructor(...args) { super(...args); window.audioLog.contexts += 1; }
    createOscillator() {
      const oscillator = super.createOscillator();
      const start = oscillator.start.bind(oscillator);
      oscillator.start = (...args) => { window.audioLog.notes += 1; return start(...args); };
      return oscillator;
    }
  };
})();
"""

# WCAG's contrast ratio of two CSS colours, computed in the page.
CONTRAST = """
([a, b]) => {
  const rgb = (css) => css.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (css) => {
    const linear = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    const [r, g, b] = rgb(css).map((v) => linear(v / 255));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
"""


def ply(page) -> int:
    return int(page.locator("#match-room").get_attribute("data-ply"))


def wait_ply(page, n: int) -> None:
    page.wait_for_function(f"() => Number(document.getElementById('match-room').dataset.ply) >= {n}")


def audio(page) -> dict:
    return page.evaluate("window.audioLog")


class BotMovesHeld:
    """Holds the bot's move frames on their way to the page until `release()`: the page sees
    the bot still to move, for as long as a test needs, whatever the bot's speed.  The frames
    after a held one are held too, in order: the page notices a gap in the versions."""

    def __init__(self, page, bot_seat: int = 1) -> None:
        self.bot_seat = bot_seat
        self.holding = False
        self.held: list[str] = []
        self.socket = None
        page.route_web_socket(re.compile(r"/ws/matches/"), self.route)

    def route(self, ws) -> None:
        server = ws.connect_to_server()
        self.socket = ws

        def from_server(message: str) -> None:
            frame = json.loads(message)
            bot_move = frame.get("type") == "move" and frame.get("seat") == self.bot_seat
            if self.holding and (bot_move or self.held):
                self.held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)
        ws.on_message(server.send)

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.socket.send(message)
        self.held.clear()


def test_the_sound_switch_is_remembered_and_no_audio_starts_before_a_gesture(new_page, screenshot):
    page = new_page("/")
    page.add_init_script(AUDIO_SPY)
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    switch = page.locator('[data-testid="sound-switch"]')
    expect(switch).to_have_attribute("aria-pressed", "true")  # on, waiting for a gesture
    assert audio(page) == {"contexts": 0, "notes": 0}  # a fresh page plays nothing on its own

    page.locator('#board [data-move="4"]').click()  # a gesture: our move and the bot's sound
    wait_ply(page, 2)
    page.wait_for_function("() => window.audioLog.notes >= 2")
    assert audio(page)["contexts"] == 1

    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('plyground.sound')") == "off"
    page.reload()
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    expect(switch).to_have_attribute("aria-pressed", "false")  # remembered
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="3"]').click()
    wait_ply(page, 4)
    page.wait_for_timeout(300)
    assert audio(page) == {"contexts": 0, "notes": 0}  # off: not even a context
    screenshot(page, "sound-off")

    switch.focus()
    page.keyboard.press("Enter")  # by keyboard too; the switch plays a note to say it is on
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => window.audioLog.notes >= 1")
    assert page.evaluate("localStorage.getItem('plyground.sound')") == "on"


def test_connect4_calls_a_threat_a_check_and_a_plain_move_plain(new_page):
    page = new_page("/")
    kinds = page.evaluate(
        """async () => {
          const board = await import('/static/frontend/js/boards/connect4.js');
          const empty = () => Array.from({length: 6}, () => Array(7).fill(null));
          const three = empty(); three[5][0] = three[5][1] = three[5][2] = 0;
          const blocked = empty(); blocked[5][0] = blocked[5][1] = blocked[5][2] = 0; blocked[5][3] = 1;
          const vertical = empty(); vertical[5][6] = vertical[4][6] = vertical[3][6] = 1;
          // Three in a row on the second row, the fourth cell not yet playable (nothing under it).
          const floating = empty(); [0, 1, 2].forEach((c) => { floating[5][c] = 1; floating[4][c] = 0; });
          return [board.moveSound('3', {board: three}, 0), board.moveSound('4', {board: blocked}, 1),
                  board.moveSound('7', {board: vertical}, 1), board.moveSound('7', {board: vertical}, 0),
                  board.moveSound('3', {board: floating}, 0)];
        }"""
    )
    assert kinds == ["check", None, "check", None, None]


def test_the_othello_board_flips_and_is_still_played_by_click(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "othello", "othello-random")
    wait_my_turn_or_over(page)
    flip = page.locator('[data-testid="flip-button"]')
    expect(flip).to_be_visible()
    expect(flip).to_have_attribute("aria-pressed", "false")
    a1, h8 = page.locator('#board [data-move="a1"]'), page.locator('#board [data-move="h8"]')
    assert a1.bounding_box()["y"] < h8.bounding_box()["y"] and a1.bounding_box()["x"] < h8.bounding_box()["x"]
    flip.click()
    expect(flip).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board svg")).to_have_attribute("data-flipped", "true")
    assert a1.bounding_box()["y"] > h8.bounding_box()["y"] and a1.bounding_box()["x"] > h8.bounding_box()["x"]
    label_a = page.locator("#board .coord", has_text=re.compile("^a$"))
    label_h = page.locator("#board .coord", has_text=re.compile("^h$"))
    assert label_a.bounding_box()["x"] > label_h.bounding_box()["x"]  # the labels turn with the squares
    screenshot(page, "flipped")
    page.locator('#board [data-move="e5"]').focus()
    page.keyboard.press("ArrowRight")  # the arrows go the way they point on the turned board
    assert page.evaluate("document.activeElement.dataset.move") == "d5"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.move") == "d4"
    legal = page.locator("#board [data-move].legal").first
    move = legal.get_attribute("data-move")
    legal.click()
    expect(page.locator("#move-list .move-text").first).to_have_text(move)
    expect(page.locator("#board svg")).to_have_attribute("data-flipped", "true")  # stays turned

    other = new_page("/")
    start_bot_match(other, "connect4", "connect4-random")
    expect(other.locator('[data-testid="flip-button"]')).to_be_hidden()  # gravity has one way up


def test_themes_are_remembered_and_keep_pieces_readable(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="4"]').click()
    wait_ply(page, 2)
    wait_my_turn_or_over(page)
    assert page.evaluate("document.documentElement.dataset.pieceTheme") == "okabe-ito"  # the default
    board_themes = page.locator('[data-testid="board-theme"] option').evaluate_all("os => os.map((o) => o.value)")
    piece_themes = page.locator('[data-testid="piece-theme"] option').evaluate_all("os => os.map((o) => o.value)")
    assert len(board_themes) >= 2 and len(piece_themes) >= 2
    for board_theme in board_themes:
        for piece_theme in piece_themes:
            page.locator('[data-testid="board-theme"]').select_option(board_theme)
            page.locator('[data-testid="piece-theme"]').select_option(piece_theme)
            paint = page.evaluate(
                """() => {
                  const css = (node, prop) => getComputedStyle(node)[prop];
                  const hole = document.querySelector('#board .hole');
                  return [0, 1].map((seat) => {
                    const disc = document.querySelector(`#board .disc.seat-${seat}`);
                    const body = disc.querySelector('.disc-body');
                    return {body: css(body, 'fill'), edge: css(body, 'stroke'),
                            symbol: css(disc.querySelector('.disc-symbol'), 'fill'), hole: css(hole, 'fill'),
                            shape: disc.querySelector('.disc-symbol').tagName};
                  });
                }"""
            )
            where = f"{board_theme}/{piece_theme}"
            assert paint[0]["shape"] != paint[1]["shape"], where  # seats differ by shape, not colour alone
            assert paint[0]["body"] != paint[1]["body"], where
            for seat, p in enumerate(paint):
                symbol = page.evaluate(CONTRAST, [p["symbol"], p["body"]])
                edge = page.evaluate(CONTRAST, [p["edge"], p["hole"]])
                assert symbol >= 3, f"{where} seat {seat}: symbol on disc {symbol:.2f}"
                assert edge >= 3, f"{where} seat {seat}: disc edge on empty hole {edge:.2f}"
            if piece_theme == piece_themes[0]:
                screenshot(page, f"board-{board_theme}")
    screenshot(page, "pieces-last")
    page.locator('[data-testid="board-theme"]').select_option("wood")
    page.locator('[data-testid="piece-theme"]').select_option("deep")
    page.reload()
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    expect(page.locator('[data-testid="board-theme"]')).to_have_value("wood")
    expect(page.locator('[data-testid="piece-theme"]')).to_have_value("deep")
    assert page.evaluate("getComputedStyle(document.querySelector('#board .frame')).fill") == "rgb(122, 82, 48)"


def test_the_move_list_is_browsed_by_keyboard(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "connect4", "connect4-random")
    for n, column in enumerate(("4", "3"), start=1):
        wait_my_turn_or_over(page)
        page.locator(f'#board [data-move="{column}"]').click()
        wait_ply(page, 2 * n)
    wait_my_turn_or_over(page)
    rows = page.locator("#move-list .move-link")
    expect(rows).to_have_count(4)
    assert rows.evaluate_all("rs => rs.map((r) => r.tabIndex)") == [-1, -1, -1, 0]  # one tab stop: the live row

    page.locator('[data-nav="last"]').focus()
    page.keyboard.press("Tab")  # from the browse buttons into the list
    assert page.evaluate("document.activeElement.dataset.goto") == "4"
    page.keyboard.press("ArrowUp")
    expect(page.locator("#viewing-note")).to_be_visible()
    expect(page.locator("#board .disc")).to_have_count(3)
    assert page.evaluate("document.activeElement.dataset.goto") == "3"  # the focus follows, never to <body>
    page.keyboard.press("Home")
    expect(page.locator("#board .disc")).to_have_count(0)
    assert page.evaluate("document.activeElement.dataset.goto") == "1"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#board .disc")).to_have_count(2)
    page.keyboard.press("ArrowLeft")  # the page's left and right arrows work in the list too
    expect(page.locator("#board .disc")).to_have_count(1)
    assert page.evaluate("document.activeElement.classList.contains('move-link')")
    screenshot(page, "browsing")
    page.keyboard.press("End")
    expect(page.locator("#viewing-note")).to_be_hidden()
    expect(page.locator("#board .disc")).to_have_count(4)

    page.locator("#moves-heading").click()  # focus on nothing in particular: Home and End still browse
    page.keyboard.press("Home")
    expect(page.locator("#board .disc")).to_have_count(0)
    page.keyboard.press("End")
    expect(page.locator("#board .disc")).to_have_count(4)


def test_a_premove_is_played_on_your_turn_cancelled_or_dropped(new_page, screenshot):
    page = new_page("/")
    bot = BotMovesHeld(page)
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    bot.holding = True
    page.locator('#board [data-move="4"]').click()
    wait_ply(page, 1)  # our move is in; the bot's answer is held
    page.wait_for_function("() => document.getElementById('match-room').dataset.toMove === '1'")
    page.locator('#board [data-move="2"]').click()
    note = page.locator('[data-testid="premove"]')
    expect(note).to_be_visible()
    expect(note).to_contain_text("column 2")
    expect(page.locator('#board [data-move="2"]')).to_have_class(re.compile("premove"))
    expect(page.locator("#error")).to_be_empty()  # not "it is not your turn"
    screenshot(page, "queued")
    page.wait_for_timeout(400)
    bot.release()
    wait_ply(page, 3)  # the bot's move, then ours from the queue
    expect(page.locator("#move-list .move-text").nth(2)).to_have_text("2")
    expect(note).to_be_hidden()

    # Queued, then cancelled: nothing is sent when the turn comes.
    wait_my_turn_or_over(page)
    bot.holding = True
    page.locator('#board [data-move="5"]').click()  # at ply 4, after the bot's answer to our premove
    wait_ply(page, 5)
    page.wait_for_function("() => document.getElementById('match-room').dataset.toMove === '1'")
    page.locator('#board [data-move="6"]').click()
    expect(note).to_be_visible()
    page.locator('[data-testid="premove-cancel"]').click()
    expect(note).to_be_hidden()
    page.locator('#board [data-move="7"]').click()
    expect(note).to_contain_text("column 7")
    page.keyboard.press("Escape")  # Escape cancels too
    expect(note).to_be_hidden()
    bot.release()
    wait_ply(page, 6)
    wait_my_turn_or_over(page)
    page.wait_for_timeout(500)
    assert ply(page) == 6, page.locator("#move-list").inner_text()  # our turn, and no move was sent for us


def test_a_premove_that_is_illegal_on_your_turn_is_dropped_with_a_notice(new_page, screenshot):
    page = new_page("/")
    bot = BotMovesHeld(page)
    start_bot_match(page, "othello", "othello-random")
    wait_my_turn_or_over(page)
    bot.holding = True
    page.locator("#board [data-move].legal").first.click()
    wait_ply(page, 1)
    page.wait_for_function("() => document.getElementById('match-room').dataset.toMove === '1'")
    page.locator('#board [data-move="d4"]').click()  # taken from the start: never legal
    expect(page.locator('[data-testid="premove"]')).to_contain_text("d4")
    bot.release()
    wait_ply(page, 2)
    dropped = page.locator('[data-testid="premove-dropped"]')
    expect(dropped).to_have_text(re.compile(r"Premove d4 dropped: it is not legal"))
    screenshot(page, "dropped")
    assert ply(page) == 2  # nothing sent: the player plays their turn themselves
    expect(page.locator("#board [data-move].legal")).not_to_have_count(0)


BOXES = """selector => [...document.querySelectorAll(selector)].filter((n) => n.getClientRects().length).map((n) => {
  const r = n.getBoundingClientRect();
  const name = n.closest('[data-cell]')?.dataset.cell || n.closest('[data-move]')?.dataset.move || n.textContent.trim();
  return {w: r.width, h: r.height, x: r.x + r.width / 2, y: r.y + r.height / 2, name};
})"""


def boxes(page, selector: str) -> list[dict]:
    """Each visible match's size and centre on screen, in CSS pixels (read in one go: a redraw
    between finding the nodes and measuring them would leave detached ones)."""
    return page.evaluate(BOXES, selector)


def test_on_a_phone_a_bots_short_badge_leaves_room_for_its_name(new_page, plyground):
    """The thinking box and the move list show "AI · level N" on a phone (the algorithm in the
    title), so a long name beside it ("Backgammon Master") is not cut to three letters."""
    page = new_page("/", viewport=PHONE)
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="4"]').click()
    wait_ply(page, 2)
    badge = page.locator("#move-list li.move").nth(1).locator(".ai-badge")
    expect(badge).to_have_text(bot_badge(plyground, "connect4-random"))  # every word is still there
    expect(badge.locator(".ai-badge-detail")).to_be_hidden()
    assert badge.inner_text() == "AI · level 0"
    assert "random" in badge.get_attribute("title")
    page.set_viewport_size({"width": 1200, "height": 900})
    expect(badge.locator(".ai-badge-detail")).to_be_visible()


def test_tap_targets_are_40_px_on_a_phone(new_page, screenshot):
    page = new_page("/", viewport=PHONE)
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="4"]').click()
    wait_ply(page, 2)
    wait_my_turn_or_over(page)
    small = [b for b in boxes(page, "#board .col-target .hit") if b["w"] < MIN_TAP]
    controls = ", ".join(
        ["#move-list .move-link", ".move-nav button", ".board-tools button", ".board-tools select"]
        + ["#resign-button", "#move-form input", "#move-form button"]
    )
    small += [b for b in boxes(page, controls) if b["h"] < MIN_TAP]
    assert not small, small
    screenshot(page, "connect4")

    page = new_page("/", viewport=PHONE)
    start_bot_match(page, "othello", "othello-random")
    wait_my_turn_or_over(page)
    squares = boxes(page, "#board .square .hit")
    assert len(squares) == 64 and min(min(b["w"], b["h"]) for b in squares) >= MIN_TAP, min(b["w"] for b in squares)

    page = new_page("/", viewport=PHONE)
    start_bot_match(page, "chinese-checkers-2", "chinese-checkers-2-random")
    page.wait_for_function("() => document.querySelector('#board .movable')")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # only the board's strip scrolls
    holes = boxes(page, "#board .hole-g .hit")
    assert min(min(b["w"], b["h"]) for b in holes) >= MIN_TAP - 0.5, min(b["w"] for b in holes)
    row = sorted((b for b in holes if abs(b["y"] - holes[len(holes) // 2]["y"]) < 1), key=lambda b: b["x"])
    assert min(b["x"] - a["x"] for a, b in zip(row, row[1:], strict=False)) >= MIN_TAP - 0.5  # hit areas do not overlap
    # The strip starts where the player's pieces are: one that can move is on screen, and is tapped there.
    # Our pieces are at the board's bottom edge, above our seat's line: scrolled to, as a player would.
    page.evaluate("document.getElementById('board').scrollIntoView({block: 'end'})")
    movable = [b for b in boxes(page, "#board .movable .hit") if 0 <= b["x"] <= PHONE["width"]]
    assert movable, "no movable piece in view"
    screenshot(page, "chinese-checkers")
    page.mouse.click(movable[0]["x"], movable[0]["y"])
    expect(page.locator("#board .selected")).to_have_count(1)
    destination = page.locator("#board .destination").first
    destination.scroll_into_view_if_needed()
    box = destination.bounding_box()
    assert box["width"] >= MIN_TAP - 0.5
    destination.click()
    wait_ply(page, 1)

    # Chinese checkers flips too: our pieces, at the bottom, go to the top.
    def mean_y(seat: int) -> float:
        ys = [b["y"] for b in boxes(page, f'#board .hole-g[data-seat="{seat}"] .hit')]
        return sum(ys) / len(ys)

    assert mean_y(0) > mean_y(1)
    page.locator('[data-testid="flip-button"]').click()
    expect(page.locator("#board svg")).to_have_attribute("data-flipped", "true")
    assert mean_y(0) < mean_y(1)


def test_a_bot_game_with_a_clock(new_page, screenshot):
    page = new_page("/")
    page.locator('[data-testid="bot-connect4-random"]').click()
    page.locator('[data-testid="bot-clock-connect4"]').select_option("3+2")
    page.locator('[data-testid="play-bot-connect4"]').click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    wait_my_turn_or_over(page)
    you, bot = page.locator('[data-testid="clock-0"]'), page.locator('[data-testid="clock-1"]')
    expect(you).to_be_visible()
    expect(bot).to_have_text("3:00")
    expect(you).not_to_have_class(re.compile("running"))  # no clock runs before its seat's first move
    page.locator('#board [data-move="4"]').click()
    wait_ply(page, 2)
    wait_my_turn_or_over(page)
    expect(you).to_have_class(re.compile("running"))
    expect(bot).not_to_have_class(re.compile("running"))
    expect(bot).to_have_text("3:00")  # its first move: free
    page.locator('#board [data-move="3"]').click()
    wait_ply(page, 4)
    wait_my_turn_or_over(page)
    # Each side was charged and got the 2 s increment: the bot its search time only.
    assert re.fullmatch(r"3:0[0-2]", bot.inner_text()), bot.inner_text()
    assert re.fullmatch(r"3:0[0-2]|2:5\d", you.inner_text()), you.inner_text()
    wide = page.evaluate(
        "() => [...document.querySelectorAll('body *')].filter((n) => n.getBoundingClientRect().right > 1280)"
        ".map((n) => `${n.tagName}.${n.className.baseVal ?? n.className} ${n.getBoundingClientRect().right}`)"
    )
    assert not wide, wide  # a seat's clock never widens the page
    screenshot(page, "clocks")
    match_id = page.locator("#match-room").get_attribute("data-match-id")
    data = page.evaluate(f"fetch('/api/matches/{match_id}/').then((r) => r.json())")
    assert data["clock"]["initial_ms"] == 180000 and data["status"] == "active"
    assert data["clock"]["remaining_ms"][1] == 180000 - data["moves"][3]["think_ms"] + 2000  # its first move was free

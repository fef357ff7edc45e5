"""Backgammon played by hand on the board: one die at a time, undo, confirm, drag, forced plays."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.backgammon import Backgammon, BackgammonState, legal_plays
from games.base import CHANCE
from tests.browser.helpers import start_bot_match, wait_my_turn_or_over

CHECKERS = """() => [...document.querySelectorAll('#board .checker:not(.drag-ghost)')].map((g) => {
  const c = g.querySelector('circle');
  return `${g.dataset.seat}@${c.getAttribute('cx')},${c.getAttribute('cy')}`;
}).sort()"""
CONFIRM = '[data-testid="bg-confirm"]'
ONE_DIE = "#board .target:not(.route)"  # a target one die away (a route moves on with more dice)
# Point numbers that a checker covers, and the smallest number's height on screen.
LABELS = """() => {
  const labels = [...document.querySelectorAll('#board .point-label')].map((n) => n.getBoundingClientRect());
  const discs = [...document.querySelectorAll('#board .checker')].map((n) => n.getBoundingClientRect());
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return { covered: labels.filter((l) => discs.some((d) => overlap(l, d))).length,
           height: Math.min(...labels.map((l) => l.height)) };
}"""


def checkers(page: Page) -> list[str]:
    return page.evaluate(CHECKERS)


def wait_hand_turn(page: Page) -> None:
    """Our turn with the checkers to move by hand (not a forced play made for us)."""
    while wait_my_turn_or_over(page) == "active" and page.locator('[data-testid="bg-notice"]').is_visible():
        ply = page.locator("#match-room").get_attribute("data-ply")
        page.wait_for_function(f"() => document.getElementById('match-room').dataset.ply !== '{ply}'")
    expect(page.locator("#board .movable").first).to_be_visible()


def play_turn_by_clicks(page: Page) -> str:
    """Click a checker, then its first target, die after die; the play made, ready to confirm."""
    for _ in range(4):
        if not page.locator("#board .movable").count():
            break
        page.locator("#board .movable").first.click()
        expect(page.locator("#board .target").first).to_be_visible()
        page.locator("#board .target").first.click()
    expect(page.locator(CONFIRM)).to_be_enabled()
    return page.locator(CONFIRM).get_attribute("data-play")


def seat_numbering(move: str, seat: int, viewer: int) -> str:
    """A play as `viewer` numbers the points (the mover writes it in its own numbering)."""
    if seat == viewer:
        return move
    return re.sub(r"(^|[\s/])(\d{1,2})(?=[*/\s(]|$)", lambda m: f"{m.group(1)}{25 - int(m.group(2))}", move)


@pytest.mark.parametrize("viewport", [None, {"width": 390, "height": 844}], ids=["desktop", "phone"])
def test_a_turn_is_played_die_by_die_with_clicks_and_confirmed(new_page, screenshot, viewport):
    """The steps offered are the server's (`move_parts`): click a checker, a step, and so on, then confirm."""
    page = new_page("/", viewport=viewport)
    start_bot_match(page, "backgammon", "backgammon-random")
    wait_hand_turn(page)
    seat = page.locator("#match-room").get_attribute("data-your-seat")
    start = checkers(page)
    page.locator("#board .movable").first.click()
    expect(page.locator("#board .selected")).to_have_count(1)
    expect(page.locator("#board .target").first).to_be_visible()
    expect(page.locator("#board .die-tag").first).to_be_visible()  # which die takes it there
    screenshot(page, "picked")
    die = page.locator(ONE_DIE).first.get_attribute("data-die")
    page.locator(ONE_DIE).first.click()
    expect(page.locator("#board .die.used")).to_have_count(1)
    expect(page.locator("#board .die.used")).to_have_attribute("data-value", die)  # the die that moved it
    assert checkers(page) != start  # the partial play is on the board
    screenshot(page, "one-die")
    play = play_turn_by_clicks(page)
    expect(page.locator('[data-testid="bg-prompt"]')).to_contain_text(f"Your play: {play}")
    screenshot(page, "complete")
    labels = page.evaluate(LABELS)
    assert labels["covered"] == 0 and labels["height"] >= 12, labels
    moves = page.locator(f'#move-list li.move[data-seat="{seat}"] .move-text')
    before = moves.count()
    page.locator(CONFIRM).click()
    expect(moves).to_have_count(before + 1)
    expect(moves.nth(before)).to_have_text(play)


def test_a_turn_is_played_with_the_keyboard_and_the_focus_stays_on_the_board(new_page):
    page = new_page("/")
    start_bot_match(page, "backgammon", "backgammon-random")
    wait_hand_turn(page)
    page.locator('#board [data-spot][tabindex="0"]').focus()
    seat = page.locator("#match-room").get_attribute("data-your-seat")
    moves = page.locator(f'#move-list li.move[data-seat="{seat}"]')
    while page.locator("#board .movable").count():
        page.keyboard.press("Enter")  # pick the checker under the cursor
        page.keyboard.press("ArrowDown")  # to its first target
        page.keyboard.press("Enter")
    play = page.locator(CONFIRM).get_attribute("data-play")
    expect(page.locator(CONFIRM)).to_be_focused()  # the play is complete: Enter confirms it
    page.keyboard.press("Enter")
    expect(moves).to_have_count(1)
    expect(moves.first.locator(".move-text")).to_have_text(play)
    if wait_my_turn_or_over(page) == "active":  # after the bot's reply, the keys still play
        page.wait_for_function("() => document.activeElement && document.activeElement.closest('#board') !== null")


def test_a_partial_play_is_undone_with_the_button_and_backspace(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "backgammon", "backgammon-random")
    wait_hand_turn(page)
    start = checkers(page)
    undo = page.locator('[data-testid="bg-undo"]')
    expect(undo).to_be_disabled()
    page.locator("#board .movable").first.click()
    page.locator(ONE_DIE).first.click()
    expect(undo).to_be_enabled()
    assert checkers(page) != start
    undo.click()
    expect(page.locator("#board .die.used")).to_have_count(0)
    assert checkers(page) == start
    page.locator("#board .movable").first.click()
    expect(page.locator("#board .target").first).to_be_visible()
    routes = page.locator("#board .target.route")
    (routes if routes.count() else page.locator(ONE_DIE)).first.click()  # a checker's route, if it has one
    expect(page.locator("#board .die.used")).not_to_have_count(0)
    page.keyboard.press("Backspace")  # the whole click goes back, a route too
    expect(page.locator("#board .die.used")).to_have_count(0)
    assert checkers(page) == start
    expect(page.locator(CONFIRM)).to_be_disabled()


def test_a_checker_is_dragged_to_a_target(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "backgammon", "backgammon-random")
    wait_hand_turn(page)
    start = checkers(page)
    source = page.locator("#board .movable .hit").first.bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    target = page.locator(f"{ONE_DIE} .hit").first.bounding_box()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=8)
    expect(page.locator("#board .drag-ghost")).to_have_count(1)
    screenshot(page, "dragging")
    page.mouse.up()
    expect(page.locator("#board .die.used")).to_have_count(1)
    expect(page.locator("#board .drag-ghost")).to_have_count(0)
    assert checkers(page) != start


def test_the_bots_plays_are_written_in_the_viewers_numbering(new_page, plyground, screenshot):
    page = new_page("/")
    match_id = start_bot_match(page, "backgammon", "backgammon-random", seat=1)
    assert page.locator("#match-room").get_attribute("data-your-seat") == "1"
    expect(page.locator('[data-testid="bg-summary"]')).to_contain_text("Points are numbered from your side")
    # seat 0's 1-point (bottom right) is the 24-point of the player in seat 1
    expect(page.locator("#board .point-label").first).to_have_text("24")
    for _ in range(6):
        bot_plays = [m for m in plyground.api("GET", f"/api/matches/{match_id}/")["moves"] if m["seat"] == 0]
        if any(re.search(r"\d", m["move"]) for m in bot_plays):
            break
        wait_hand_turn(page)
        play_turn_by_clicks(page)
        page.locator(CONFIRM).click()
        wait_my_turn_or_over(page)
    expected = [seat_numbering(m["move"], 0, 1) for m in bot_plays]
    shown = page.locator('#move-list li.move[data-seat="0"] .move-text')
    expect(shown).to_have_text(expected)
    assert any(e != m["move"] for e, m in zip(expected, bot_plays, strict=True))  # renumbered, not as sent
    label = page.locator('#move-list li.move[data-seat="0"] .move-link').last.get_attribute("aria-label")
    assert label.endswith(f"played {expected[-1]}")
    screenshot(page, "seat-1")


def test_the_board_fits_a_phone_with_large_tap_targets(new_page, screenshot):
    page = new_page("/", viewport={"width": 390, "height": 844})
    start_bot_match(page, "backgammon", "backgammon-random")
    wait_hand_turn(page)
    expect(page.locator("#board svg")).to_have_attribute("data-portrait", "true")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for box in [n.bounding_box() for n in page.locator("#board .movable .hit").all()]:
        assert box["width"] >= 40 and box["height"] >= 40, box
    page.locator("#board .movable").first.click()
    for box in [n.bounding_box() for n in page.locator("#board .target .hit").all()]:
        assert box["width"] >= 40 and box["height"] >= 40, box
    for button in ("bg-undo", "bg-confirm"):
        box = page.locator(f'[data-testid="{button}"]').bounding_box()
        assert box["height"] >= 40 and box["width"] >= 40, (button, box)
    expect(page.locator("#board .point-label")).to_have_count(24)
    labels = page.evaluate(LABELS)
    assert labels["covered"] == 0 and labels["height"] >= 11, labels
    screenshot(page, "phone")
    page.locator(ONE_DIE).first.click()
    expect(page.locator("#board .die.used")).to_have_count(1)
    screenshot(page, "phone-one-die")


# --- the board module on its own, in positions the rules pick out -------------------------------


def find_position(accept: Callable[[BackgammonState, list[str]], bool], seed: int = 7) -> dict:
    """The first position of seeded random games where `accept(state, legal plays)`, as the page gets it."""
    game = Backgammon()
    rng = random.Random(seed)
    for _ in range(200):
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.to_move(state) == CHANCE:
                rolls = game.chance_outcomes(state)
                state = game.apply(state, rng.choices([m for m, _ in rolls], [p for _, p in rolls])[0])
                continue
            plays = list(legal_plays(state))
            if accept(state, plays):
                parts = game.move_parts(state)  # what the server sends with the legal plays
                return {"state": game.to_json(state), "legal": plays,
                        "parts": None if parts is None else [node.to_json() for node in parts]}  # fmt: skip
            state = game.apply(state, rng.choice(plays))
    raise AssertionError("no such position in the games tried")


def mount(page: Page, position: dict, interactive: bool = True) -> None:
    """Draw `position` with the backgammon board module for the seat to move; its moves go to window.sent."""
    page.evaluate(
        """async (position) => {
          const board = await import('/static/frontend/js/boards/backgammon.js');
          const box = document.createElement('div');
          box.id = 'board';
          box.className = 'board';
          document.querySelector('main').prepend(box);
          window.sent = [];
          const view = board.createBoard(box, { onMove: (move) => window.sent.push(move) });
          const seat = position.state.turn;
          window.live = { state: position.state, legalMoves: position.legal, moveParts: position.parts,
                          interactive: position.interactive,
                          seatToMove: seat, yourSeat: seat, lastMove: null, lastSeat: null };
          window.boardView = view;
          view.render(window.live);
        }""",
        {**position, "interactive": interactive},
    )


@pytest.mark.parametrize("kind", ["one play", "no play"])
def test_a_forced_play_is_made_for_the_player_with_a_notice(new_page, screenshot, kind):
    position = find_position(
        (lambda s, plays: len(plays) == 1 and plays[0] != "pass")
        if kind == "one play"
        else (lambda s, plays: plays == ["pass"])
    )
    page = new_page("/")
    mount(page, position)
    notice = page.locator('[data-testid="bg-notice"]')
    expect(notice).to_be_visible()
    roll = "-".join(map(str, position["state"]["dice"]))
    if kind == "one play":
        only = position["legal"][0]
        expect(notice).to_have_text(f"Only one play is possible with {roll}: {only}. It is played for you.")
    else:
        expect(notice).to_have_text(f"No checker can move with {roll}: your turn passes.")
    expect(page.locator("#board .movable")).to_have_count(0)
    screenshot(page, kind.replace(" ", "-"))
    page.wait_for_function("() => window.sent.length === 1")
    assert page.evaluate("window.sent") == position["legal"]


def test_checkers_are_borne_off_onto_the_tray(new_page, screenshot):
    def bearing_off(state: BackgammonState, plays: list[str]) -> bool:
        return len(plays) > 1 and all("off" in p for p in plays)

    position = find_position(bearing_off)
    page = new_page("/")
    mount(page, position)
    for _ in range(4):
        if not page.locator("#board .movable").count():
            break
        page.locator("#board .movable").first.click()
        off = page.locator('#board .target[data-spot="0"]')
        (off if off.count() else page.locator("#board .target").first).click()
    expect(page.locator('#board [data-testid="bg-confirm"]')).to_be_enabled()
    screenshot(page, "borne-off")
    page.keyboard.press("Enter")
    sent = page.evaluate("window.sent")
    assert len(sent) == 1 and sent[0] in position["legal"] and "off" in sent[0], json.dumps(sent)


def test_the_keyboard_plays_with_a_cursor_and_enter(new_page):
    position = find_position(lambda s, plays: len(plays) > 3 and s.dice[0] != s.dice[1] and not s.bar[s.turn])
    page = new_page("/")
    mount(page, position)
    page.locator('#board [data-spot][tabindex="0"]').focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # picks the checker under the cursor
    expect(page.locator("#board .selected")).to_have_count(1)
    page.keyboard.press("ArrowRight")  # to its first target
    page.keyboard.press("Enter")
    expect(page.locator("#board .die.used")).to_have_count(1)
    while page.locator("#board .movable").count():
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # the play is complete: Enter confirms it
    page.wait_for_function("() => window.sent.length === 1")
    assert page.evaluate("window.sent")[0] in position["legal"]


def test_the_analysis_marker_draws_an_arrow_per_checker(new_page, screenshot):
    position = find_position(lambda s, plays: any("(2)" in p for p in plays))
    play = next(p for p in position["legal"] if "(2)" in p)
    page = new_page("/")
    # As the analysis page draws it: a position to look at, not to play.  On a board being
    # played, a play previewed from the text list (under the pointer) redraws the board and
    # drops what a page added over it.
    mount(page, position, interactive=False)
    arrows = page.evaluate(
        """async ([state, play]) => {
          const board = await import('/static/frontend/js/boards/backgammon.js');
          const svg = document.querySelector('#board svg');
          const marker = board.moveMarker(state, play, svg);
          svg.append(marker);
          return marker.querySelectorAll('path[marker-end]').length;
        }""",
        [position["state"], play],
    )
    segments = play.split(" ")
    assert arrows == sum(int(re.search(r"\((\d)\)", s).group(1)) if "(" in s else 1 for s in segments)
    marker = page.locator('#board [data-testid="move-marker"]')
    expect(marker).to_be_visible()
    page.locator("#board").screenshot(path=str(screenshot(page, "marker")))
    # A phone-sized window turns the board upright: the redraw keeps the arrows, drawn anew for it.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator("#board svg")).to_have_attribute("data-portrait", "true")
    expect(marker).to_have_count(1)
    expect(marker.locator("path[marker-end]")).to_have_count(arrows)
    expect(marker).to_have_class(re.compile("move-marker"))
    page.locator("#board").screenshot(path=str(screenshot(page, "marker-phone")))


def test_a_checker_moves_on_with_both_dice_in_one_go(new_page, screenshot):
    state = BackgammonState(turn=0, dice=(6, 5), ply=1)  # the opening 6-5: "lover's leap", 24/13
    page = new_page("/")
    parts = [node.to_json() for node in Backgammon().move_parts(state)]
    mount(page, {"state": Backgammon().to_json(state), "legal": list(legal_plays(state)), "parts": parts})
    page.locator('#board [data-spot="24"]').click()
    route = page.locator('#board .target.route[data-spot="13"]')
    expect(route).to_have_attribute("data-die", "6+5")
    expect(route).to_have_attribute("aria-label", re.compile("with the 6 then the 5|with the 5 then the 6"))
    expect(page.locator('#board .target:not(.route)[data-spot="18"]')).to_have_attribute("data-die", "6")
    screenshot(page, "route")
    page.locator('#board [data-spot][tabindex="0"]').focus()  # a keyboard user's board
    route.click()
    expect(page.locator("#board .die.used")).to_have_count(2)
    expect(page.locator(CONFIRM)).to_be_focused()  # the play is complete
    page.keyboard.press("Backspace")  # the route goes back whole, from Confirm too
    expect(page.locator("#board .die.used")).to_have_count(0)
    page.locator('#board [data-spot="24"]').click()
    route.click()
    page.locator(CONFIRM).click()
    assert page.evaluate("window.sent") == ["24/13"]


def test_the_steps_offered_add_up_to_exactly_the_legal_plays(new_page):
    """Every single-die path offered from the server's steps ends in a legal play, and every one is reachable."""
    game = Backgammon()
    rng = random.Random(11)
    positions = []
    while len(positions) < 300:
        state = game.initial_state()
        while not game.is_terminal(state) and len(positions) < 300:
            if game.to_move(state) == CHANCE:
                rolls = game.chance_outcomes(state)
                state = game.apply(state, rng.choices([m for m, _ in rolls], [p for _, p in rolls])[0])
                continue
            plays = list(legal_plays(state))
            if plays != ["pass"] and rng.random() < 0.3:
                parts = [node.to_json() for node in game.move_parts(state)]
                positions.append({"state": game.to_json(state), "legal": plays, "parts": parts})
            state = game.apply(state, rng.choice(plays))
    page = new_page("/")
    wrong = page.evaluate(
        """async (positions) => {
          const { planTurn } = await import('/static/frontend/js/boards/backgammon.js');
          const wrong = [];
          for (const { state, legal, parts } of positions) {
            const seat = state.turn;
            const me = Array(26).fill(0), op = Array(26).fill(0);
            for (let p = 1; p <= 24; p += 1) {
              const n = state.points[seat === 0 ? p - 1 : 24 - p] * (seat === 0 ? 1 : -1);
              if (n > 0) me[p] = n;
              if (n < 0) op[p] = -n;
            }
            [me[0], op[0]] = [state.off[seat], state.off[1 - seat]];
            [me[25], op[25]] = [state.bar[seat], state.bar[1 - seat]];
            const [a, b] = state.dice;
            const dice = a === b ? [a, a, a, a] : [a, b];
            const plan = planTurn({ me, op }, dice, parts);
            const reached = new Set();
            let deadEnds = 0;
            const walk = (sides, left) => {
              const play = plan.playAt(sides);
              if (play) reached.add(play);
              const steps = plan.offered(sides, left);
              if (!steps.length && !play) deadEnds += 1;
              for (const step of steps) {
                const m = [...sides.me], o = [...sides.op];
                m[step.from] -= 1; m[step.to] += 1;
                if (step.hit) { o[step.to] -= 1; o[25] += 1; }
                const rest = [...left]; rest.splice(rest.indexOf(step.die), 1);
                walk({ me: m, op: o }, rest);
              }
            };
            walk({ me, op }, dice);
            // playAt names only legal plays: as many reached as there are is all of them
            if (deadEnds || reached.size !== legal.length) wrong.push({ state, legal, deadEnds });
          }
          return wrong;
        }""",
        positions,
    )
    assert wrong == []


def test_a_forced_play_waits_while_an_earlier_position_is_browsed(new_page):
    position = find_position(lambda s, plays: len(plays) == 1 and plays[0] != "pass")
    page = new_page("/")
    mount(page, position)
    # browsing the start of the game: the board shows it, nothing is played meanwhile
    page.evaluate(
        "(start) => window.boardView.render({ ...window.live, state: start, interactive: false, seatToMove: null })",
        Backgammon().to_json(BackgammonState()),
    )
    page.wait_for_timeout(2000)
    assert page.evaluate("window.sent") == []
    page.evaluate("window.boardView.render(window.live)")  # back to the live position
    page.wait_for_function("() => window.sent.length === 1")
    assert page.evaluate("window.sent") == position["legal"]

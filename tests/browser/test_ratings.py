"""Ratings in the browser: a rated match from the lobby (an account's; a guest is told to sign up),
the leaderboards page, the ratings panel.

The panel (frontend/static/frontend/js/ratings-panel.js) fills any page's
``<section id="player-ratings" data-player="NAME">``; here it runs on a throwaway page
served by Playwright beside the live stack's static files.
"""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

THROWAWAY = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="/static/frontend/css/plyground.css"><title>Ratings panel</title></head>
<body><main><section id="player-ratings" data-player="{name}"></section></main>
<script type="module" src="/static/frontend/js/ratings-panel.js"></script></body></html>"""


# Rated games need accounts, and one pair's games count three times a day (docs/security.md,
# "Farming ratings"): the leaderboard's people are made established by a round of rated
# tic-tac-toe among nine accounts, three games a pair, each won in five moves.
SEED = """
from server.matches import services
from server.players.models import Player

HUMAN = services.SeatRequest("human")


def account(name):
    player = Player(name=name, is_guest=False)
    player.save()
    return player


def win(first, second):
    match = services.match_create("tictactoe", [HUMAN, HUMAN], first, rated=True)
    services.match_join(match.pk, second)
    for ply, cell in enumerate(["1", "4", "2", "5", "3"]):
        services.submit_move(match.pk, ply % 2, cell, ply)


people = [account(name) for name in {names!r}]
for i, first in enumerate(people):
    for second in people[i + 1 :]:
        win(first, second)
        win(second, first)
        win(first, second)
win(people[0], account({provisional!r}))
"""
PARTNERS = 7


def sign_up(page, name: str) -> None:
    """The page's guest becomes an account named `name`, through the sign-up form; then the lobby."""
    from tests.browser.test_research import sign_up as sign_up_form

    sign_up_form(page, name, f"{name.lower()}@example.org")
    page.goto("/")


def test_a_rated_friend_match_from_the_lobby(new_page, plyground, screenshot):
    guest = new_page("/")
    guest.locator('[data-testid="rated-tictactoe"]').select_option("rated")
    guest.locator('[data-testid="play-friend-tictactoe"]').click()
    card_error = guest.locator('[data-game="tictactoe"] .card-error')
    expect(card_error).to_contain_text("rated games are between accounts: sign up")
    page = new_page("/", viewport={"width": 390, "height": 844})
    sign_up(page, f"Rated{uuid.uuid4().hex[:6]}")
    page.locator('[data-testid="rated-tictactoe"]').select_option("rated")
    page.locator('[data-testid="play-friend-tictactoe"]').scroll_into_view_if_needed()
    screenshot(page, "lobby-phone")
    page.locator('[data-testid="play-friend-tictactoe"]').click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/", page.url).group(1))
    assert plyground.api("GET", f"/api/matches/{match_id}/")["rated"] is True


def test_the_leaderboard_and_the_ratings_panel(new_page, plyground, screenshot):
    tag = uuid.uuid4().hex[:6]
    names = [f"Ada{tag}", f"Ben{tag}", *(f"Partner{i}x{tag}" for i in range(PARTNERS))]
    plyground.manage("shell", "-c", SEED.format(names=names, provisional=f"Cleo{tag}"))

    page = new_page("/")
    page.get_by_role("link", name="Leaderboards").click()
    page.wait_for_url(re.compile(r"/leaderboards/$"))
    board = page.locator('[data-testid="board-tictactoe"]')
    expect(board).to_contain_text(f"Ada{tag}")
    expect(board).to_contain_text(f"Ben{tag}")
    # Cleo's one rated game leaves her provisional: listed, marked "?", after the established ratings.
    cleo = board.locator("tr", has_text=f"Cleo{tag}")
    expect(cleo.locator(".rating-value")).to_have_text(re.compile(r"^\d+\?$"))
    expect(board.get_by_role("columnheader", name="Rating")).to_be_visible()
    page.locator('[data-testid="board-tab-tictactoe"]').click()
    screenshot(page, "leaderboards-desktop")
    small = new_page("/leaderboards/", viewport={"width": 390, "height": 844})
    expect(small.locator('[data-testid="board-tictactoe"]')).to_contain_text(f"Ada{tag}")
    assert small.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(small, "leaderboards-phone")

    panel_page = new_page("/")
    panel_page.route(
        "**/throwaway-ratings/*",
        lambda route: route.fulfill(
            content_type="text/html", body=THROWAWAY.format(name=route.request.url.rsplit("/", 1)[-1])
        ),
    )
    for name, mark in ((f"Ada{tag}", ""), (f"Cleo{tag}", "?")):
        panel_page.goto(f"/throwaway-ratings/{name}")
        section = panel_page.locator("#player-ratings")
        expect(section).to_have_attribute("data-ready", "true")
        value = section.locator('[data-testid="rating-value-tictactoe"]')
        expect(value).to_have_text(re.compile(rf"^\d+{re.escape(mark)}$"))
        expect(section.locator('[data-testid="rating-tictactoe"]')).to_contain_text("±")
        graph = section.locator('[data-testid="rating-graph"]')
        expect(graph).to_have_attribute("role", "img")
        expect(graph).to_have_attribute("aria-label", re.compile(r"Tic-tac-toe rating over \d+ rated games?"))
        history = section.locator('[data-testid="rating-history"] tbody tr')
        expect(history).to_have_count(3 * (PARTNERS + 1) + 1 if name.startswith("Ada") else 1)
        screenshot(panel_page, f"ratings-panel-{name[:3].lower()}")
    panel_page.set_viewport_size({"width": 390, "height": 844})
    assert panel_page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(panel_page, "ratings-panel-phone")


def test_the_match_room_shows_ratings_and_after_a_rated_end_each_change(new_page, plyground, screenshot):
    from tests.browser.test_pairing import match_id, resign, seek  # the lobby's quick pairing

    tag = uuid.uuid4().hex[:6]
    alice, bob = new_page("/"), new_page("/", viewport={"width": 390, "height": 844})
    sign_up(alice, f"Alice{tag}")
    sign_up(bob, f"Bob{tag}")
    seek(alice, "tictactoe", "")  # rated: an account's seek form starts on rated
    seek(bob, "tictactoe", "")
    assert match_id(alice) == match_id(bob)
    for page in (alice, bob):  # two accounts new to rated tic-tac-toe: the start of the scale, provisional
        expect(page.locator('[data-testid="seat-rating-0"]')).to_have_text("1500?")
        expect(page.locator('[data-testid="seat-rating-1"]')).to_have_text("1500?")
    alice_seat = int(alice.locator("#match-room").get_attribute("data-your-seat"))
    by_seat = {alice_seat: alice, 1 - alice_seat: bob}
    for ply, cell in enumerate(["5", "1", "9", "3"]):  # two moves each: a resignation before counts for nothing
        by_seat[ply % 2].locator(f'#board [data-move="{cell}"]').click()
        for page in (alice, bob):
            expect(page.locator("#match-room")).to_have_attribute("data-ply", str(ply + 1))
    winner_seat = 1 - alice_seat
    resign(alice)
    result = '[data-testid="rating-result"]'
    expect(bob.locator(result)).to_have_text(re.compile(r"^Your rating: 1500\? → 1\d{3}\? \+\d+$"))
    expect(alice.locator(result)).to_have_text(re.compile(r"^Your rating: 1500\? → 1\d{3}\? −\d+$"))
    gain = f'[data-testid="seat-rating-{winner_seat}"] .rating-diff.up'
    expect(bob.locator(gain)).to_have_text(re.compile(r"^\+\d+$"))
    expect(alice.locator(gain)).to_have_text(bob.locator(gain).inner_text())
    alice.reload()  # a page opened after the end shows the same
    expect(alice.locator('[data-testid="rating-result"]')).to_contain_text("Your rating: 1500? → ")
    screenshot(bob, "rating-change-phone")

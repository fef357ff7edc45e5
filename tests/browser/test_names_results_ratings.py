"""Names, results and ratings on one page, at a phone's width and a desktop's: seats by the game's
own names, who finished where in a game for three, bots' ratings on the players' scale (one
number a tile, its "?" and uncertainty, the ladder in order), provisional ratings on the
leaderboard, and a bot whose settings changed saying its rating is no longer measured."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from server.players.names import NAME_MAX
from tests.browser.helpers import staff_logged_in, start_bot_match

SIZES = [
    pytest.param({"width": 360, "height": 740}, id="phone"),
    pytest.param({"width": 1280, "height": 900}, id="desktop"),
]

# Three guests in a game of Chinese checkers for three; the third resigns.  Prints the match id.
THREE_AND_A_RESIGNATION = """
from server.matches import services
from server.players.services import player_create_guest
people = [player_create_guest(f"{{n}}{tag}") for n in ("Ana", "Ben", "Cyd")]
human = services.SeatRequest("human")
match = services.match_create("chinese-checkers", [human, human, human], people[0])
for person in people[1:]:
    services.match_join(match.pk, person)
services.match_resign(match.pk, 2)
print(match.pk)
"""

# Two new accounts play one rated game: both ratings provisional.
ONE_RATED_GAME = """
from server.matches import services
from server.players.models import Player
human = services.SeatRequest("human")
first, second = (Player.objects.create(name=name, is_guest=False) for name in ({first!r}, {second!r}))
match = services.match_create("tictactoe", [human, human], first, rated=True)
services.match_join(match.pk, second)
for ply, cell in enumerate(["1", "4", "2", "5", "3"]):
    services.submit_move(match.pk, ply % 2, cell, ply)
"""

# A listed bot of its own, measured, whose depth an admin then changes.
CHANGED_BOT = """
from server.bots.models import BotProfile
bot = BotProfile.objects.create(slug="{slug}", game="connect4", name="Edited{tag}", level=4, algorithm="alphabeta",
    time_budget_ms=200, max_depth=4, description="Looks four moves ahead.", rating=1200.0, deviation=80.0,
    volatility=0.06, rated_games=40)
bot.max_depth = 6
bot.clear_rating()
bot.save()
"""


def pixels_fit(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling


@pytest.mark.parametrize("size", SIZES)
def test_bot_tiles_show_one_rating_on_the_players_scale_in_ladder_order(new_page, plyground, screenshot, size):
    plyground.manage("seed_bots")  # make run's set-up: the measured ratings
    page = new_page("/", viewport=size)
    ladder = page.locator('[data-testid="ladder-chess"] .level-pill')
    expect(ladder.first).to_be_visible()
    levels = [int(ladder.nth(i).get_attribute("data-level")) for i in range(ladder.count())]
    assert levels == sorted(levels) and len(levels) >= 5
    for i in range(ladder.count()):
        tile = ladder.nth(i)
        expect(tile.locator(".level-rating")).to_have_count(1)  # one number: no second scale on the tile
        expect(tile.locator(".level-rating")).to_have_text(re.compile(r"^\d{3,4}\?? ±\d+$"))
    adaptive = page.locator('[data-testid="rating-chess-adaptive"]')
    expect(adaptive).to_have_text(re.compile(r"^starts at \d{3,4}\?? ±\d+$"))  # says why it differs from its level
    expect(adaptive).to_have_attribute("title", re.compile("against you it adapts"))
    # The Stockfish figure stays, below the bot's own, in the chosen bot's details.
    page.locator('[data-testid="bot-chess-advanced"]').click()
    details = page.locator('[data-testid="bot-details-chess"]')
    expect(details).to_contain_text(re.compile(r"Rating \d+\?? ±\d+, on the players' scale"))
    expect(details.locator('[data-testid="bot-public-rating"]')).to_contain_text("Stockfish")
    # Seats by the game's own names, not first and second.
    order = page.locator('[data-testid="order-chess"] option')
    expect(order).to_have_text(["white, moves first", "black", "either, at random"])
    screenshot(page, "chess-ladder")
    pixels_fit(page, size["width"])
    # In the match room the bot's number sits beside its name as a person's does, on the same scale.
    bot = plyground.api("GET", "/api/bots/tictactoe-random/")
    start_bot_match(page, "tictactoe", "tictactoe-random", seat=0)
    expect(page.locator('[data-testid="seat-rating-1"]')).to_have_text(f"{round(bot['rating'])}")
    expect(page.locator('[data-testid="seat-rating-0"]')).to_have_text("1500?")
    expect(page.locator('[data-testid="seat-0"]')).to_contain_text("X")
    pixels_fit(page, size["width"])


@pytest.mark.parametrize("size", SIZES)
def test_a_resignation_among_three_shows_who_finished_where(new_page, plyground, screenshot, size):
    tag = uuid.uuid4().hex[:5]
    printed = plyground.manage("shell", "-c", THREE_AND_A_RESIGNATION.format(tag=tag))
    match_id = int(printed.strip().splitlines()[-1])  # after the shell's own notes
    page = new_page(f"/matches/{match_id}/", viewport=size)
    result = page.locator('[data-testid="result"]')
    expect(result).to_be_visible()
    expect(result).not_to_contain_text("Draw")
    expect(result).to_contain_text(re.compile(rf"Shared first: Ana{tag}.* and Ben{tag}"))
    expect(result).to_have_attribute("data-places", "1,1,3")
    expect(page.locator('[data-testid="place-0"]')).to_contain_text(re.compile(rf"^1st \(shared\).*Ana{tag}"))
    expect(page.locator('[data-testid="place-2"]')).to_contain_text(re.compile(rf"^3rd.*Cyd{tag}"))
    # The seats say their colours, as the game names them.
    expect(page.locator('[data-testid="seat-2"]')).to_contain_text("purple (square)")
    pixels_fit(page, size["width"])
    screenshot(page, "three-places")


@pytest.mark.parametrize("size", SIZES)
def test_the_leaderboard_lists_provisional_ratings_marked(new_page, plyground, screenshot, size):
    tag = uuid.uuid4().hex[:5]
    # The second name is as long as a name can be: the phone's leaderboard fits it all the same.
    first, second = f"Newa{tag}", f"Newb{tag}".ljust(NAME_MAX, "w")
    plyground.manage("shell", "-c", ONE_RATED_GAME.format(first=first, second=second))
    page = new_page("/leaderboards/", viewport=size)
    board = page.locator('[data-testid="board-tictactoe"]')
    winner = board.locator("tr", has_text=f"Newa{tag}")
    expect(winner).to_have_class(re.compile("provisional"))
    expect(winner.locator(".rating-value")).to_have_text(re.compile(r"^\d+\?$"))
    expect(board.locator("tr", has_text=f"Newb{tag}").locator(".rating-value")).to_have_text(re.compile(r"^\d+\?$"))
    expect(page.locator('[data-testid="leaderboards"]')).to_contain_text("marked “?” is provisional")
    pixels_fit(page, size["width"])
    screenshot(page, "provisional")


@pytest.mark.parametrize("size", SIZES)
def test_a_bot_whose_settings_changed_says_its_rating_is_no_longer_measured(new_page, plyground, screenshot, size):
    tag = uuid.uuid4().hex[:5]
    slug = f"connect4-edited-{tag}"
    plyground.manage("shell", "-c", CHANGED_BOT.format(slug=slug, tag=tag))
    try:
        page = new_page("/", viewport=size)
        expect(page.locator(f'[data-testid="rating-{slug}"]')).to_have_text("no longer measured")
        page.locator(f'[data-testid="bot-{slug}"]').click()
        details = page.locator('[data-testid="bot-details-connect4"]')
        expect(details).to_contain_text(
            re.compile(r"Rating no longer measured: its settings changed on \d{4}-\d\d-\d\d")
        )
        pixels_fit(page, size["width"])
        screenshot(page, "no-longer-measured")
        page.goto(f"/bots/{slug}/")
        expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
        expect(page.locator("#bot-facts")).to_contain_text("no longer measured: its settings changed on")
    finally:
        gone = f"from server.bots.models import BotProfile as P; P.objects.filter(slug='{slug}').delete()"
        plyground.manage("shell", "-c", gone)


# A measured bot of its own for the admin to edit.
MEASURED_BOT = """
from server.bots.models import BotProfile
BotProfile.objects.create(slug="{slug}", game="connect4", name="Admin{tag}", level=2, algorithm="alphabeta",
    time_budget_ms=200, max_depth=2, description="Looks two moves ahead.", rating=1000.0, deviation=80.0,
    volatility=0.06, rated_games=40)
"""


@pytest.mark.parametrize("size", SIZES)
def test_the_admin_is_asked_to_update_a_bots_words_when_its_play_changes(new_page, plyground, screenshot, size):
    tag = uuid.uuid4().hex[:5]
    slug = f"connect4-admin-{tag}"
    plyground.manage("shell", "-c", MEASURED_BOT.format(slug=slug, tag=tag))
    try:
        pk = plyground.manage(
            "shell", "-c", f"from server.bots.models import BotProfile as P; print(P.objects.get(slug='{slug}').pk)"
        ).split()[-1]
        staff = staff_logged_in(new_page, plyground, viewport=size)
        staff.goto(f"/admin/bots/botprofile/{pk}/change/")
        staff.fill("#id_max_depth", "6")
        staff.locator('input[name="_save"]').click()
        error = staff.locator(".field-description .errorlist, .errorlist").first
        expect(error).to_contain_text("its description and level were written for the old settings")
        expect(error).to_contain_text("at most 6 plies deep")  # the new settings in words
        screenshot(staff, "admin-asks")
        assert plyground.api("GET", f"/api/bots/{slug}/")["rating"] == 1000.0  # nothing saved
        staff.fill("#id_description", "Looks six moves ahead.")
        staff.fill("#id_max_depth", "6")
        staff.locator('input[name="_save"]').click()
        expect(staff.locator(".messagelist")).to_contain_text("was changed successfully")
        body = plyground.api("GET", f"/api/bots/{slug}/")
        assert body["description"] == "Looks six moves ahead." and body["max_depth"] == 6
        assert body["rating"] is None and body["unmeasured_since"]  # no longer measured until calibrated
    finally:
        gone = f"from server.bots.models import BotProfile as P; P.objects.filter(slug='{slug}').delete()"
        plyground.manage("shell", "-c", gone)

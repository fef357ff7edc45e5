"""The lobby: games, bots marked as AI, and open and live matches updating live."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import bot_badge, start_bot_match, wait_my_turn_or_over
from tests.support import LiveStack


def test_lobby_shows_games_and_bots_each_marked_as_ai(new_page, screenshot):
    page = new_page("/")
    expect(page.locator('[data-testid="game-connect4"]')).to_be_visible()
    expect(page.locator('[data-testid="game-tictactoe"]')).to_be_visible()
    levels = page.locator('[data-testid="game-connect4"] .level-pill')
    expect(levels.first).to_be_visible()
    assert levels.count() >= 3
    details = page.locator('[data-testid="bot-details-connect4"]')
    for i in range(levels.count()):
        levels.nth(i).click()
        level = levels.nth(i).get_attribute("data-level")
        expect(details.locator(".ai-badge")).to_contain_text(re.compile(rf"^⚙?AI · level {level} · "))
    expect(page.locator("#player-name")).not_to_be_empty()
    screenshot(page, "lobby")


def test_on_a_phone_the_matches_come_first_and_the_index_jumps_to_a_game(new_page, screenshot):
    page = new_page("/", viewport={"width": 390, "height": 844})
    index = page.locator('[data-testid="game-index"] a')
    expect(index.filter(has_text="Chess")).to_be_visible()
    # Yours to resume, open and live: above the games' long scroll, not some 8,000 px below it.
    assert page.locator("#mine-heading").bounding_box()["y"] < page.locator("#games-heading").bounding_box()["y"]
    index.filter(has_text=re.compile("^Chess$")).click()
    expect(page).to_have_url(re.compile(r"#game-chess$"))
    expect(page.locator('[data-testid="game-chess"]')).to_be_in_viewport()
    screenshot(page, "lobby-jump-to-chess-phone")
    wide = new_page("/", viewport={"width": 1280, "height": 900})  # two columns: the matches beside the games
    expect(wide.locator('[data-testid="game-index"] a').first).to_be_visible()
    assert wide.locator("#mine-heading").bounding_box()["x"] > wide.locator("#games-heading").bounding_box()["x"]


def test_a_new_open_match_appears_in_another_lobby_and_can_be_joined(new_page, screenshot):
    watcher = new_page("/")
    expect(watcher.locator("#games .game-card").first).to_be_visible()
    host = new_page("/")
    host.locator('[data-testid="play-friend-tictactoe"]').click()
    host.wait_for_url(re.compile(r"/matches/\d+/$"))
    match_id = int(host.locator("#match-room").get_attribute("data-match-id"))
    expect(host.locator("#status")).to_contain_text("Waiting for an opponent")
    expect(host.locator("#invite-link")).to_have_value(re.compile(rf"/matches/{match_id}/$"))

    row = watcher.locator(f'#open-matches [data-testid="match-{match_id}"]')
    expect(row).to_be_visible()  # pushed over /ws/lobby/, no reload
    expect(row).to_contain_text("Open seat")
    screenshot(watcher, "open-match")
    row.locator(f'[data-testid="join-{match_id}"]').click()
    watcher.wait_for_url(re.compile(rf"/matches/{match_id}/$"))
    expect(watcher.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    expect(host.locator('[data-testid="seat-1"]')).not_to_contain_text("Open seat")
    expect(host.locator("#status")).to_have_text(re.compile("Your move"))


def test_a_match_against_a_bot_is_listed_live_with_its_ai_badge(new_page, plyground):
    watcher = new_page("/")
    expect(watcher.locator("#games .game-card").first).to_be_visible()
    player = new_page("/")
    match_id = start_bot_match(player, "connect4", "connect4-deep", seat=1)
    row = watcher.locator(f'#live-matches [data-testid="match-{match_id}"]')
    expect(row).to_be_visible()
    expect(row.locator(".ai-badge")).to_have_text(bot_badge(plyground, "connect4-deep"))
    watcher.locator(f'[data-testid="watch-{match_id}"]').click()
    expect(watcher.locator("#match-room")).to_have_attribute("data-your-seat", "")


def test_each_bot_has_a_page_that_explains_how_it_plays(new_page, plyground, screenshot):
    badge = bot_badge(plyground, "connect4-deep")
    page = new_page("/")
    page.locator('[data-testid="bot-connect4-deep"]').click()
    page.locator('[data-testid="bot-details-connect4"] a.bot-link').click()
    expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
    expect(page.locator("#bot-badge .ai-badge")).to_have_text(badge)
    expect(page.locator("#bot-how")).to_contain_text("alpha-beta")
    screenshot(page, "bot")
    page.locator('[data-testid="play-this-bot"]').click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator('[data-testid="seat-1"] .ai-badge')).to_have_text(badge)


def test_a_bot_that_searches_one_ply_is_not_said_to_search_replies(new_page):
    page = new_page("/bots/backgammon-master/")
    expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
    expect(page.locator("#bot-how")).to_contain_text("no further than its own move")
    expect(page.locator("#bot-how")).not_to_contain_text("replies, and at dice rolls")
    expect(page.locator("#bot-how")).not_to_contain_text("does not always play")  # the Master never slips
    page = new_page("/bots/backgammon-adaptive/")
    expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
    expect(page.locator("#bot-how")).to_contain_text("no further than its own move")
    page = new_page("/bots/chess-master/")  # searches deeper: the algorithm's own story
    expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
    expect(page.locator("#bot-how")).to_contain_text("alpha-beta")


def test_a_bots_page_says_how_often_it_slips_and_how_it_picks_its_slips(new_page):
    page = new_page("/bots/backgammon-beginner/")  # slips on every move it can, spread by its temperature
    expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
    facts = page.locator("#bot-facts")
    expect(facts).to_contain_text("whenever it has another of its better moves, drawn nearly at random")
    expect(page.locator("#bot-how")).to_contain_text("does not always play that best move")
    page = new_page("/bots/backgammon-casual/")
    expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
    expect(page.locator("#bot-facts")).to_contain_text("on about 88% of its moves")
    expect(page.locator("#bot-facts")).not_to_contain_text("nearly at random")


@pytest.mark.parametrize("slug", ["backgammon-beginner", "chess-master"])
def test_a_bots_settings_fit_a_phone(new_page, slug):
    # The longest values: the rating command line, and chess's Stockfish scale and its method.
    page = new_page(f"/bots/{slug}/", viewport={"width": 390, "height": 844})
    expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
    expect(page.locator("#bot-facts dd").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling


def test_your_matches_lists_running_and_finished_ones_to_resume_or_replay(new_page):
    page = new_page("/")
    finished = start_bot_match(page, "tictactoe", "tictactoe-random")
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="5"]').click()
    expect(page.locator("#move-list li.move")).to_have_count(2)
    page.locator("#resign-button").click()
    page.locator("#resign-button").click()
    expect(page.locator("#result")).to_be_visible()
    page.goto("/")
    running = start_bot_match(page, "connect4", "connect4-random")
    page.goto("/")

    mine = page.locator("#my-matches")
    expect(mine.locator(f'[data-testid="mine-{running}"]')).to_contain_text("Resume")
    done = mine.locator(f'[data-testid="mine-{finished}"]')
    expect(done).to_contain_text("lost, resigned")
    expect(done.locator(".ai-badge")).to_be_visible()
    done.get_by_role("link", name="Replay").click()
    expect(page.locator("#match-room")).to_have_attribute("data-status", "finished")
    expect(page.locator("#board .mark")).to_have_count(2)  # the board has loaded: browsing starts from it
    page.locator('#move-list [data-goto="1"]').click()
    expect(page.locator('#board [data-move="5"] .mark-x')).to_be_visible()
    expect(page.locator("#board .mark")).to_have_count(1)


def test_cancelling_an_open_match_takes_it_off_every_lobby(new_page):
    watcher = new_page("/")
    expect(watcher.locator("#games .game-card").first).to_be_visible()
    host = new_page("/")
    host.locator('[data-testid="play-friend-connect4"]').click()
    host.wait_for_url(re.compile(r"/matches/\d+/$"))
    match_id = int(host.locator("#match-room").get_attribute("data-match-id"))
    row = watcher.locator(f'#open-matches [data-testid="match-{match_id}"]')
    expect(row).to_be_visible()
    host.goto("/")
    own = host.locator(f'#open-matches [data-testid="match-{match_id}"]')
    expect(own.locator(f'[data-testid="join-{match_id}"]')).to_have_count(0)  # our own match: no Join
    own.locator(f'[data-testid="watch-{match_id}"]').click()
    cancel = host.locator("#resign-button")
    expect(cancel).to_have_text("Cancel match")
    cancel.click()
    cancel.click()
    expect(host.locator("#result")).to_contain_text("aborted")
    expect(row).to_have_count(0)


@pytest.fixture(scope="module")
def adjourning_stack():
    """A stack of its own where a match against bots is adjourned 3 s after its person left."""
    with LiveStack(embedded=True, extra_env={"ADJOURN_AFTER_MS": "3000"}) as stack:
        yield stack


def test_an_adjourned_match_waits_under_your_matches_and_resumes_where_it_stopped(
    new_page, adjourning_stack, screenshot
):
    page = new_page("/", server=adjourning_stack)
    match_id = start_bot_match(page, "connect4", "connect4-random")
    assert wait_my_turn_or_over(page) == "active"
    page.locator('#board [data-move="4"]').click()
    expect(page.locator("#move-list li.move")).to_have_count(2)  # the bot replied
    page.goto("/")  # the match socket closes: the person has left the match

    row = page.locator(f'#my-matches [data-testid="mine-{match_id}"]')
    expect(row).to_contain_text("adjourned", timeout=20_000)  # pushed over /ws/lobby/, no reload
    expect(page.locator(f'#live-matches [data-testid="match-{match_id}"]')).to_have_count(0)
    expect(page.locator("#lobby-counts")).to_contain_text("0 matches being played")
    screenshot(page, "adjourned")
    page.reload()  # the list comes from the API too
    resume = page.locator(f'[data-testid="resume-{match_id}"]')
    expect(resume).to_be_visible()

    resume.click()
    page.wait_for_url(re.compile(rf"/matches/{match_id}/$"))
    expect(page.locator("#match-room")).to_have_attribute("data-status", "active")
    assert wait_my_turn_or_over(page) == "active"
    expect(page.locator("#move-list li.move")).to_have_count(2)
    page.locator('#board [data-move="4"]').click()
    expect(page.locator("#move-list li.move")).to_have_count(4)  # play goes on: the bot replies again


def test_seeded_bots_show_their_measured_rating_on_a_phone(new_page, plyground, screenshot):
    """After `make run`'s set-up (seed_bots) every tile says its rating on the players' scale with its "?" and
    RD, one number; the details and the bot page add the calibration games and date."""
    plyground.manage("seed_bots")
    page = new_page("/", viewport={"width": 390, "height": 844})
    tiles = page.locator('[data-testid="ladder-tictactoe"] .level-pill')
    expect(tiles.first).to_be_visible()
    for i in range(tiles.count()):
        rating = tiles.nth(i).locator(".level-rating")
        expect(rating).to_have_text(re.compile(r"^\d+\?? ±\d+$"))
    page.locator('[data-testid="bot-tictactoe-advanced"]').click()
    details = page.locator('[data-testid="bot-details-tictactoe"]')
    expect(details).to_contain_text(
        re.compile(r"Rating \d+\?? ±\d+, on the players' scale · \d+ calibration games, \d{4}-\d\d-\d\d")
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    screenshot(page, "ratings-phone")
    details.locator("a.bot-link").click()
    expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
    facts = page.locator("#bot-facts")
    expect(facts).to_contain_text(
        re.compile(r"Rating\s*\d+\?? ±\d+, on the players' scale · \d+ calibration games, \d{4}-\d\d-\d\d")
    )
    expect(facts).to_contain_text("manage.py calibrate --game tictactoe")
    screenshot(page, "bot-rating-phone")
    # A figure measured with a capped budget (`calibrate --budget-cap-ms`) says so, and is never
    # shown as the real one.  Every seeded figure is measured at full budgets: one is capped here.
    capped = "from server.bots.models import BotProfile as P; P.objects.filter(slug='chess-master')"
    plyground.manage("shell", "-c", f"{capped}.update(rating_budget_cap_ms=150)")
    try:
        page.goto("/bots/chess-master/")
        expect(page.locator("#bot-page")).to_have_attribute("data-ready", "true")
        budget_s = plyground.api("GET", "/api/bots/chess-master/")["time_budget_ms"] / 1000
        expect(page.locator("#bot-facts")).to_contain_text(
            f"measured with its budget capped at 150 ms; it plays with {budget_s:.1f} s"
        )
    finally:  # seed_bots never undoes a profile's own figure of the same day: put the cap back by hand
        plyground.manage("shell", "-c", f"{capped}.update(rating_budget_cap_ms=None)")

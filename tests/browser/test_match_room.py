"""The match room, played in a real browser against the real server."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.helpers import bot_badge, budget_text, play_until_over, start_bot_match, wait_my_turn_or_over


def test_connect4_against_a_bot_by_clicking_to_the_result(new_page, plyground, screenshot):
    page = new_page("/")
    match_id = start_bot_match(page, "connect4", "connect4-random")
    # the game's name and its board module, from the game catalogue
    expect(page.locator("#match-title")).to_have_text(f"Connect Four · match {match_id}")
    expect(page).to_have_title("Your move · Connect Four · Plyground")
    expect(page.locator("#board")).to_have_attribute("data-game", "connect4")
    expect(page.locator('[data-testid="seat-1"] .ai-badge')).to_have_text(bot_badge(plyground, "connect4-random"))
    expect(page.locator("#status")).to_have_text(re.compile("Your move"))
    expect(page.locator("#board [data-move].legal")).to_have_count(7)

    page.locator('#board [data-move="4"]').click()
    # the bot's reply arrives on the socket and is listed with its AI badge
    expect(page.locator("#move-list li.move")).to_have_count(2)
    expect(page.locator("#move-list li.move").nth(1).locator(".ai-badge")).to_be_visible()
    expect(page.locator("#board .last-move-ring")).to_have_count(1)
    screenshot(page, "playing")

    play_until_over(page, preferred=["4", "3", "5"])
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result).to_contain_text(re.compile("You won|You lost|Draw"))
    expect(page.locator("#board [data-move].legal")).to_have_count(0)
    if "You lost" in result.inner_text():
        expect(result.locator(".ai-badge")).to_be_visible()  # the winner is shown as a bot
    moves = page.locator("#move-list li.move")
    for i in range(moves.count()):
        if moves.nth(i).get_attribute("data-seat") == "1":
            expect(moves.nth(i).locator(".ai-badge")).to_be_visible()
    screenshot(page, "result")


def test_tictactoe_by_keyboard_with_moves_announced(new_page):
    page = new_page("/")
    start_bot_match(page, "tictactoe", "tictactoe-random")
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="5"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('#board [data-move="5"] .mark-x')).to_be_visible()
    expect(page.locator("#announcer")).to_contain_text(re.compile("played"))
    while wait_my_turn_or_over(page) == "active":
        ply = page.locator("#match-room").get_attribute("data-ply")
        legal = page.locator("#board [data-move].legal").first.get_attribute("data-move")
        page.locator("#board").locator(f'[data-move="{legal}"]').focus()
        page.keyboard.press(legal)  # typing the move plays it
        page.wait_for_function(f"() => document.getElementById('match-room').dataset.ply !== '{ply}'")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#announcer")).to_contain_text(re.compile("won|Draw|lost"))


def test_the_bot_thinking_state_shows_its_budget(new_page, plyground, screenshot):
    page = new_page("/")
    start_bot_match(page, "connect4", "connect4-deep")
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="4"]').click()  # the bot then searches for its whole budget
    thinking = page.locator("#thinking")
    expect(thinking).to_be_visible()
    expect(page.locator('[data-testid="seat-1"] .turn-tag')).to_have_text("thinking…")
    expect(thinking.locator(".ai-badge")).to_have_text(bot_badge(plyground, "connect4-deep"))
    expect(thinking).to_contain_text(f"budget {budget_text(plyground, 'connect4-deep')}")
    expect(page.locator("#board [data-move].legal")).to_have_count(0)  # not our turn
    screenshot(page, "thinking")
    expect(page.locator("#move-list li.move")).to_have_count(2, timeout=10000)
    expect(thinking).to_be_hidden()
    expect(page.locator("#status")).to_have_text(re.compile("Your move"))


def test_spectators_see_moves_live_on_a_read_only_board(new_page, screenshot):
    player = new_page("/")
    match_id = start_bot_match(player, "connect4", "connect4-random")
    spectator = new_page(f"/matches/{match_id}/")
    expect(spectator.locator("#match-room")).to_have_attribute("data-ready", "true")
    expect(spectator.locator("#match-room")).to_have_attribute("data-your-seat", "")
    expect(spectator.locator("#board [data-move].legal")).to_have_count(0)
    expect(spectator.locator("#resign-button")).to_be_hidden()

    wait_my_turn_or_over(player)
    player.locator('#board [data-move="3"]').click()
    expect(spectator.locator("#move-list li.move")).to_have_count(2)
    spectator.locator('#board [data-move="5"]').click(force=True)
    expect(spectator.locator("#error")).to_contain_text("watching")
    expect(spectator.locator("#move-list li.move")).to_have_count(2)
    screenshot(spectator, "spectator")


def test_reload_and_server_restart_lose_nothing(new_page, restartable_stack, screenshot):
    stack = restartable_stack
    page = new_page("/", server=stack)
    match_id = start_bot_match(page, "connect4", "connect4-random")
    for column in ("4", "4"):
        wait_my_turn_or_over(page)
        page.locator(f'#board [data-move="{column}"]').click()
    expect(page.locator("#move-list li.move")).to_have_count(4)

    page.reload()
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    expect(page.locator("#move-list li.move")).to_have_count(4)
    expect(page.locator("#board .disc")).to_have_count(4)
    expect(page.locator("#match-room")).to_have_attribute("data-your-seat", "0")

    stack.stop()
    expect(page.locator("#reconnect-banner")).to_be_visible()
    screenshot(page, "reconnecting")
    stack.start()
    # Skip the rest of the backoff, unless the page got back on its own while the worker was starting.
    page.evaluate(
        "() => { const b = document.getElementById('reconnect-banner');"
        " if (!b.hidden) b.querySelector('.banner-retry').click(); }"
    )
    expect(page.locator("#reconnect-banner")).to_be_hidden(timeout=15000)
    assert page.url.endswith(f"/matches/{match_id}/")
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="1"]').click()
    expect(page.locator("#move-list li.move")).to_have_count(6)


def test_resign_needs_a_confirmation_and_ends_the_match(new_page):
    page = new_page("/")
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    resign = page.locator("#resign-button")
    resign.click()
    expect(resign).to_have_text("Confirm: resign")
    resign.click()
    expect(page.locator("#result")).to_contain_text("won")
    expect(page.locator("#result .ai-badge")).to_be_visible()
    expect(page.locator("#match-room")).to_have_attribute("data-status", "finished")


def test_an_unknown_match_says_so(new_page):
    page = new_page("/matches/999999/")
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "missing")
    expect(page.locator("#status")).to_contain_text(re.compile("no match|cannot be opened", re.I))
    expect(page.locator("#reconnect-banner")).to_be_hidden()


def test_the_move_list_browses_earlier_positions_without_leaving_the_live_game(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "connect4", "connect4-random")
    for column in ("4", "3"):
        wait_my_turn_or_over(page)
        page.locator(f'#board [data-move="{column}"]').click()
    expect(page.locator("#move-list li.move")).to_have_count(4)
    wait_my_turn_or_over(page)

    page.locator('#move-list [data-goto="1"]').click()
    expect(page.locator("#board .disc")).to_have_count(1)
    expect(page.locator("#viewing-note")).to_be_visible()
    expect(page.locator("#board [data-move].legal")).to_have_count(0)
    page.locator('[data-nav="next"]').click()
    expect(page.locator("#board .disc")).to_have_count(2)
    page.locator('[data-nav="first"]').click()
    expect(page.locator("#board .disc")).to_have_count(0)
    screenshot(page, "browsing")
    page.locator("#moves-heading").click()
    page.keyboard.press("ArrowRight")  # arrows browse too, outside the board
    expect(page.locator("#board .disc")).to_have_count(1)
    page.locator('[data-nav="last"]').click()
    expect(page.locator("#viewing-note")).to_be_hidden()
    expect(page.locator("#board .disc")).to_have_count(4)
    expect(page.locator("#board [data-move].legal")).not_to_have_count(0)


def test_rematch_starts_a_new_match_with_the_same_bot(new_page, plyground):
    page = new_page("/")
    first = start_bot_match(page, "tictactoe", "tictactoe-random", seat=1)
    expect(page.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    wait_my_turn_or_over(page)
    page.locator("#resign-button").click()
    page.locator("#resign-button").click()
    page.locator("#rematch-button").click()
    page.wait_for_url(lambda url: re.search(r"/matches/(\d+)/$", url) and not url.endswith(f"/matches/{first}/"))
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    assert int(page.locator("#match-room").get_attribute("data-match-id")) != first
    expect(page.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    expect(page.locator('[data-testid="seat-0"] .ai-badge')).to_have_text(bot_badge(plyground, "tictactoe-random"))


def test_othello_between_two_people_on_a_phone_and_a_desktop(new_page, screenshot):
    host = new_page("/")
    host.locator('[data-testid="play-friend-othello"]').click()
    host.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(host.locator("#match-room")).to_have_attribute("data-ready", "true")
    invite = host.locator("#invite-link").input_value()
    friend = new_page(invite, viewport={"width": 390, "height": 844})
    friend.locator('[data-testid="join-button"]').click()
    expect(friend.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    expect(host.locator("#status")).to_have_text(re.compile("Your move"))
    expect(host.locator("#board [data-move].legal")).to_have_count(4)  # the four opening moves
    for page, move in [(host, "d3"), (friend, "c3"), (host, "c4")]:
        wait_my_turn_or_over(page)
        page.locator(f'#board [data-move="{move}"]').click()
    for page in (host, friend):
        expect(page.locator("#move-list li.move")).to_have_count(3)
        expect(page.locator('#board [data-move="c4"]')).to_have_attribute("data-seat", "0")
    expect(friend.locator('[data-testid="disc-counts"]')).to_have_text("Black 5 · White 2")
    screenshot(friend, "phone")
    screenshot(host, "desktop")


def test_typing_a_move_plays_it(new_page):
    page = new_page("/")
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    page.locator("#move-input").fill("9")
    page.locator("#move-input").press("Enter")
    expect(page.locator("#error")).to_contain_text("not a move")
    page.locator("#move-input").fill("2")
    page.locator("#move-input").press("Enter")
    expect(page.locator("#move-list li.move").first).to_contain_text("2")


def test_connect4_by_keyboard_arrows_and_enter(new_page):
    page = new_page("/")
    start_bot_match(page, "connect4", "connect4-random")
    wait_my_turn_or_over(page)
    page.locator('#board [data-move="1"]').focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator('#board [data-move="4"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#move-list li.move").first).to_contain_text("4")
    expect(page.locator("#board .disc")).to_have_count(2)


def test_backgammon_against_a_bot_shows_dice_and_previews_a_play(new_page, screenshot):
    # Played by hand on the board in test_backgammon.py; here the keyboard's list of whole plays.
    page = new_page("/")
    start_bot_match(page, "backgammon", "backgammon-random")
    expect(page.locator("#move-list li.move.chance").first).to_contain_text(re.compile(r"open \d-\d"))
    wait_my_turn_or_over(page)
    expect(page.locator("#board .die")).not_to_have_count(0)
    play = page.locator("#board .bg-plays [data-move]").first
    play.focus()
    expect(play).to_be_visible()  # out of sight until focused
    expect(page.locator("#board .point.to")).not_to_have_count(0)  # the play is previewed on the board
    screenshot(page, "preview")
    text = play.get_attribute("data-move")
    moves = page.locator("#move-list li.move").count()
    page.keyboard.press("Enter")
    expect(page.locator("#move-list li.move").nth(moves)).to_contain_text(text)
    expect(page.locator("#move-list li.move").nth(moves + 1)).to_have_class(re.compile("chance"))


def test_chinese_checkers_select_a_piece_then_a_destination(new_page, screenshot):
    page = new_page("/")
    start_bot_match(page, "chinese-checkers", "chinese-checkers-random")
    expect(page.locator("#seats .seat")).to_have_count(3)
    expect(page.locator("#seats .ai-badge")).to_have_count(2)
    page.wait_for_function("() => document.querySelector('#board .movable')")
    piece = page.locator("#board .movable").first
    origin = piece.get_attribute("data-cell")
    piece.click()
    expect(page.locator(f'#board [data-cell="{origin}"]')).to_have_class(re.compile("selected"))
    destination = page.locator("#board .destination").first
    target = destination.get_attribute("data-cell")
    screenshot(page, "selected")
    destination.click()
    expect(page.locator("#move-list li.move").first).to_contain_text(re.compile(rf"^.*{origin}.*{target}", re.S))
    expect(page.locator(f'#board [data-cell="{target}"]')).to_have_attribute("data-seat", "0")


def test_two_player_chinese_checkers_uses_the_same_board_under_its_own_name(new_page):
    page = new_page("/")
    match_id = start_bot_match(page, "chinese-checkers-2", "chinese-checkers-2-random")
    expect(page.locator("#match-title")).to_have_text(f"Chinese checkers (two players) · match {match_id}")
    expect(page.locator("#seats .seat")).to_have_count(2)
    page.wait_for_function("() => document.querySelector('#board .movable')")
    page.locator("#board .movable").first.click()
    expect(page.locator("#board .destination").first).to_be_visible()


def test_othello_moves_are_browsed_with_positions_from_the_server(new_page):
    page = new_page("/")
    start_bot_match(page, "othello", "othello-random")
    wait_my_turn_or_over(page)
    counts = page.locator('[data-testid="disc-counts"]')
    start = counts.inner_text()
    page.locator("#board [data-move].legal").first.click()
    expect(page.locator("#move-list li.move")).to_have_count(2)
    wait_my_turn_or_over(page)
    live = counts.inner_text()
    page.locator('[data-nav="first"]').click()
    expect(page.locator("#viewing-note")).to_be_visible()
    expect(counts).to_have_text(start)  # the start position, rebuilt by the server
    page.locator('[data-nav="last"]').click()
    expect(counts).to_have_text(live)

"""Chat in the match room (docs/wire.md, "Chat in the match room"), in real browsers."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.browser.helpers import staff_logged_in
from tests.browser.test_match_actions import friend_match


def say(page, text: str) -> None:
    """Type a line in the chat box and send it with Enter, as a keyboard user does."""
    box = page.locator('[data-testid="chat-input"]')
    box.fill(text)
    box.press("Enter")
    expect(box).to_have_value("")  # cleared once the server sent it back


def lines(page):
    return page.locator('[data-testid="chat-log"] li')


def test_two_players_chat_live_spectators_have_their_own_room_and_a_reload_keeps_it(new_page, screenshot):
    host, friend = friend_match(new_page, "connect4")
    for page in (host, friend):
        expect(page.locator('[data-testid="chat"]')).to_be_visible()
        expect(page.locator("#chat-title")).to_have_text("Chat")
    say(host, "good luck!")
    expect(lines(friend)).to_have_count(1)
    expect(lines(friend).first).to_contain_text("good luck!")
    host_name = host.locator("#seats li").first.locator(".player-name").inner_text()
    expect(lines(friend).first.locator(".chat-author")).to_have_text(f"{host_name} Guest:")  # the host is a guest
    expect(lines(host).first.locator(".chat-author")).to_have_text("You:")
    # Announced politely to screen readers: the log is a polite live region.
    expect(friend.locator('[data-testid="chat-log"]')).to_have_attribute("role", "log")
    expect(friend.locator('[data-testid="chat-log"]')).to_have_attribute("aria-live", "polite")
    say(friend, "have fun")
    expect(lines(host)).to_have_count(2)

    spectator = new_page(host.url)
    expect(spectator.locator("#match-room")).to_have_attribute("data-ready", "true")
    expect(spectator.locator("#chat-title")).to_have_text("Spectators' chat")
    expect(lines(spectator)).to_have_count(0)  # the players' conversation is theirs
    spectator.locator("#chat-as-guest").click()  # a visitor gets a name first
    expect(spectator.locator('[data-testid="chat-input"]')).to_be_focused()
    guest = spectator.locator("#player-name")
    expect(guest).to_contain_text(re.compile(r"\w+ guest"))  # the header names the new guest
    say(spectator, "play 4!")
    expect(lines(spectator)).to_have_count(1)
    other_spectator = new_page(host.url)
    expect(lines(other_spectator)).to_have_count(1)
    expect(lines(other_spectator).first).to_contain_text("play 4!")
    screenshot(spectator, "spectators")

    host.reload()
    expect(host.locator("#match-room")).to_have_attribute("data-ready", "true")
    expect(lines(host)).to_have_count(2)  # no advice from the spectators reached the players
    expect(lines(host).nth(0)).to_contain_text("good luck!")
    expect(lines(host).nth(1)).to_contain_text("have fun")
    screenshot(host, "players")


def test_refused_messages_say_why_and_keep_the_text(new_page):
    host, friend = friend_match(new_page, "tictactoe")
    box = host.locator('[data-testid="chat-input"]')
    for n in range(5):  # digits: the board's keys, but a field with the focus keeps its keys
        say(host, str(n + 1))
    expect(host.locator("#move-list li.move")).to_have_count(0)
    box.fill("one too many")
    box.press("Enter")
    expect(host.locator('[data-testid="chat-error"]')).to_contain_text("At most 5 messages")
    expect(box).to_have_value("one too many")
    expect(lines(friend)).to_have_count(5)
    expect(host.locator('[data-testid="error"]')).to_have_text("")  # the board's line stays quiet


def test_a_message_staff_delete_disappears_live(new_page, plyground):
    host, friend = friend_match(new_page, "connect4")
    rude = f"rude words {uuid.uuid4().hex[:6]}"
    say(host, rude)
    say(host, "sorry")
    expect(lines(friend)).to_have_count(2)
    staff = staff_action(new_page, plyground, rude.split()[-1], "hide_messages")
    expect(staff.locator(".messagelist")).to_contain_text("1 message(s) hidden")
    for page in (host, friend):
        expect(lines(page)).to_have_count(1)
        expect(lines(page).first).to_contain_text("sorry")
    friend.reload()
    expect(friend.locator("#match-room")).to_have_attribute("data-ready", "true")
    expect(lines(friend)).to_have_count(1)


def test_on_a_phone_the_chat_folds_counts_new_lines_and_opens_by_keyboard(new_page, screenshot):
    host, _ = friend_match(new_page, "connect4")
    phone = new_page(host.url, viewport={"width": 390, "height": 844})
    expect(phone.locator("#match-room")).to_have_attribute("data-ready", "true")
    toggle = phone.locator('[data-testid="chat-toggle"]')
    expect(toggle).to_have_attribute("aria-expanded", "false")  # folded below the board
    expect(phone.locator("#chat-body")).to_be_hidden()
    desk = new_page(host.url)
    desk.locator("#chat-as-guest").click()
    say(desk, "hello phone")
    expect(phone.locator('[data-testid="chat-unread"]')).to_have_text("1 new")
    expect(phone.locator('[data-testid="announcer"]')).to_contain_text("says: hello phone")
    toggle.focus()
    phone.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(phone.locator('[data-testid="chat-unread"]')).to_be_hidden()
    expect(lines(phone).first).to_contain_text("hello phone")
    expect(phone.locator("#chat-as-guest")).to_be_visible()
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    screenshot(phone, "phone")
    phone.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_have_text(re.compile("Spectators' chat"))


def test_a_person_staff_mute_is_told_live_and_unmuting_gives_the_box_back(new_page, plyground, screenshot):
    host, friend = friend_match(new_page, "connect4")
    spam = f"spam {uuid.uuid4().hex[:6]}"
    say(friend, spam)
    staff = staff_action(new_page, plyground, spam.split()[-1], "mute_authors_for_a_day")
    expect(staff.locator(".messagelist")).to_contain_text("1 player(s) muted")

    refused = friend.locator("#chat-refused")
    expect(refused).to_contain_text(re.compile(r"You are muted in chat until \d{4}-\d\d-\d\d \d\d:\d\d UTC\."))
    expect(friend.locator('[data-testid="chat-input"]')).to_be_hidden()
    expect(host.locator('[data-testid="chat-input"]')).to_be_visible()  # the other player is not muted
    screenshot(friend, "muted")

    friend_name = friend.locator("#seats li").nth(1).locator(".player-name").inner_text()
    staff.goto(f"/admin/chat/chatmute/?q={friend_name}")
    staff.locator('input[name="_selected_action"]').first.check()
    staff.locator('select[name="action"]').select_option("delete_selected")
    staff.locator('button[name="index"]').click()
    staff.locator('input[type="submit"]').click()  # "Yes, I'm sure"
    expect(refused).to_be_hidden()
    say(friend, "sorry about that")
    expect(lines(host).last).to_contain_text("sorry about that")


def staff_action(new_page, plyground, search: str, action: str):
    """A new staff member logs in to the admin (password and TOTP code) and runs `action` on the first
    chat message matching `search`."""
    staff = staff_logged_in(new_page, plyground)
    staff.goto(f"/admin/chat/chatmessage/?q={search}")
    staff.locator('input[name="_selected_action"]').first.check()
    staff.locator('select[name="action"]').select_option(action)
    staff.locator('button[name="index"]').click()
    return staff

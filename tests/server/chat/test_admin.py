"""Staff tools in the admin: hide a message everywhere, mute a person (server/chat/admin.py)."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from server.chat import services
from server.chat.models import ChatMessage, ChatMute
from server.chat.selectors import chat_group, mute_message, person_group
from server.matches import frames
from tests.server.conftest import human_match

pytestmark = pytest.mark.django_db(transaction=True)  # the live frame is sent after commit


def test_staff_hide_a_message_and_its_room_hears_it_gone(staff, alice, bob):
    match = human_match("connect4", alice, bob)
    rude = services.chat_post(match.pk, alice.pk, "something rude")
    listing = staff.get("/admin/chat/chatmessage/")
    assert listing.status_code == 200 and b"something rude" in listing.content
    with mock.patch("server.chat.services.broadcast.send_to_group") as sent:
        answer = staff.post(
            "/admin/chat/chatmessage/",
            {"action": "hide_messages", "_selected_action": [rude.pk]},
            follow=True,
        )
    assert answer.status_code == 200 and b"1 message(s) hidden" in answer.content
    sent.assert_called_once_with(
        chat_group(match.pk, "players"), {"type": "chat_deleted", "id": rude.pk, "room": "players"}
    )
    assert ChatMessage.objects.get(pk=rude.pk).deleted
    # Hidden, never erased: a report can still be judged.
    assert staff.get(f"/admin/chat/chatmessage/{rude.pk}/delete/").status_code == 403


def test_staff_mute_a_person_from_the_admin(staff, alice, bob):
    match = human_match("connect4", alice, bob)
    answer = staff.post(
        "/admin/chat/chatmute/add/", {"player": alice.pk, "until_0": "", "until_1": "", "reason": "insults"}
    )
    assert answer.status_code == 302, answer.content[:2000]
    mute = ChatMute.objects.get(player=alice)
    assert mute.until is None and mute.created_by.username == "root"
    with pytest.raises(Exception) as refused:
        services.chat_post(match.pk, alice.pk, "hello")
    assert refused.value.code == "chat_muted"


def test_staff_mute_the_authors_of_selected_messages_for_a_day(staff, alice, bob):
    match = human_match("connect4", alice, bob)
    said = services.chat_post(match.pk, bob.pk, "spam spam")
    staff.post("/admin/chat/chatmessage/", {"action": "mute_authors_for_a_day", "_selected_action": [said.pk]})
    mute = ChatMute.objects.get(player=bob)
    assert mute.until is not None
    assert services.chat_post(match.pk, alice.pk, "still fine").text == "still fine"


def test_each_way_staff_change_a_mute_tells_the_person_what_holds_now(staff, alice, bob):
    match = human_match("connect4", alice, bob)
    said = services.chat_post(match.pk, bob.pk, "spam spam")
    told = person_group(bob.pk)
    with mock.patch("server.chat.services.broadcast.send_to_group") as sent:
        staff.post("/admin/chat/chatmessage/", {"action": "mute_authors_for_a_day", "_selected_action": [said.pk]})
        day = ChatMute.objects.get(player=bob)
        assert sent.call_args.args == (told, frames.chat_muted(day.until.isoformat(), mute_message(day)))

        staff.post("/admin/chat/chatmute/add/", {"player": bob.pk, "until_0": "", "until_1": "", "reason": "again"})
        for_good = ChatMute.objects.get(player=bob, until__isnull=True)
        assert sent.call_args.args == (told, frames.chat_muted(None, "you are muted in chat until staff lift it"))

        # Lifting the mute for good leaves the day's: still muted, until the day's end.
        lift = {"action": "delete_selected", "_selected_action": [for_good.pk], "post": "yes"}
        staff.post("/admin/chat/chatmute/", lift)
        assert not ChatMute.objects.filter(pk=for_good.pk).exists()
        assert sent.call_args.args == (told, frames.chat_muted(day.until.isoformat(), mute_message(day)))

        # An end moved into the past lifts it.
        past = timezone.now() - timedelta(minutes=1)
        changed = staff.post(
            f"/admin/chat/chatmute/{day.pk}/change/",
            {"player": bob.pk, "until_0": f"{past:%Y-%m-%d}", "until_1": f"{past:%H:%M:%S}", "reason": "served"},
        )
        assert changed.status_code == 302
        assert sent.call_args.args == (told, frames.chat_unmuted())
    assert services.chat_post(match.pk, bob.pk, "behaving now").text == "behaving now"

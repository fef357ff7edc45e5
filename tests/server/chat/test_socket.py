"""Chat on the match socket: each socket hears its own room, live (docs/wire.md, "Chat in the match room")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from server.chat import services
from server.chat.models import ChatMessage, ChatMute
from server.matches.services import match_join
from server.players.models import Player
from server.players.services import player_create_guest_with_token
from tests.server.conftest import human_match
from tests.server.test_consumers import connect, receive_type

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]


async def next_text(comm, of_type: str = "chat") -> str:
    """The text of the next chat frame this socket hears (frames of one sender arrive in order, so a
    message of another room sent earlier would come first)."""
    frame = await receive_type(comm, of_type)
    return frame["message"]["text"] if of_type == "chat" else frame["id"]


async def frames_until(comm, wanted: str) -> list[dict]:
    """Every frame up to and including the first of type `wanted`."""
    heard = []
    while not heard or heard[-1]["type"] != wanted:
        heard.append(await comm.receive_json_from(timeout=3))
    return heard


@pytest.fixture
def spectator_token(db):
    return player_create_guest_with_token("Carol")[1]


async def test_players_and_spectators_each_hear_their_own_room(two_players, spectator_token):
    match, alice_token, bob_token = two_players
    path = f"/ws/matches/{match.pk}/"
    alice, bob, carol = [await connect(path, t) for t in (alice_token, bob_token, spectator_token)]
    for comm, room in ((alice, "players"), (bob, "players"), (carol, "spectators")):
        state = await receive_type(comm, "state")
        assert state["chat"] == {"room": room, "messages": [], "refused": None}

    await alice.send_json_to({"type": "chat", "text": " good luck "})
    for comm in (alice, bob):
        frame = await receive_type(comm, "chat")
        assert frame["message"]["text"] == "good luck" and frame["message"]["room"] == "players"
        assert frame["message"]["author"]["name"] == "Alice" and frame["message"]["author"]["is_ai"] is False
        assert frame["message"]["seat"] == 0

    await carol.send_json_to({"type": "chat", "text": "Bob should play 4"})
    frame = await receive_type(carol, "chat")  # the first Carol hears: not the players' line
    assert frame["message"]["text"] == "Bob should play 4"
    assert frame["message"]["room"] == "spectators" and frame["message"]["seat"] is None
    await alice.send_json_to({"type": "chat", "text": "your move"})
    for comm in (alice, bob):  # no advice reaches the players
        assert await next_text(comm) == "your move"
    for comm in (alice, bob, carol):
        await comm.disconnect()


async def test_a_reload_restores_the_rooms_history_and_a_resume_sends_it_again(two_players, spectator_token):
    match, alice_token, _ = two_players
    path = f"/ws/matches/{match.pk}/"
    alice = await connect(path, alice_token)
    state = await receive_type(alice, "state")
    await alice.send_json_to({"type": "chat", "text": "first"})
    await receive_type(alice, "chat")
    await alice.disconnect()

    again = await connect(path, alice_token)
    assert [m["text"] for m in (await receive_type(again, "state"))["chat"]["messages"]] == ["first"]
    await again.disconnect()
    resumed = await connect(f"{path}?v={state['v']}", alice_token)
    history = await receive_type(resumed, "chat_history")
    assert history["chat"]["room"] == "players" and [m["text"] for m in history["chat"]["messages"]] == ["first"]
    await resumed.disconnect()
    carol = await connect(path, spectator_token)
    assert (await receive_type(carol, "state"))["chat"]["messages"] == []
    await carol.disconnect()
    # The spectators' room never had a line: a spectator resuming hears only the version.
    carol = await connect(f"{path}?v={state['v']}", spectator_token)
    assert (await carol.receive_json_from())["type"] == "heartbeat"
    assert await carol.receive_nothing()
    await carol.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "chat", "text": "x" * 281}, "chat_too_long"),
        ({"type": "chat", "text": "  "}, "chat_invalid"),
        ({"type": "chat", "text": "a\u202eb"}, "chat_invalid"),
        ({"type": "chat"}, "chat_invalid"),
        ({"type": "chat", "text": ["gg"]}, "chat_invalid"),
        ({"type": "chat", "text": "gg", "room": "spectators"}, "bad_message"),
    ],
)
async def test_bad_chat_frames_get_their_code_and_the_socket_stays_healthy(two_players, frame, code):
    match, alice_token, _ = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await receive_type(comm, "state")
    await comm.send_json_to(frame)
    error = await receive_type(comm, "error")
    assert error["code"] == code and error["message"]
    await comm.send_json_to({"type": "chat", "text": "still here"})
    assert (await receive_type(comm, "chat"))["message"]["text"] == "still here"
    await comm.disconnect()


async def test_a_visitor_and_a_flood_are_refused_with_their_codes(two_players, settings):
    settings.CHAT_RATE_LIMIT = (2, 10.0)
    match, alice_token, _ = two_players
    visitor = await connect(f"/ws/matches/{match.pk}/")
    state = await receive_type(visitor, "state")
    assert state["chat"]["refused"]["code"] == "chat_no_player"
    await visitor.send_json_to({"type": "chat", "text": "hi"})
    assert (await receive_type(visitor, "error"))["code"] == "chat_no_player"
    alice = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await receive_type(alice, "state")
    for text in ("one", "two"):
        await alice.send_json_to({"type": "chat", "text": text})
        await receive_type(alice, "chat")
    await alice.send_json_to({"type": "chat", "text": "three"})
    assert (await receive_type(alice, "error"))["code"] == "chat_rate_limited"
    await visitor.disconnect()
    await alice.disconnect()


async def test_a_message_staff_hide_disappears_live_from_its_room(two_players, spectator_token):
    match, alice_token, bob_token = two_players
    path = f"/ws/matches/{match.pk}/"
    alice, bob, carol = [await connect(path, t) for t in (alice_token, bob_token, spectator_token)]
    for comm in (alice, bob, carol):
        await receive_type(comm, "state")
    await alice.send_json_to({"type": "chat", "text": "something rude"})
    said = (await receive_type(bob, "chat"))["message"]
    await database_sync_to_async(services.chat_hide)([said["id"]])
    for comm in (alice, bob):
        assert await receive_type(comm, "chat_deleted") == {"type": "chat_deleted", "id": said["id"], "room": "players"}
    await carol.send_json_to({"type": "sync"})
    heard = await frames_until(carol, "state")
    assert [f["type"] for f in heard if f["type"].startswith("chat")] == []  # the spectators never heard it
    assert await database_sync_to_async(ChatMessage.objects.filter(deleted=True).count)() == 1
    for comm in (alice, bob, carol):
        await comm.disconnect()


async def test_a_mute_and_its_lifting_reach_the_muted_persons_sockets_live(two_players, staff):
    match, alice_token, bob_token = two_players
    alice = await database_sync_to_async(Player.objects.get)(name="Alice")
    carol, _ = await database_sync_to_async(player_create_guest_with_token)("Carol")
    elsewhere = await database_sync_to_async(human_match)("connect4", carol)  # Alice only watches it
    sockets = [await connect(f"/ws/matches/{m.pk}/", alice_token) for m in (match, elsewhere)]
    bob = await connect(f"/ws/matches/{match.pk}/", bob_token)
    for comm in (*sockets, bob):
        assert (await receive_type(comm, "state"))["chat"]["refused"] is None

    end = timezone.now() + timedelta(hours=3)
    added = await database_sync_to_async(staff.post)(
        "/admin/chat/chatmute/add/",
        {"player": alice.pk, "until_0": f"{end:%Y-%m-%d}", "until_1": f"{end:%H:%M:%S}", "reason": "insults"},
    )
    assert added.status_code == 302
    for comm in sockets:  # her players' room and her spectators' room alike
        muted = await receive_type(comm, "chat_muted")
        assert muted["until"] == end.replace(microsecond=0).isoformat()
        assert muted["message"] == f"you are muted in chat until {end:%Y-%m-%d %H:%M} UTC"
    await bob.send_json_to({"type": "chat", "text": "still here"})
    assert "chat_muted" not in [f["type"] for f in await frames_until(bob, "chat")]  # hers alone

    mute = await database_sync_to_async(ChatMute.objects.get)(player=alice)
    lifted = await database_sync_to_async(staff.post)(f"/admin/chat/chatmute/{mute.pk}/delete/", {"post": "yes"})
    assert lifted.status_code == 302
    for comm in sockets:
        await receive_type(comm, "chat_unmuted")
    await sockets[0].send_json_to({"type": "chat", "text": "sorry"})
    assert await next_text(sockets[0]) == "sorry"
    for comm in (*sockets, bob):
        await comm.disconnect()


async def test_a_spectator_who_takes_a_seat_leaves_the_spectators_room(spectator_token):
    """The socket moves to the players' room when its person takes a seat, without reconnecting."""

    @database_sync_to_async
    def waiting_match():
        alice, alice_token = player_create_guest_with_token("Alice")
        dave, dave_token = player_create_guest_with_token("Dave")
        return human_match("connect4", alice), alice_token, dave, dave_token

    match, alice_token, dave, dave_token = await waiting_match()
    path = f"/ws/matches/{match.pk}/"
    alice, dave_socket, carol = [await connect(path, t) for t in (alice_token, dave_token, spectator_token)]
    assert (await receive_type(dave_socket, "state"))["chat"]["room"] == "spectators"

    await database_sync_to_async(match_join)(match.pk, dave)
    await receive_type(dave_socket, "seat")

    await carol.send_json_to({"type": "chat", "text": "Dave should play 4"})  # the spectators' room
    assert await next_text(carol) == "Dave should play 4"
    await alice.send_json_to({"type": "chat", "text": "welcome"})  # the players' room
    # The first chat Dave hears is the players' line: the spectators' one, sent before, never came.
    frame = await receive_type(dave_socket, "chat")
    assert frame["message"]["text"] == "welcome" and frame["message"]["room"] == "players"

"""The match and lobby sockets, driven with WebsocketCommunicator (docs/design.md §5)."""

from __future__ import annotations

import json
from unittest.mock import ANY

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.config.asgi import application
from server.matches import services
from server.matches.models import Match, Move
from server.players.services import player_create_guest_with_token
from server.realtime import frames_at_once

# Each test runs on the in-memory layer and on channels_redis with the real Redis.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]
ORIGIN = (b"origin", b"http://127.0.0.1")


async def connect(path: str, token: str | None = None) -> WebsocketCommunicator:
    sep = "&" if "?" in path else "?"
    url = f"{path}{sep}token={token}" if token else path
    comm = WebsocketCommunicator(application, url, headers=[ORIGIN, (b"host", b"127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    return comm


async def receive_type(comm: WebsocketCommunicator, wanted: str, timeout: float = 3) -> dict:
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        if frame["type"] == wanted:
            return frame


async def test_state_on_connect_says_which_seat_you_have(two_players):
    match, alice_token, _ = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    frame = await comm.receive_json_from()
    assert frame["type"] == "state" and frame["you"] == {"seat": 0}
    assert frame["match"]["id"] == match.pk and frame["match"]["legal_moves"] == list("1234567")
    spectator = await connect(f"/ws/matches/{match.pk}/")
    assert (await spectator.receive_json_from())["you"] == {"seat": None}
    await comm.disconnect()
    await spectator.disconnect()


async def test_a_move_reaches_every_socket_with_its_version(two_players):
    match, alice_token, bob_token = two_players
    alice, bob = (
        await connect(f"/ws/matches/{match.pk}/", alice_token),
        await connect(f"/ws/matches/{match.pk}/", bob_token),
    )
    state = await alice.receive_json_from()
    await bob.receive_json_from()
    await alice.send_json_to({"type": "move", "move": "4", "ply": 0})
    for comm in (alice, bob):
        frame = await receive_type(comm, "move")
        assert frame["move"] == "4" and frame["seat"] == 0 and frame["ply"] == 0
        assert (
            frame["v"] == state["v"] + 1 and frame["to_move"] == 1 and frame["by"] == {"kind": "human", "is_ai": False}
        )
    await alice.disconnect()
    await bob.disconnect()


async def test_a_move_heard_by_several_sockets_of_a_process_is_encoded_once(two_players, monkeypatch, channel_layer):
    match, alice_token, bob_token = two_players
    encoded = []

    def counting(frame):
        encoded.append(frame["type"])
        return json.dumps(frame)

    monkeypatch.setattr(frames_at_once, "encode", counting)
    sockets = [await connect(f"/ws/matches/{match.pk}/", token) for token in (alice_token, bob_token, None)]
    for comm in sockets:
        await comm.receive_json_from()
    await sockets[0].send_json_to({"type": "move", "move": "4", "ply": 0})
    heard = [await receive_type(comm, "move") for comm in sockets]
    assert heard[0] == heard[1] == heard[2]
    # One message reaches this process for the group on Redis; the in-memory layer copies it per socket.
    assert encoded.count("move") == (1 if channel_layer == "redis" else 3)
    for comm in sockets:
        await comm.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "move", "move": "4", "ply": 0}, "not_your_turn"),  # bob moves on alice's turn
        ({"type": "move", "move": "4", "ply": 5}, "stale_ply"),
        ({"type": "move", "move": 4, "ply": 0}, "bad_message"),
        ({"type": "move"}, "bad_message"),
        ({"type": "dance"}, "bad_message"),
        (["not", "an", "object"], "bad_message"),
    ],
)
async def test_bad_frames_get_their_error_code_and_the_socket_stays_healthy(two_players, frame, code):
    match, _, bob_token = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", bob_token)
    await comm.receive_json_from()
    await comm.send_json_to(frame)
    error = await comm.receive_json_from()
    assert error["type"] == "error" and error["code"] == code and error["message"]
    await comm.send_json_to({"type": "sync"})
    assert (await comm.receive_json_from())["type"] == "state"
    await comm.disconnect()


async def test_illegal_move_not_seated_and_game_over(two_players):
    match, alice_token, _ = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await comm.receive_json_from()
    await comm.send_json_to({"type": "move", "move": "9", "ply": 0})
    assert (await comm.receive_json_from())["code"] == "illegal_move"
    spectator = await connect(f"/ws/matches/{match.pk}/")
    await spectator.receive_json_from()
    await spectator.send_json_to({"type": "move", "move": "4", "ply": 0})
    assert (await spectator.receive_json_from())["code"] == "not_seated"
    await comm.send_json_to({"type": "resign"})
    assert (await receive_type(comm, "game_over"))["result"]["reason"] == "resigned"
    await comm.send_json_to({"type": "move", "move": "4", "ply": 0})
    assert (await receive_type(comm, "error"))["code"] == "game_over"
    await comm.disconnect()
    await spectator.disconnect()


async def test_text_that_is_not_json_is_a_bad_message(two_players):
    match, alice_token, _ = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await comm.receive_json_from()
    await comm.send_to(text_data="{not json")
    assert (await comm.receive_json_from())["code"] == "bad_message"
    await comm.disconnect()


async def test_flooding_is_rate_limited(two_players):
    match, alice_token, _ = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await comm.receive_json_from()
    for _ in range(25):
        await comm.send_json_to({"type": "sync"})
    codes = [(await comm.receive_json_from()).get("code") for _ in range(25)]
    assert "rate_limited" in codes
    await comm.disconnect()


async def test_moves_have_a_budget_of_their_own_that_syncs_cannot_use_up(two_players):
    """Moves played at human speed are never refused, even after the other frames' budget
    is spent: 21 moves (more than the other frames' whole budget) in well under 5 s."""
    match, alice_token, bob_token = two_players
    alice = await connect(f"/ws/matches/{match.pk}/", alice_token)
    bob = await connect(f"/ws/matches/{match.pk}/", bob_token)
    await alice.receive_json_from()
    await bob.receive_json_from()
    for _ in range(21):
        await alice.send_json_to({"type": "sync"})
    assert (await receive_type(alice, "error"))["code"] == "rate_limited"
    columns = "1234567" * 3  # rows of alternating colours: no four in a row within 21 plies
    for ply in range(21):
        comm = alice if ply % 2 == 0 else bob
        await comm.send_json_to({"type": "move", "move": columns[ply], "ply": ply})
        frame = await receive_type(comm, "move")
        while frame["ply"] < ply:  # the opponent's move, heard on this socket too
            frame = await receive_type(comm, "move")
        assert frame["ply"] == ply and frame["move"] == columns[ply]
    await alice.disconnect()
    await bob.disconnect()


async def test_reconnect_with_v_replays_what_was_missed(two_players):
    match, alice_token, bob_token = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    seen = (await comm.receive_json_from())["v"]
    await comm.disconnect()
    await database_sync_to_async(services.submit_move)(match.pk, 0, "4", 0)
    await database_sync_to_async(services.submit_move)(match.pk, 1, "3", 1)
    back = await connect(f"/ws/matches/{match.pk}/?v={seen}", alice_token)
    replay = [await back.receive_json_from(), await back.receive_json_from()]
    assert [(f["type"], f["move"], f["v"]) for f in replay] == [("move", "4", seen + 1), ("move", "3", seen + 2)]
    # The replay ends with the version it reached: the page knows at once it is up to date.
    assert await back.receive_json_from() == {"type": "heartbeat", "v": seen + 2, "interval_ms": ANY}
    assert await back.receive_nothing()
    await back.disconnect()
    fresh = await connect(f"/ws/matches/{match.pk}/?v=0", alice_token)  # all kept: everything since 0
    assert (await fresh.receive_json_from())["v"] == 1
    await fresh.disconnect()


async def test_reconnect_up_to_date_hears_only_its_version(two_players):
    """Most of a reconnect storm (a restart): pages that missed nothing get one small frame, no state."""
    match, alice_token, _ = two_players
    await database_sync_to_async(services.submit_move)(match.pk, 0, "4", 0)
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    seen = (await comm.receive_json_from())["v"]
    await comm.disconnect()
    back = await connect(f"/ws/matches/{match.pk}/?v={seen}", alice_token)
    assert await back.receive_json_from() == {"type": "heartbeat", "v": seen, "interval_ms": ANY}
    assert await back.receive_nothing()
    await back.disconnect()


async def test_replay_that_is_no_longer_kept_sends_a_fresh_state(two_players):
    match, alice_token, _ = two_players
    await database_sync_to_async(services.submit_move)(match.pk, 0, "4", 0)
    from server.matches.models import MatchEvent

    await database_sync_to_async(lambda: MatchEvent.objects.filter(match=match, v__lte=2).delete())()
    comm = await connect(f"/ws/matches/{match.pk}/?v=0", alice_token)
    frame = await comm.receive_json_from()
    assert frame["type"] == "state" and frame["match"]["ply"] == 1
    await comm.disconnect()


async def test_unknown_match_is_closed(db):
    comm = WebsocketCommunicator(application, "/ws/matches/999999/", headers=[ORIGIN, (b"host", b"127.0.0.1")])
    connected, _ = await comm.connect()
    # Accepted, then closed with 4404: a browser sees the code (a close before accepting is a 1006).
    assert connected and await comm.receive_output() == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()  # the consumer ends now, not when the loop is torn down


async def test_the_bot_reply_arrives_after_bot_thinking(db, fast_bot):
    player, token = await database_sync_to_async(player_create_guest_with_token)("Carol")
    seats = [services.SeatRequest("human"), services.SeatRequest("bot", fast_bot)]
    match = await database_sync_to_async(services.match_create)("connect4", seats, player)
    comm = await connect(f"/ws/matches/{match.pk}/", token)
    state = await comm.receive_json_from()
    assert state["match"]["seats"][1]["player"]["is_ai"] is True
    await comm.send_json_to({"type": "move", "move": "4", "ply": 0})
    mine = await receive_type(comm, "move")
    thinking = await receive_type(comm, "bot_thinking")
    assert thinking["seat"] == 1 and thinking["budget_ms"] == 60
    reply = await receive_type(comm, "move")
    assert mine["ply"] == 0 and reply["ply"] == 1 and reply["by"] == {"kind": "bot", "is_ai": True}
    assert reply["stats"]["algorithm"] == "alphabeta"
    assert await database_sync_to_async(Move.objects.filter(match_id=match.pk).count)() == 2
    await comm.disconnect()


async def test_lobby_pushes_new_matches(db):
    from server.players.services import player_create_guest

    lobby = await connect("/ws/lobby/")
    first = await lobby.receive_json_from()
    assert first["type"] == "lobby" and first["open"] == []
    creator = await database_sync_to_async(player_create_guest)("Dan")
    human = services.SeatRequest("human")
    match = await database_sync_to_async(services.match_create)("tictactoe", [human, human], creator)
    pushed = await receive_type(lobby, "match")
    assert pushed["type"] == "match" and pushed["match"]["id"] == match.pk and pushed["match"]["status"] == "waiting"
    assert await database_sync_to_async(Match.objects.count)() == 1
    await lobby.disconnect()


async def test_sockets_from_another_site_are_refused(db):
    evil = WebsocketCommunicator(application, "/ws/lobby/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await evil.connect()
    assert not connected
    client = WebsocketCommunicator(application, "/ws/lobby/")  # no Origin: a token client, not a browser
    connected, _ = await client.connect()
    assert connected
    await client.disconnect()


async def test_the_lobby_counts_players_online(db):
    from server.players.services import player_create_guest_with_token

    _, token = await database_sync_to_async(player_create_guest_with_token)("Olga")
    first = await connect("/ws/lobby/")
    assert (await first.receive_json_from())["online"] == 0
    second = await connect("/ws/lobby/", token)
    assert (await second.receive_json_from())["online"] == 1
    # The count is told at most once a second (a burst of arrivals is told once): Olga's arrival
    # reaches the first socket, with or without a count for its own arrival before it.
    told = await receive_type(first, "online")
    if told["count"] == 0:
        told = await receive_type(first, "online")
    assert told == {"type": "online", "count": 1}
    await first.disconnect()
    await second.disconnect()

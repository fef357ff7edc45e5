"""Takeback, draw and answer frames and presence on the match socket (docs/wire.md)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from server.matches import services
from server.matches.models import Match, Seat
from server.players.services import player_create_guest_with_token
from tests.server.test_consumers import connect, receive_type

# Each test runs on the in-memory layer and on channels_redis with the real Redis.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]


async def both(match, alice_token, bob_token):
    alice = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await receive_type(alice, "state")
    bob = await connect(f"/ws/matches/{match.pk}/", bob_token)
    await receive_type(bob, "state")
    return alice, bob


async def test_a_takeback_request_accepted_over_the_socket(two_players):
    match, alice_token, bob_token = two_players
    alice, bob = await both(match, alice_token, bob_token)
    await alice.send_json_to({"type": "move", "move": "4", "ply": 0})
    await receive_type(bob, "move")
    await alice.send_json_to({"type": "takeback_request"})
    offer = await receive_type(bob, "offer")
    assert offer["offer"] == {"kind": "takeback", "seat": 0, "ply": 1, "awaiting": [1]} and offer["v"]
    await bob.send_json_to({"type": "accept"})
    for comm in (alice, bob):
        answered = await receive_type(comm, "offer_answered")
        assert answered["accepted"] is True and answered["by"] == 1
        back = await receive_type(comm, "takeback")
        assert back["ply"] == 0 and back["to_move"] == 0 and back["legal_moves"] == list("1234567")
        assert back["v"] == answered["v"] + 1
    await alice.disconnect()
    await bob.disconnect()


async def test_a_draw_offer_declined_then_accepted(two_players):
    match, alice_token, bob_token = two_players
    alice, bob = await both(match, alice_token, bob_token)
    await bob.send_json_to({"type": "draw_offer"})
    assert (await receive_type(alice, "offer"))["offer"]["kind"] == "draw"
    await alice.send_json_to({"type": "decline"})
    declined = await receive_type(bob, "offer_answered")
    assert declined["accepted"] is False and declined["offer"] is None
    await bob.send_json_to({"type": "draw_offer"})
    await receive_type(alice, "offer")
    await alice.send_json_to({"type": "accept"})
    over = await receive_type(bob, "game_over")
    assert over["result"]["reason"] == "draw agreed" and over["result"]["winner"] is None
    await alice.disconnect()
    await bob.disconnect()


@pytest.mark.parametrize(
    ("frames", "code"),
    [
        ([{"type": "takeback_request"}], "nothing_to_take_back"),
        ([{"type": "accept"}], "no_offer"),
        ([{"type": "decline"}], "no_offer"),
        ([{"type": "draw_offer"}, {"type": "draw_offer"}], "offer_pending"),
        ([{"type": "draw_offer"}, {"type": "accept"}], "no_offer"),  # not your own offer
        ([{"type": "accept", "ply": 3}], "bad_message"),
        ([{"type": "draw_offer", "kind": "x"}], "bad_message"),
        ([{"type": "takeback"}], "bad_message"),
    ],
)
async def test_refused_actions_get_their_error_code(two_players, frames, code):
    match, alice_token, _ = two_players
    alice = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await receive_type(alice, "state")
    for frame in frames:
        await alice.send_json_to(frame)
    error = await receive_type(alice, "error")
    assert error["code"] == code and error["message"]
    await alice.send_json_to({"type": "sync"})
    assert (await receive_type(alice, "state"))["match"]["status"] == "active"
    await alice.disconnect()


async def test_spectators_cannot_offer_or_answer(two_players):
    match, _, _ = two_players
    spectator = await connect(f"/ws/matches/{match.pk}/")
    await receive_type(spectator, "state")
    for kind in ("takeback_request", "draw_offer", "accept", "decline"):
        await spectator.send_json_to({"type": kind})
        assert (await receive_type(spectator, "error"))["code"] == "not_seated"
    await spectator.disconnect()


async def test_against_a_bot_takeback_is_at_once_and_draws_are_refused(db, fast_bot):
    player, token = await database_sync_to_async(player_create_guest_with_token)("Carol")
    seats = [services.SeatRequest("human"), services.SeatRequest("bot", fast_bot)]
    match = await database_sync_to_async(services.match_create)("connect4", seats, player)
    comm = await connect(f"/ws/matches/{match.pk}/", token)
    await receive_type(comm, "state")
    await comm.send_json_to({"type": "draw_offer"})
    assert (await receive_type(comm, "error"))["code"] == "offer_not_allowed"
    await comm.send_json_to({"type": "move", "move": "4", "ply": 0})
    reply = await receive_type(comm, "move")
    reply = reply if reply["seat"] == 1 else await receive_type(comm, "move")
    await comm.send_json_to({"type": "takeback_request"})
    back = await receive_type(comm, "takeback")
    assert back["ply"] == 0 and back["to_move"] == 0 and back["seat"] == 0
    await comm.disconnect()


async def test_presence_is_announced_and_in_the_state(two_players):
    match, alice_token, bob_token = two_players
    alice = await connect(f"/ws/matches/{match.pk}/", alice_token)
    state = await receive_type(alice, "state")
    assert state["match"]["presence"] == [{"seat": 0, "online": True}, {"seat": 1, "online": False}]
    bob = await connect(f"/ws/matches/{match.pk}/", bob_token)
    came = await receive_type(alice, "presence")
    assert came == {"type": "presence", "seat": 1, "online": True, "abandon_after_ms": came["abandon_after_ms"]}
    await bob.disconnect()
    went = await receive_type(alice, "presence")
    assert went["seat"] == 1 and went["online"] is False and went["abandon_after_ms"] > 0
    online = await database_sync_to_async(
        lambda: list(Seat.objects.filter(match=match).values_list("online", flat=True))
    )()
    assert online == [True, False]
    await alice.disconnect()
    status = await database_sync_to_async(lambda: Match.objects.get(pk=match.pk).status)()
    assert status == Match.Status.ACTIVE  # not abandoned yet: that takes the grace

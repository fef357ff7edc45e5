"""Quick pairing over the lobby socket: two people seek, both sockets hear `paired` for one match."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.config.asgi import application
from server.matches.models import Match
from server.pairing.models import Seek
from server.players.services import player_create_guest_with_token
from tests.server.conftest import with_account

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]
HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
SEEK = {"type": "seek", "game": "connect4", "clock": "3+2", "rated": True, "range": None}


async def lobby(token: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/lobby/?token={token}", headers=HEADERS)
    assert (await comm.connect())[0]
    return comm


async def until(comm: WebsocketCommunicator, kind: str) -> dict:
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame


def person_token(guest: bool = False) -> str:
    """A bearer token of a new person: an account unless `guest` (rated seeks need accounts)."""
    player, token = player_create_guest_with_token()
    if not guest:
        with_account(player)
    return token


async def person(guest: bool = False) -> WebsocketCommunicator:
    token = await database_sync_to_async(person_token)(guest)
    comm = await lobby(token)
    assert (await until(comm, "lobby"))["type"] == "lobby"
    return comm


async def test_two_seeks_move_both_lobbies_to_one_match():
    alice, bob = await person(), await person()
    await alice.send_json_to(SEEK)
    shown = await until(bob, "seek")
    assert shown["seek"]["game"] == "connect4" and shown["seek"]["clock"] == "3+2"
    await bob.send_json_to(SEEK)
    to_alice, to_bob = await until(alice, "paired"), await until(bob, "paired")
    assert to_alice["match"] == to_bob["match"]
    assert {to_alice["seat"], to_bob["seat"]} == {0, 1}
    match = await database_sync_to_async(Match.objects.get)(pk=to_alice["match"])
    assert match.status == Match.Status.ACTIVE
    await alice.disconnect()
    await bob.disconnect()


async def test_a_seek_is_taken_by_clicking_it_and_goes_when_its_socket_closes():
    alice, bob, carol = await person(), await person(), await person()
    await alice.send_json_to(SEEK)
    seek_id = (await until(carol, "seek"))["seek"]["id"]
    await alice.disconnect()
    assert (await until(carol, "seek_gone"))["id"] == seek_id
    assert not await database_sync_to_async(Seek.objects.exists)()
    await bob.send_json_to({**SEEK, "rated": False})
    seek_id = (await until(carol, "seek"))["seek"]["id"]
    await carol.send_json_to({"type": "seek_accept", "id": seek_id})
    assert (await until(carol, "paired"))["match"] == (await until(bob, "paired"))["match"]
    await carol.send_json_to({"type": "seek_accept", "id": seek_id})
    assert (await until(carol, "error"))["code"] == "seek_unavailable"
    await bob.disconnect()
    await carol.disconnect()


async def test_a_socket_opening_hears_the_open_seeks_after_the_lobby():
    alice = await person()
    await alice.send_json_to(SEEK)
    await until(alice, "seek")
    bob = await lobby(await database_sync_to_async(person_token)())
    assert (await bob.receive_json_from())["type"] == "lobby"
    seeks = (await bob.receive_json_from())["seeks"]
    assert [s["game"] for s in seeks] == ["connect4"]
    await alice.disconnect()
    await bob.disconnect()


async def test_a_malformed_seek_is_a_bad_message():
    alice = await person()
    await alice.send_json_to({**SEEK, "rated": "yes"})
    assert (await until(alice, "error"))["code"] == "bad_message"
    await alice.send_json_to({"type": "seek_accept", "id": "1"})
    assert (await until(alice, "error"))["code"] == "bad_message"
    await alice.disconnect()


async def test_a_guests_rated_seek_is_refused_with_what_to_do():
    guest = await person(guest=True)
    await guest.send_json_to(SEEK)
    refused = await until(guest, "error")
    assert refused["code"] == "rated_needs_account" and "sign up" in refused["message"]
    assert not await database_sync_to_async(Seek.objects.exists)()
    await guest.send_json_to({**SEEK, "rated": False})
    assert (await until(guest, "seek"))["seek"]["rated"] is False
    await guest.disconnect()

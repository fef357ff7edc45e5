"""A socket whose handler fails leaves its groups; a database outage is logged in one line a pass."""

from __future__ import annotations

import logging

import pytest
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import OperationalError

from server.chat import selectors as chat_selectors
from server.lobby import consumers as lobby_consumers
from server.matches import broadcast, services
from server.realtime.failures import log_failure
from tests.server.test_consumers import connect, receive_type

# Each test runs on the in-memory layer and on channels_redis with the real Redis.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]


async def members(group: str) -> int:
    layer = get_channel_layer()
    if isinstance(layer, InMemoryChannelLayer):
        return len(layer.groups.get(group, {}))
    return await layer.connection(0).zcard(layer._group_key(group))


async def until_it_fails(comm) -> None:
    """Read what the socket sent before its handler failed; the failure is raised here."""
    for _ in range(20):
        await comm.receive_output(timeout=3)


def database_gone(*args, **kwargs):
    raise OperationalError("connection failed: the database is not accepting connections")


async def test_a_match_socket_whose_move_fails_leaves_its_groups(two_players, monkeypatch):
    match, alice_token, bob_token = two_players
    alice = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await receive_type(alice, "state")
    bob = await connect(f"/ws/matches/{match.pk}/", bob_token)
    await receive_type(bob, "state")
    groups = [broadcast.match_group(match.pk), chat_selectors.chat_group(match.pk, chat_selectors.PLAYERS)]
    assert [await members(g) for g in groups] == [2, 2]

    monkeypatch.setattr(services, "submit_player_move", database_gone)
    await alice.send_json_to({"type": "move", "move": "4", "ply": 0})
    with pytest.raises(OperationalError):  # the socket fails as before: daphne closes it with 1011
        await until_it_fails(alice)
    assert [await members(g) for g in groups] == [1, 1], "the failed socket is in no group"
    alice_id = await database_sync_to_async(lambda: match.seats.get(index=0).player_id)()
    assert await members(chat_selectors.person_group(alice_id)) == 0
    await bob.disconnect()


async def test_a_lobby_socket_whose_handler_fails_leaves_the_lobby(monkeypatch):
    lobby = await connect("/ws/lobby/")
    await receive_type(lobby, "lobby")
    assert await members(broadcast.LOBBY_GROUP) == 1
    monkeypatch.setattr(lobby_consumers, "lobby_json", database_gone)
    await lobby.send_json_to({"type": "sync"})
    with pytest.raises(OperationalError):
        await until_it_fails(lobby)
    assert await members(broadcast.LOBBY_GROUP) == 0


def test_a_database_outage_is_one_line_other_failures_keep_their_traceback(caplog):
    log = logging.getLogger("tests.failures")  # "plyground" loggers do not propagate to pytest's handler
    with caplog.at_level(logging.INFO, logger="tests.failures"):
        try:
            database_gone()
        except OperationalError:
            log_failure(log, "watch pass failed")
        try:
            raise KeyError("seat")
        except KeyError:
            log_failure(log, "watch pass failed")
    outage, other = caplog.records
    assert outage.levelno == logging.WARNING and outage.exc_info is None
    assert outage.getMessage() == (
        "watch pass failed: database unavailable (connection failed: the database is not accepting connections)"
    )
    assert other.levelno == logging.ERROR and other.exc_info[0] is KeyError

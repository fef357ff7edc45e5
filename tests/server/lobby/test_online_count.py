"""The lobby's online count: a burst of arrivals is told once a second, and the last count is right."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.config.asgi import application
from server.lobby import online
from server.players.services import player_create_guest_with_token

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
SOCKETS = 20


async def lobby_socket(token: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/lobby/?token={token}", headers=HEADERS)
    # Twenty at once: on a loaded machine a socket may take longer than the default second to open.
    assert (await comm.connect(timeout=15))[0]
    assert (await comm.receive_json_from(timeout=15))["type"] == "lobby"
    return comm


async def counts_heard(comm: WebsocketCommunicator, quiet_s: float) -> list[int]:
    heard = []
    while not await comm.receive_nothing(timeout=quiet_s):
        frame = await comm.receive_json_from()
        if frame["type"] == "online":
            heard.append(frame["count"])
    return heard


async def test_a_burst_of_arrivals_is_told_a_few_times_not_once_per_arrival(monkeypatch, channel_layer):
    monkeypatch.setattr(online, "_told_at", float("-inf"))
    tokens = [(await database_sync_to_async(player_create_guest_with_token)())[1] for _ in range(SOCKETS)]
    began = time.monotonic()
    sockets = await asyncio.gather(*(lobby_socket(t) for t in tokens))
    burst_s = time.monotonic() - began  # a second or two; longer on a loaded machine
    heard = await asyncio.gather(*(counts_heard(s, online.INTERVAL_S * 2.5) for s in sockets))
    told_at_most = int(burst_s / online.INTERVAL_S) + 3  # once an interval while they arrive, then the last
    for counts in heard:
        assert counts[-1] == SOCKETS  # the count after the last arrival
        assert len(counts) <= told_at_most
    assert max(len(c) for c in heard) < SOCKETS // 2  # the first to arrive is not told every arrival
    for s in sockets:
        await s.disconnect()

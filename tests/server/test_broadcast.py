"""Frames to a match's sockets: handed over from database threads in order, and relayed to a
socket without waiting for its database thread (server/matches/broadcast.py,
server/config/db_threads.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.layers import get_channel_layer

from server.config.asgi import router
from server.matches import broadcast
from tests.server.test_consumers import connect, receive_type

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]


async def test_frames_handed_over_from_threads_reach_the_group_in_order():
    broadcast.remember_server_loop()
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("match.order", channel)

    def from_a_database_thread() -> None:
        for i in range(30):
            broadcast.send_to_group("match.order", {"type": "tick", "i": i})

    await asyncio.to_thread(from_a_database_thread)
    heard = [(await asyncio.wait_for(layer.receive(channel), 3))["frame"]["i"] for _ in range(30)]
    assert heard == list(range(30))


async def test_a_relayed_frame_does_not_wait_for_the_sockets_database_thread(two_players):
    match, alice_token, _ = two_players
    alice = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await alice.receive_json_from()
    # Every database thread of the sockets is busy (a slow query, a connect storm).
    release = threading.Event()
    busy = [executor.submit(release.wait, 10) for executor in router.application_mapping["websocket"].executors]
    try:
        frame = {"type": "presence", "seat": 1, "online": True, "grace_ms": 0}
        await get_channel_layer().group_send(broadcast.match_group(match.pk), {"type": "frame.send", "frame": frame})
        assert await receive_type(alice, "presence", timeout=2) == frame
    finally:
        release.set()
        for done in busy:
            done.result()
    await alice.disconnect()

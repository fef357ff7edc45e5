"""Frames to a match's sockets: handed over from database threads in order, and relayed to a
socket without waiting for its database thread (server/matches/broadcast.py,
server/db/db_threads.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.layers import get_channel_layer

from server.config.asgi import router
from server.matches import broadcast
from server.realtime.channel_layer import PooledRedisChannelLayer
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


@pytest.mark.parametrize("channel_layer", ["redis"], indirect=True)
async def test_this_process_hears_a_frame_without_waiting_for_the_send_before_it_through_redis(settings):
    """The sockets of the sending process get each frame as it is handed over; only the sends
    to other processes wait for one another (each keeps the order)."""
    broadcast.remember_server_loop()
    layer = get_channel_layer()
    there = PooledRedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])  # another process
    ours, theirs = await layer.new_channel(), await there.new_channel()
    await layer.group_add("match.held", ours)
    await there.group_add("match.held", theirs)
    first_heard = asyncio.create_task(layer.receive(ours))
    await asyncio.sleep(0.1)
    redis_is_slow, sending = asyncio.Event(), layer.group_send_elsewhere

    async def slow_then_sent(group: str, message: dict, here: str) -> None:
        await redis_is_slow.wait()
        await sending(group, message, here)

    layer.group_send_elsewhere = slow_then_sent

    def from_a_database_thread() -> None:
        for i in range(3):
            broadcast.send_to_group("match.held", {"i": i})

    await asyncio.to_thread(from_a_database_thread)
    heard = [(await asyncio.wait_for(first_heard, 2))["frame"]["i"]]
    heard += [(await asyncio.wait_for(layer.receive(ours), 2))["frame"]["i"] for _ in range(2)]
    nothing_there_yet = not await _heard_within(there, theirs, 0.3)
    redis_is_slow.set()
    heard_there = [(await asyncio.wait_for(there.receive(theirs), 2))["frame"]["i"] for _ in range(3)]
    await there.close_pools()
    assert heard == [0, 1, 2]
    assert nothing_there_yet
    assert heard_there == [0, 1, 2]


async def _heard_within(layer: PooledRedisChannelLayer, channel: str, seconds: float) -> bool:
    receive = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(seconds)
    receive.cancel()
    return receive.done() and not receive.cancelled()

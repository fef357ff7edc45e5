"""The Redis channel layer as deployed (server/config/channel_layer.py), on the real Redis."""

from __future__ import annotations

import asyncio
import random
import uuid

import redis

from server.config.channel_layer import PooledRedisChannelLayer, redis_channel_layer
from tests.support import REDIS_TEST_URL

ROUNDS = 40
SOCKETS = 20


def test_a_cancelled_receive_always_ends():
    """Closing a socket cancels its consumer's receive, and the consumer's task ends only when
    that receive does.  With a socket timeout, redis-py wrote every command through Python
    3.11's `asyncio.wait_for`, which swallows a cancellation arriving as the write completes:
    the receive holding channels_redis's lock then blocked on until a message came for any
    socket: 3 to 11 rounds in 40 here left a task that never ended (its person shown online
    for good)."""
    prefix = f"plyground-layer-test-{uuid.uuid4().hex[:12]}"
    layer = PooledRedisChannelLayer(**redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"])
    rng = random.Random(7)

    async def rounds() -> list[int]:
        left_running = []
        for _ in range(ROUNDS):
            channels = [await layer.new_channel() for _ in range(SOCKETS)]
            receives = [asyncio.create_task(layer.receive(c)) for c in channels]
            await asyncio.sleep(rng.uniform(0, 0.02))  # the cancel lands anywhere in the round trips
            for receive in receives:
                receive.cancel()
            _, pending = await asyncio.wait(receives, timeout=2)  # brpop_timeout is 5 s
            left_running.append(len(pending))
            if pending:  # a message for any of them wakes the stuck one: the next round starts clean
                await layer.send(channels[0], {"type": "wake"})
                await asyncio.wait(pending, timeout=6)
        await layer.flush()
        return left_running

    try:
        assert sum(asyncio.run(rounds())) == 0
    finally:
        client = redis.Redis.from_url(REDIS_TEST_URL)
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
        client.close()

"""The Redis channel layer's settings, in one place for the server and for the tests that run on it."""

from __future__ import annotations

import os
import socket
import time
from typing import Any

import redis.asyncio
from channels_redis.core import RedisChannelLayer

# channels_redis blocks up to 5 s in BZPOPMIN (its `brpop_timeout`).  redis-py's default
# 5 s socket timeout raced that block: idle sockets were closed with 1011, and a frame that
# Redis popped at the boundary was lost for the consumer it was meant for.
#
# No socket timeout at all, either: with one, redis-py sends every command through
# `asyncio.wait_for`, and Python 3.11's `wait_for` swallows a cancellation that arrives as the
# write completes (CPython gh-86296, fixed in 3.12).  A closing socket cancels its consumer's
# receive; the one holding channels_redis's receive lock then went on blocking in BZPOPMIN
# until a message came for any socket of the process, so the closed socket's task never
# ended and its person stayed online (one or two people of 300 closing at once, in most runs
# of tests/faults/test_storms.py).
# A dead Redis is noticed by the kernel instead, within about 20 s: keepalive probes while
# a read waits, and a user timeout while a write goes unacknowledged.
DEAD_REDIS_S = 20
TCP_OPTIONS = {
    socket.TCP_KEEPIDLE: 10,
    socket.TCP_KEEPINTVL: 5,
    socket.TCP_KEEPCNT: 2,
    socket.TCP_USER_TIMEOUT: DEAD_REDIS_S * 1000,
}

# redis-py's asyncio pool (one per process and event loop) opens a connection per command in
# flight and *fails* the command (MaxConnectionsError) once 100 are in use: 300 sockets closing
# at once each discard a group membership, and two thirds of the discards failed, leaving dead
# members in the groups (and, behind them, seats shown online).  The layer's pool here waits
# for a free connection instead (up to POOL_WAIT_S), and its size is set on purpose: a command
# takes well under a millisecond on loopback, so 50 connections carry tens of thousands of
# commands a second, while N web processes x 50 stay far below Redis's 10,000 clients.  One
# of them is held by the layer's blocking read at all times.
POOL_SIZE = int(os.environ.get("REDIS_POOL_SIZE", "50"))
POOL_WAIT_S = 10


class PooledRedisChannelLayer(RedisChannelLayer):
    """channels_redis with a blocking, bounded connection pool (see POOL_SIZE)."""

    def create_pool(self, index: int) -> redis.asyncio.ConnectionPool:
        host = dict(self.hosts[index])
        address = host.pop("address")
        return redis.asyncio.BlockingConnectionPool.from_url(
            address, max_connections=POOL_SIZE, timeout=POOL_WAIT_S, **host
        )

    async def group_add(self, group: str, channel: str) -> None:
        """channels_redis's group_add in one round trip instead of two: every socket joins a few
        groups as it opens, so a connect storm paid twice the round trips it needed."""
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        group_key = self._group_key(group)
        async with self.connection(self.consistent_hash(group)).pipeline(transaction=False) as pipe:
            pipe.zadd(group_key, {channel: time.time()})
            # Everything in the group at this point expires before the group does.
            pipe.expire(group_key, self.group_expiry)
            await pipe.execute()


def redis_channel_layer(url: str, prefix: str) -> dict[str, Any]:
    """The CHANNEL_LAYERS entry for channels_redis on `url`, its keys under `prefix`."""
    return {
        "BACKEND": "server.config.channel_layer.PooledRedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": url,
                    "socket_timeout": None,  # see TCP_OPTIONS
                    "socket_connect_timeout": 5,
                    "socket_keepalive": True,
                    "socket_keepalive_options": TCP_OPTIONS,
                    "health_check_interval": 15,
                }
            ],
            "capacity": 1500,
            "expiry": 30,
            # Separate stacks sharing one Redis (tests, staging) must not hear each other.
            "prefix": prefix,
        },
    }

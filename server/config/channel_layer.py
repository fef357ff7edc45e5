"""The Redis channel layer's settings, in one place for the server and for the tests that run on it."""

from __future__ import annotations

from typing import Any

# channels_redis blocks up to 5 s in BZPOPMIN (its `brpop_timeout`).  redis-py's default
# 5 s socket timeout raced that block: idle sockets were closed with 1011, and a frame that
# Redis popped at the boundary was lost for the consumer it was meant for.  Reads now wait
# longer than the block, while the health check and TCP keepalive still notice a dead Redis.
SOCKET_TIMEOUT_S = 20


def redis_channel_layer(url: str, prefix: str) -> dict[str, Any]:
    """The CHANNEL_LAYERS entry for channels_redis on `url`, its keys under `prefix`."""
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": url,
                    "socket_timeout": SOCKET_TIMEOUT_S,
                    "socket_connect_timeout": 5,
                    "socket_keepalive": True,
                    "health_check_interval": 15,
                }
            ],
            "capacity": 1500,
            "expiry": 30,
            # Separate stacks sharing one Redis (tests, staging) must not hear each other.
            "prefix": prefix,
        },
    }

"""The cache every process of an installation shares: throttles, hint locks.

With Redis (``REDIS_URL``) the cache lives there, so a throttle counts a client's
requests across every web process rather than per process; embedded, one process
keeps it in memory.  While Redis is away the cache fails open: a read finds nothing
and a write is dropped, so requests go on unthrottled for that while rather than
answering 500 (the channel layer and the broker recover on their own, see docs/faults.md).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)


def cache_settings(redis_url: str, prefix: str) -> dict[str, Any]:
    """The CACHES setting: Redis under the installation's prefix, or this process's memory."""
    if not redis_url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return {
        "default": {
            "BACKEND": "server.platform.cache.FailOpenRedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,  # stacks sharing one Redis (tests, staging) keep apart
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache, answering "nothing cached" instead of raising while Redis is away."""

    def _missing(self, operation: str, error: Exception) -> None:
        log.warning("cache %s skipped: Redis unavailable (%s)", operation, error)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except REDIS_DOWN as error:
            self._missing("get", error)
            return default

    def set(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except REDIS_DOWN as error:
            self._missing("set", error)

    def add(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> bool:
        """True also while Redis is away: whoever asks goes ahead (a lock that cannot be kept is not held)."""
        try:
            return bool(super().add(key, value, timeout, version))
        except REDIS_DOWN as error:
            self._missing("add", error)
            return True

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return bool(super().delete(key, version))
        except REDIS_DOWN as error:
            self._missing("delete", error)
            return False

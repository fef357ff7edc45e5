"""The installation's cache: shared through Redis by every process, failing open while Redis is away."""

from __future__ import annotations

import uuid

import pytest

from server.platform.cache import FailOpenRedisCache, cache_settings
from tests.support import REDIS_TEST_URL, free_port


def redis_cache(location: str, prefix: str) -> FailOpenRedisCache:
    settings = cache_settings(location, prefix)["default"]
    return FailOpenRedisCache(settings["LOCATION"], {"KEY_PREFIX": prefix, "OPTIONS": settings["OPTIONS"]})


def test_embedded_keeps_the_cache_in_the_process():
    assert cache_settings("", "x")["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


def test_two_processes_of_one_installation_share_a_count():
    # Each web process builds its own cache object: a throttle's history written by one is read by the other.
    prefix = f"test-cache-{uuid.uuid4().hex}"
    one, other = redis_cache(REDIS_TEST_URL, prefix), redis_cache(REDIS_TEST_URL, prefix)
    one.set("throttle_login_1.2.3.4", [1.0, 2.0], 30)
    assert other.get("throttle_login_1.2.3.4") == [1.0, 2.0]
    assert other.add("hint-lock", True, 30) and not one.add("hint-lock", True, 30)
    assert redis_cache(REDIS_TEST_URL, f"{prefix}-another").get("throttle_login_1.2.3.4") is None
    one.delete("throttle_login_1.2.3.4"), one.delete("hint-lock")


def test_without_redis_reads_find_nothing_and_writes_are_dropped():
    gone = redis_cache(f"redis://127.0.0.1:{free_port()}/0", "test-cache-gone")
    assert gone.get("key", "default") == "default"
    gone.set("key", 1, 30)  # no exception: a request is not answered 500 for a throttle count
    assert gone.add("lock", True, 30) is True
    assert gone.delete("key") is False


@pytest.mark.django_db
def test_a_throttled_endpoint_answers_while_redis_is_away(monkeypatch):
    from django.core.cache.backends.redis import RedisCache
    from rest_framework.test import APIClient
    from rest_framework.throttling import SimpleRateThrottle

    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    options = {"OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1}}
    monkeypatch.setattr(SimpleRateThrottle, "cache", RedisCache(nowhere, options))
    with pytest.raises(Exception, match="Connect"):  # Django's own backend: the request fails
        APIClient().post("/api/players/guest/", {}, format="json")
    monkeypatch.setattr(SimpleRateThrottle, "cache", redis_cache(nowhere, "test-cache-gone"))
    assert APIClient().post("/api/players/guest/", {}, format="json").status_code == 201

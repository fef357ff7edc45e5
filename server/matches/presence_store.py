"""Where live presence is kept: in Redis with expiry, or in this process when there is no Redis.

Presence is who has a socket open: a seat (``s:<match>:<seat>``) or a person (``p:<player>``),
called a *member* here.  It changes every few seconds for every socket, so it does not live in
the database: each web process refreshes what it holds every `PRESENCE_HEARTBEAT_MS`, in one
round trip (a script), with an expiry of `PRESENCE_STALE_MS` (a few heartbeats).  The
database hears only the transitions, a member coming or going (`server/matches/presence.py`),
which the lobby's rules need ("gone since", docs/design.md §4).

Two structures, under the installation's channel prefix (so two installations on one Redis,
and the tests' private prefixes, never meet):

- ``<prefix>:presence:live``, a sorted set: every live member, scored by the latest expiry
  any process gave it.  A member past its score has lost every holder: the sweep finds it there
  without reading anything else.
- ``<prefix>:presence:holders:<member>``, a sorted set per member: the processes holding it,
  each scored by its own expiry.  A process whose last socket for a member closes removes
  itself; the member is gone only when no other process still holds it.

Times are milliseconds since the epoch from the caller's clock (the web processes of an
installation keep their clocks in step, as they must for the match clocks anyway).
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
from collections.abc import Iterable
from typing import Protocol

import redis
from django.conf import settings

# This process, as a holder: unique across machines and restarts.
PROCESS = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def seat_member(match_id: int, seat: int) -> str:
    return f"s:{match_id}:{seat}"


def person_member(player_id: int) -> str:
    return f"p:{player_id}"


def parse(member: str) -> tuple[int, int] | int:
    """(match id, seat) for a seat, the player id for a person."""
    kind, *ids = member.split(":")
    return (int(ids[0]), int(ids[1])) if kind == "s" else int(ids[0])


class LiveStore(Protocol):
    """What the heartbeat, the sockets and the sweep ask of the store; `now` and `ttl` in ms."""

    def refresh(self, members: Iterable[str], now: float, ttl: float) -> set[str]:
        """This process holds `members` until now + ttl; returns those that were not live (they arrived)."""

    def release(self, members: Iterable[str], now: float) -> set[str]:
        """This process no longer holds `members`; returns those no process holds any more."""

    def expired(self, now: float) -> list[str]:
        """Live members whose every holder stopped refreshing before `now`."""

    def drop(self, members: Iterable[str], now: float) -> set[str]:
        """No longer live, unless a process holds them at `now`; returns those kept (held after all)."""

    def live(self, members: Iterable[str], now: float) -> set[str]:
        """Those of `members` some process holds at `now`."""


class MemoryStore:
    """One process, no Redis (embedded mode): the same rules on dictionaries."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # database threads and the watch call in at once
        self._live: dict[str, float] = {}
        self._holders: dict[str, dict[str, float]] = {}

    def refresh(self, members: Iterable[str], now: float, ttl: float) -> set[str]:
        arrived = set()
        with self._lock:
            for member in members:
                self._holders.setdefault(member, {})[PROCESS] = now + ttl
                if member not in self._live:
                    arrived.add(member)
                self._live[member] = max(self._live.get(member, 0.0), now + ttl)
        return arrived

    def release(self, members: Iterable[str], now: float) -> set[str]:
        members = list(members)
        with self._lock:
            for member in members:
                self._holders.get(member, {}).pop(PROCESS, None)
            return {m for m in members if not self._held(m, now)}

    def expired(self, now: float) -> list[str]:
        with self._lock:
            return [m for m, until in self._live.items() if until <= now]

    def drop(self, members: Iterable[str], now: float) -> set[str]:
        kept = set()
        with self._lock:
            for member in members:
                if self._held(member, now):
                    kept.add(member)
                else:
                    self._live.pop(member, None)
                    self._holders.pop(member, None)
        return kept

    def live(self, members: Iterable[str], now: float) -> set[str]:
        with self._lock:
            return {m for m in members if self._held(m, now)}

    def _held(self, member: str, now: float) -> bool:
        return any(until > now for until in self._holders.get(member, {}).values())


# Atomic steps (a Lua script runs alone): the check and the removal must not be split by
# another process's refresh, or a member refreshed in between would be dropped while held.
_REFRESH = """
local arrived = {}
for i = 2, #KEYS do
    redis.call('ZADD', KEYS[i], ARGV[2], ARGV[1])
    redis.call('PEXPIRE', KEYS[i], ARGV[3])
    if redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[i + 2]) == 1 then table.insert(arrived, i - 1) end
end
return arrived
"""
_RELEASE = """
local gone = {}
for i, holders in ipairs(KEYS) do
    redis.call('ZREM', holders, ARGV[1])
    if redis.call('ZCOUNT', holders, '(' .. ARGV[2], '+inf') == 0 then table.insert(gone, i) end
end
return gone
"""
_DROP = """
local kept = {}
for i = 2, #KEYS do
    if redis.call('ZCOUNT', KEYS[i], '(' .. ARGV[1], '+inf') > 0 then
        table.insert(kept, i - 1)
    else
        redis.call('ZREM', KEYS[1], ARGV[i])
        redis.call('DEL', KEYS[i])
    end
end
return kept
"""


REFRESH_CHUNK = 1000  # members per script call: each call holds Redis for about a millisecond


class RedisStore:
    """Shared by every web process of the installation."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.client = client
        self.live_key = f"{prefix}:presence:live"
        self.holders_prefix = f"{prefix}:presence:holders:"
        self._refresh = client.register_script(_REFRESH)
        self._release = client.register_script(_RELEASE)
        self._drop = client.register_script(_DROP)

    def holders_key(self, member: str) -> str:
        return self.holders_prefix + member

    def refresh(self, members: Iterable[str], now: float, ttl: float) -> set[str]:
        """One script call per `REFRESH_CHUNK` members: Redis does the work, not this process's
        Python (a pipeline of three commands a member cost this process's CPU for every socket)."""
        members, arrived = list(members), set[str]()
        for start in range(0, len(members), REFRESH_CHUNK):
            chunk = members[start : start + REFRESH_CHUNK]
            keys = [self.live_key, *(self.holders_key(m) for m in chunk)]
            added = self._refresh(keys=keys, args=[PROCESS, now + ttl, int(ttl * 2), *chunk])
            arrived.update(chunk[int(i) - 1] for i in added)
        return arrived

    def release(self, members: Iterable[str], now: float) -> set[str]:
        members = list(members)
        if not members:
            return set()
        gone = self._release(keys=[self.holders_key(m) for m in members], args=[PROCESS, now])
        return {members[int(i) - 1] for i in gone}

    def expired(self, now: float) -> list[str]:
        return [m.decode() for m in self.client.zrangebyscore(self.live_key, "-inf", now)]  # type: ignore[union-attr]  # members as bytes: the client does not decode

    def drop(self, members: Iterable[str], now: float) -> set[str]:
        members = list(members)
        if not members:
            return set()
        keys = [self.live_key, *(self.holders_key(m) for m in members)]
        kept = self._drop(keys=keys, args=[now, *members])
        return {members[int(i) - 1] for i in kept}

    def live(self, members: Iterable[str], now: float) -> set[str]:
        members = list(members)
        pipe = self.client.pipeline(transaction=False)
        for member in members:
            pipe.zcount(self.holders_key(member), f"({now}", "+inf")
        return {m for m, n in zip(members, pipe.execute(), strict=True) if n}


_stores: dict[tuple[str, str], LiveStore] = {}


def live_store() -> LiveStore:
    """Redis where the channel layer is (its address and prefix), else this process's store.

    Presence lives beside the channel layer: processes that hear each other's frames see each
    other's sockets, under the installation's prefix (server/platform/installation.py).
    """
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    hosts = config.get("hosts") or [None]
    url = hosts[0]["address"] if isinstance(hosts[0], dict) else ""
    key = (url, config.get("prefix", ""))
    store = _stores.get(key)
    if store is None:
        if url:
            client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5, health_check_interval=15)
            store = RedisStore(client, key[1])
        else:
            store = MemoryStore()
        store = _stores.setdefault(key, store)
    return store

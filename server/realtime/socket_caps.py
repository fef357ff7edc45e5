"""How many sockets (match and lobby together) one visitor and one client address hold open at once.

Each open socket holds a *lease* under its visitor (the player, else the browser session) and
under its client address, counted in every web process at once: in Redis beside the channel
layer (one sorted set per visitor and per address, each lease scored by its expiry), or in this
process when there is none (embedded mode).  Past either cap the socket is accepted and closed
with `CLOSE_TOO_MANY_SOCKETS` and a reason saying which cap and what to do (a close before
accepting reaches a browser as 1006, which it retries for ever; 4400-4499 make it stop).

A lease lasts `SOCKET_LEASE_MS` and the process holding it renews it every third of that; a
socket's end gives it back, however the consumer ended.  A web process that dies stops
renewing: its sockets' leases lapse within `SOCKET_LEASE_MS`, and their clients, reconnecting
elsewhere, are counted once more until then (the caps leave room for it).

IPv6 addresses are counted by their /64: one subscriber's line or one host holds a whole /64,
so counting single addresses would give one client millions of caps.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any, Protocol

import redis.asyncio
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from redis.exceptions import RedisError

from server.players.revocation import session_digest

log = logging.getLogger("plyground.sockets")

CLOSE_TOO_MANY_SOCKETS = 4429


@dataclass(frozen=True)
class Cap:
    """One count a socket joins: its `key` in the store, the `limit`, and the refusal's words."""

    key: str
    limit: int
    reason: str


def caps_of(scope: dict[str, Any]) -> list[Cap]:
    """The counts a socket opening with `scope` joins: its visitor's (if known), then its address's."""
    caps = []
    player = scope.get("player")
    session = scope.get("session")
    visitor = f"p{player.pk}" if player is not None else session_digest(getattr(session, "session_key", None))
    limit = settings.SOCKETS_PER_VISITOR
    if visitor is not None and limit > 0:
        reason = f"you have {limit} live connections open: close some tabs, then reload"
        caps.append(Cap(f"visitor:{visitor}", limit, reason))
    address, limit = client_address(scope), settings.SOCKETS_PER_ADDRESS
    if address is not None and limit > 0:
        reason = f"{limit} live connections are open from your address (a shared network?): close some, then reload"
        caps.append(Cap(f"address:{address}", limit, reason))
    return caps


def client_address(scope: dict[str, Any]) -> str | None:
    """The socket's client address as the HTTP throttles see it (NUM_PROXIES' rule for
    X-Forwarded-For, server/players/throttles.py); an IPv6 address as its /64."""
    peer = (scope.get("client") or [None])[0]
    if settings.NUM_PROXIES > 0:
        forwarded = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-forwarded-for"), "")
        hops = [h.strip() for h in forwarded.split(",") if h.strip()]
        if hops:
            peer = hops[-min(settings.NUM_PROXIES, len(hops))]
    if not peer:
        return None
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return str(peer)[:64]  # not an address (a unix socket's peer): counted as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class LeaseStore(Protocol):
    async def take(self, caps: list[Cap], lease: str, now: float, ttl: float) -> Cap | None:
        """Hold `lease` under every cap's key until now + ttl, unless one is full: that one."""

    async def renew(self, held: dict[str, list[str]], now: float, ttl: float) -> None:
        """`held`: lease → keys, all renewed until now + ttl."""

    async def give_back(self, lease: str, keys: list[str]) -> None: ...


class MemoryLeases:
    """One process, no Redis: the same rules on dictionaries."""

    def __init__(self) -> None:
        self.keys: dict[str, dict[str, float]] = {}

    async def take(self, caps: list[Cap], lease: str, now: float, ttl: float) -> Cap | None:
        for cap in caps:
            leases = self.keys.setdefault(cap.key, {})
            for gone in [held for held, until in leases.items() if until <= now]:
                del leases[gone]
            if len(leases) >= cap.limit:
                return cap
        for cap in caps:
            self.keys[cap.key][lease] = now + ttl
        return None

    async def renew(self, held: dict[str, list[str]], now: float, ttl: float) -> None:
        for lease, keys in held.items():
            for key in keys:
                self.keys.setdefault(key, {})[lease] = now + ttl

    async def give_back(self, lease: str, keys: list[str]) -> None:
        for key in keys:
            leases = self.keys.get(key, {})
            leases.pop(lease, None)
            if not leases:
                self.keys.pop(key, None)


# One script, so that two processes admitting at once cannot both take the last place.
_TAKE = """
for i, key in ipairs(KEYS) do
    redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
    if redis.call('ZCARD', key) >= tonumber(ARGV[4 + i]) then return i end
end
for i, key in ipairs(KEYS) do
    redis.call('ZADD', key, ARGV[3], ARGV[1])
    redis.call('PEXPIRE', key, ARGV[4])
end
return 0
"""
# Each lease (ARGV[2 + i]) held until ARGV[1] under KEYS[i], unless it lapsed already (XX): a
# lease that lapsed while Redis was away is not counted again (the caps fail open meanwhile).
_RENEW = """
for i, key in ipairs(KEYS) do
    redis.call('ZADD', key, 'XX', ARGV[1], ARGV[2 + i])
    redis.call('PEXPIRE', key, ARGV[2])
end
"""
_GIVE_BACK = """
for i, key in ipairs(KEYS) do redis.call('ZREM', key, ARGV[1]) end
"""
RENEW_CHUNK = 1000  # leases per script call: each holds Redis for about a millisecond


class RedisLeases:
    """Shared by every web process of the installation, under its channel prefix."""

    def __init__(self, client: redis.asyncio.Redis, prefix: str) -> None:
        self.client = client
        self.prefix = f"{prefix}:sockets:"
        self._take = client.register_script(_TAKE)
        self._renew = client.register_script(_RENEW)
        self._give_back = client.register_script(_GIVE_BACK)

    async def take(self, caps: list[Cap], lease: str, now: float, ttl: float) -> Cap | None:
        keys = [self.prefix + cap.key for cap in caps]
        full = await self._take(keys=keys, args=[lease, now, now + ttl, int(ttl), *(cap.limit for cap in caps)])
        return caps[int(full) - 1] if int(full) else None

    async def renew(self, held: dict[str, list[str]], now: float, ttl: float) -> None:
        pairs = [(key, lease) for lease, keys in held.items() for key in keys]
        for start in range(0, len(pairs), RENEW_CHUNK):
            chunk = pairs[start : start + RENEW_CHUNK]
            keys = [self.prefix + key for key, _ in chunk]
            await self._renew(keys=keys, args=[now + ttl, int(ttl), *(lease for _, lease in chunk)])

    async def give_back(self, lease: str, keys: list[str]) -> None:
        await self._give_back(keys=[self.prefix + key for key in keys], args=[lease])


class Leases:
    """This process's leases: taken as a socket opens, renewed together, given back as it ends."""

    def __init__(self, store: LeaseStore) -> None:
        self.store = store
        self.held: dict[str, list[str]] = {}
        self._renewing: asyncio.Task[None] | None = None

    async def take(self, caps: list[Cap]) -> tuple[str | None, Cap | None]:
        """A new lease under `caps`: (its id, None), or (None, the cap that is full).  While the
        store is unreachable every socket is let in (as the HTTP throttles do)."""
        if not caps:
            return None, None
        lease = uuid.uuid4().hex
        try:
            full = await self.store.take(caps, lease, _now_ms(), settings.SOCKET_LEASE_MS)
        except (RedisError, OSError) as exc:
            log.warning("socket caps skipped: Redis unavailable (%s)", exc)
            return None, None
        if full is not None:
            return None, full
        self.held[lease] = [cap.key for cap in caps]
        self._start_renewing()
        return lease, None

    async def give_back(self, lease: str | None) -> None:
        keys = self.held.pop(lease, None) if lease is not None else None
        if lease is None or keys is None:
            return
        try:
            await self.store.give_back(lease, keys)
        except (RedisError, OSError) as exc:  # it lapses within SOCKET_LEASE_MS all the same
            log.warning("socket lease not given back: Redis unavailable (%s)", exc)

    def _start_renewing(self) -> None:
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.get_running_loop().create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        while self.held:
            await asyncio.sleep(settings.SOCKET_LEASE_MS / 3000)
            try:
                await self.store.renew(dict(self.held), _now_ms(), settings.SOCKET_LEASE_MS)
            except (RedisError, OSError) as exc:
                log.warning("socket leases not renewed: Redis unavailable (%s)", exc)
            except Exception:  # the loop goes on: stopped, every lease here would lapse and go uncounted
                log.exception("socket leases not renewed")


def _now_ms() -> float:
    return time.time() * 1000


_leases: dict[tuple[str, str, int], Leases] = {}


def leases() -> Leases:
    """This process's leases, in the store beside the channel layer (as presence is,
    server/matches/presence_store.py), for the running event loop."""
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    hosts = config.get("hosts") or [None]
    url = hosts[0]["address"] if isinstance(hosts[0], dict) else ""
    key = (url, config.get("prefix", ""), id(asyncio.get_running_loop()))
    found = _leases.get(key)
    if found is None:
        found = _leases[key] = Leases(RedisLeases(leases_client(url), key[1]) if url else MemoryLeases())
    return found


# Connections to Redis for the leases, per web process: a reconnect storm's openings wait for
# one (as the channel layer's commands do) rather than opening a connection each.
POOL_SIZE = 10
POOL_WAIT_S = 5


def leases_client(url: str) -> redis.asyncio.Redis:
    pool = redis.asyncio.BlockingConnectionPool.from_url(
        url, max_connections=POOL_SIZE, timeout=POOL_WAIT_S, socket_timeout=2, socket_connect_timeout=2
    )
    return redis.asyncio.Redis(connection_pool=pool)


class SocketCapMiddleware:
    """Lets a socket in only while its visitor and its address hold fewer than their caps."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        held = leases()
        lease, full = await held.take(caps_of(scope))
        if full is not None:
            return await _refuse(dict(scope, refusal=full.reason), receive, send)  # type: ignore[arg-type]  # a Channels scope is a plain dict
        try:
            return await self.inner(scope, receive, send)
        finally:
            await held.give_back(lease)


class TooManySockets(AsyncWebsocketConsumer):
    """Accepts, then closes with `CLOSE_TOO_MANY_SOCKETS` and the reason (the page shows it)."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_TOO_MANY_SOCKETS, reason=self.scope["refusal"])  # type: ignore[typeddict-item]  # set by SocketCapMiddleware


_refuse = TooManySockets.as_asgi()

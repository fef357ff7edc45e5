"""Sockets per visitor and per client address (server/realtime/socket_caps.py), and unknown socket paths."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis.asyncio
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.config.asgi import application
from server.players.services import player_create_guest_with_token
from server.realtime.socket_caps import CLOSE_TOO_MANY_SOCKETS, Cap, Leases, MemoryLeases, RedisLeases, client_address
from tests.server.conftest import REDIS_TEST_URL

HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]


async def opened(path: str, token: str | None = None, address: str | None = None) -> WebsocketCommunicator:
    """A socket that got through the handshake; its first output is a frame or a close."""
    url = f"{path}?token={token}" if token else path
    headers = HEADERS + ([(b"x-forwarded-for", address.encode())] if address else [])
    comm = WebsocketCommunicator(application, url, headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def refusal(comm: WebsocketCommunicator) -> tuple[int, str] | None:
    """(code, reason) if the socket was closed at once, None if it was served (its first frame came)."""
    output = await comm.receive_output(timeout=5)
    if output["type"] == "websocket.close":
        return output["code"], output.get("reason", "")
    return None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_one_visitor_holds_at_most_its_cap_of_sockets(settings):
    settings.SOCKETS_PER_VISITOR = 3
    _, token = await database_sync_to_async(player_create_guest_with_token)("Alice")
    held = [await opened("/ws/lobby/", token) for _ in range(3)]
    assert [await refusal(comm) for comm in held] == [None, None, None]

    one_more = await opened("/ws/lobby/", token)
    code, reason = await refusal(one_more)
    assert code == CLOSE_TOO_MANY_SOCKETS == 4429 and "you have 3 live connections open" in reason

    await held.pop().disconnect()  # a tab closed: its place is free again
    again = await opened("/ws/lobby/", token)
    assert await refusal(again) is None
    for comm in [*held, again]:
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_one_address_holds_at_most_its_cap_of_sockets_visitors_or_not(settings):
    settings.SOCKETS_PER_ADDRESS, settings.NUM_PROXIES = 3, 1
    _, token = await database_sync_to_async(player_create_guest_with_token)("Alice")
    held = [await opened("/ws/lobby/", address="203.0.113.5") for _ in range(2)]
    held.append(await opened("/ws/lobby/", token, address="203.0.113.5"))
    assert [await refusal(comm) for comm in held] == [None, None, None]

    code, reason = await refusal(await opened("/ws/lobby/", address="203.0.113.5"))
    assert code == CLOSE_TOO_MANY_SOCKETS and "from your address" in reason
    assert await refusal(await opened("/ws/lobby/", address="198.51.100.7")) is None  # another address
    for comm in held:
        await comm.disconnect()


def test_an_ipv6_client_is_counted_by_its_64(settings):
    settings.NUM_PROXIES = 0
    one, other = ({"client": [f"2001:db8:1:2::{n}", 5000], "headers": []} for n in ("1", "ffff:9"))
    assert client_address(one) == client_address(other) == "2001:db8:1:2::/64"
    assert client_address({"client": ["2001:db8:1:3::1", 1], "headers": []}) == "2001:db8:1:3::/64"
    assert client_address({"client": ["::ffff:203.0.113.5", 1], "headers": []}) == "203.0.113.5"
    # X-Forwarded-For is anyone's to write: read only behind NUM_PROXIES trusted proxies.
    forged = {"client": ["192.0.2.1", 1], "headers": [(b"x-forwarded-for", b"203.0.113.9")]}
    assert client_address(forged) == "192.0.2.1"
    settings.NUM_PROXIES = 1
    assert client_address(forged) == "203.0.113.9"


@pytest.fixture(params=["memory", "redis"])
async def two_processes(request):
    """Two web processes' lease stores on one installation (Redis), or one process's (memory)."""
    if request.param == "memory":
        store = MemoryLeases()
        yield store, store
        return
    prefix = f"plyground-caps-test-{uuid.uuid4().hex[:12]}"
    clients = [redis.asyncio.Redis.from_url(REDIS_TEST_URL) for _ in range(2)]
    yield RedisLeases(clients[0], prefix), RedisLeases(clients[1], prefix)
    async for key in clients[0].scan_iter(f"{prefix}*"):
        await clients[0].delete(key)
    for client in clients:
        await client.aclose()


async def test_leases_count_across_processes_and_lapse_when_their_process_stops_renewing(two_processes):
    first, second = two_processes
    cap, ttl, now = Cap("address:203.0.113.5", 2, "full"), 30_000, 1_000_000.0
    assert await first.take([cap], "a", now, ttl) is None
    assert await second.take([cap], "b", now, ttl) is None
    assert await second.take([cap], "c", now + 1, ttl) == cap  # the first process's lease counts here too

    # The first process dies: it renews nothing more.  The second renews its own lease.
    await second.renew({"b": [cap.key]}, now + ttl / 2, ttl)
    assert await second.take([cap], "c", now + ttl - 1, ttl) == cap  # "a" not lapsed yet
    assert await second.take([cap], "c", now + ttl + 1, ttl) is None  # "a" lapsed; "b" renewed
    assert await second.take([cap], "d", now + ttl + 2, ttl) == cap

    await second.give_back("b", [cap.key])
    assert await second.take([cap], "d", now + ttl + 3, ttl) is None


async def test_a_visitor_refused_takes_no_place_under_its_address():
    store, ttl = MemoryLeases(), 30_000
    visitor, address = Cap("visitor:p1", 1, "visitor"), Cap("address:192.0.2.1", 5, "address")
    assert await store.take([visitor, address], "a", 0, ttl) is None
    assert await store.take([visitor, address], "b", 1, ttl) == visitor
    assert len(store.keys[address.key]) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/matches/abc/", "/ws/lobby/extra/", "/"])
async def test_an_unknown_socket_path_is_closed_with_4404_not_a_server_error(path):
    comm = await opened(path)
    code, reason = await refusal(comm)
    assert code == 4404 and "/ws/lobby/" in reason


async def test_a_process_renews_the_leases_it_holds_until_it_holds_none(settings):
    """What keeps an open socket counted past SOCKET_LEASE_MS (a dead process's lapse instead)."""
    settings.SOCKET_LEASE_MS = 30  # renewed every 10 ms

    class Recording(MemoryLeases):
        def __init__(self) -> None:
            super().__init__()
            self.renewed: list[set[str]] = []

        async def renew(self, held, now, ttl):
            self.renewed.append(set(held))
            await super().renew(held, now, ttl)

    async def renewed(leases: set[str]) -> None:
        for _ in range(500):
            if store.renewed and store.renewed[-1] == leases:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"never renewed {leases}: {store.renewed[-3:]}")

    store = Recording()
    held = Leases(store)
    cap = Cap("visitor:p1", 5, "")
    first, _ = await held.take([cap])
    second, _ = await held.take([cap])
    await renewed({first, second})
    await held.give_back(first)
    await renewed({second})
    await held.give_back(second)
    await asyncio.wait_for(held._renewing, timeout=5)  # nothing held: the renewal stops
    assert store.keys == {}

"""Storms on the production shape (daphne, channels_redis on a real Redis, PostgreSQL): many
sockets opening at once all get their state, and closing at once they leave nothing behind —
no member in the channel layer's groups, no seat online, nothing live in the presence store.
(Before the layer's pool was sized on purpose, 300 closing at once left dead members and seats
shown online for good.)  Timings are benchmarks' business (`benchmarks/sockets.py storm`).
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import psycopg
import pytest
import redis
import websockets

from tests.faults.stack import POSTGRES_URL, FaultStack, postgres_reachable

pytestmark = [
    pytest.mark.fullstack,
    pytest.mark.faults,
    pytest.mark.skipif(not postgres_reachable(), reason="no PostgreSQL at FAULTS_POSTGRES_URL"),
]

SOCKETS = 300
MAKE_MATCHES = """
import json
from server.matches.services import SeatRequest, match_create, match_join
from server.players.services import player_create_guest_with_token
out = []
for i in range({n}):
    (a, ta), (b, tb) = player_create_guest_with_token(), player_create_guest_with_token()
    m = match_create("connect4", [SeatRequest("human"), SeatRequest("human")], a)
    match_join(m.pk, b)
    out.append([m.pk, ta, tb])
print(json.dumps(out))
"""


class StormStack(FaultStack):
    """The fault stack without a worker: matches between people need none."""

    def __enter__(self) -> StormStack:
        self.env["LOG_LEVEL"] = "WARNING"
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        self.manage("migrate", "--noinput", "-v0")
        self.start_redis()
        self.start_web()
        return self

    def make_matches(self, n: int) -> list[list]:
        """`n` matches between two guests: [match id, first token, second token] each."""
        return json.loads(self.manage("shell", "-c", MAKE_MATCHES.format(n=n)).strip().splitlines()[-1])


async def open_until_state(url: str) -> websockets.ClientConnection:
    """Connect within the same second, retrying with jittered backoff as the page does."""
    await asyncio.sleep(random.uniform(0, 1))
    delay, deadline = 0.25, time.monotonic() + 60
    while True:
        try:
            ws = await websockets.connect(url, open_timeout=30, max_queue=None)
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            assert frame["type"] == "state", frame
            return ws
        except (OSError, TimeoutError, websockets.WebSocketException):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, 4)


def leftovers(stack: FaultStack, match_ids: list[int]) -> tuple[int, int, int]:
    """Group members in Redis, seats online in the database, live members in the presence store."""
    r = redis.Redis(port=stack.redis_port)
    prefix = stack.env["CHANNEL_PREFIX"]
    members = sum(r.zcard(f"{prefix}:group:match.{m}") for m in match_ids)
    live = r.zcard(f"{prefix}:presence:live")
    online = stack.sql("select count(*) from matches_seat where online and match_id = any(?)", match_ids)[0][0]
    return members, online, live


def still_live(stack: FaultStack) -> str:
    """The live members left in the presence store, with their expiry (for a failure's message)."""
    r = redis.Redis(port=stack.redis_port)
    live = r.zrange(f"{stack.env['CHANNEL_PREFIX']}:presence:live", 0, -1, withscores=True)
    return f"live in the store at {time.time() * 1000:.0f} ms: {live}"


def test_sockets_opening_at_once_get_their_state_and_closing_at_once_leave_nothing():
    with StormStack("postgres") as stack:
        try:
            matches = stack.make_matches(SOCKETS // 2)
            urls = [f"{stack.ws_url}/ws/matches/{m}/?token={t}" for m, ta, tb in matches for t in (ta, tb)]
            ids = [m for m, _, _ in matches]

            async def storm() -> tuple[int, int, int]:
                sockets = await asyncio.gather(*(open_until_state(u) for u in urls))
                assert len(sockets) == SOCKETS
                # Every socket in its group, every seat online (a retried socket's first attempt, closing
                # as its retry arrived, may take its seat offline until the next heartbeat puts it back).
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline and leftovers(stack, ids)[:2] != (SOCKETS, SOCKETS):
                    await asyncio.sleep(0.5)
                assert leftovers(stack, ids)[:2] == (SOCKETS, SOCKETS)
                await asyncio.gather(*(ws.close() for ws in sockets))
                # 300 offline writes take seconds on a loaded machine; 9 s is still before the store's expiry
                # (10 s) could hide a leak.
                deadline = time.monotonic() + 9
                while time.monotonic() < deadline and leftovers(stack, ids) != (0, 0, 0):
                    await asyncio.sleep(0.5)
                return leftovers(stack, ids)

            assert asyncio.run(storm()) == (0, 0, 0), still_live(stack)
            assert "MaxConnectionsError" not in stack.log("web")
        except BaseException:
            print(stack.logs())
            raise

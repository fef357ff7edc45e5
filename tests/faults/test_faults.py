"""Faults on the full stack, on SQLite and on PostgreSQL: what each costs a player (docs/faults.md).

- a Celery worker SIGKILLed in the middle of a bot's search, another worker started later;
- daphne SIGKILLed (and restarted) right after a person's move between two people;
- Redis restarted in the middle of a game against a bot;
- PostgreSQL refusing the stack's database for a few seconds (a restart, a failover) mid-game.

In each: every ply is stored exactly once, every client hears every event exactly once
(in order, replayed with `?v=` after a drop), and the bot's moves come from real searches.
"""

from __future__ import annotations

import asyncio
import signal
import time

import pytest
import redis

from tests.faults.client import SeatClient
from tests.faults.stack import FaultStack, postgres_reachable

pytestmark = [pytest.mark.fullstack, pytest.mark.faults]

DATABASES = [
    "sqlite",
    pytest.param(
        "postgres",
        marks=pytest.mark.skipif(not postgres_reachable(), reason="no PostgreSQL at FAULTS_POSTGRES_URL"),
    ),
]
SLOW_BOT_BUDGET_MS = 4000
DATABASE_DOWN_S = 3
GROUP_EXPIRY_S = 6  # short, so that a killed process's memberships expire within the test (renewed every 1.5 s)


@pytest.fixture(params=DATABASES)
def stack(request):
    with FaultStack(request.param) as stack:
        try:
            yield stack
        except BaseException:
            print(stack.logs())
            raise


def stored_moves(stack: FaultStack, match_id: int) -> list[tuple[int, int, str]]:
    return stack.sql("select ply, seat, move from matches_move where match_id = ? order by ply", match_id)


def assert_each_ply_once(stack: FaultStack, match_id: int, *clients: SeatClient) -> None:
    rows = stored_moves(stack, match_id)
    assert [ply for ply, _, _ in rows] == list(range(len(rows))), "every ply stored exactly once"
    for client in clients:
        versions = [f["v"] for f in client.events]
        assert versions == list(range(versions[0], versions[0] + len(versions))), "each event once, in order"
        assert client.moves_seen() == [tuple(r) for r in rows], "the client saw exactly the stored moves"


async def new_match(stack: FaultStack, seats: list[dict]) -> tuple[dict, str]:
    _, token = stack.guest()
    return stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, token), token


async def two_people(stack: FaultStack) -> tuple[dict, SeatClient, SeatClient]:
    """A Connect Four match between two guests, each with an open socket: (match, Alice, Bob)."""
    match, alice_token = await new_match(stack, [{"kind": "human"}, {"kind": "human"}])
    _, bob_token = stack.guest()
    stack.api("POST", f"/api/matches/{match['id']}/join/", {}, bob_token)
    alice = SeatClient(stack.ws_url, match["id"], alice_token)
    bob = SeatClient(stack.ws_url, match["id"], bob_token)
    await alice.start()
    await bob.start()
    return match, alice, bob


def real_search(stack: FaultStack, match_id: int, ply: int) -> dict:
    fallback, think_ms, queue_wait_ms = stack.sql(
        "select fallback, think_ms, queue_wait_ms from matches_move where match_id = ? and ply = ?", match_id, ply
    )[0]
    assert fallback == "", f"ply {ply} was a fallback move: {fallback}"
    return {"think_ms": think_ms, "queue_wait_ms": queue_wait_ms}


def test_a_worker_killed_mid_search_the_bots_move_still_comes_from_a_real_search_once(stack):
    # A bot that searches its whole 4 s budget on the opening position.
    stack.manage(
        "shell",
        "-c",
        "from server.bots.models import BotProfile; BotProfile.objects.filter(slug='connect4-deep').update("
        f"time_budget_ms={SLOW_BOT_BUDGET_MS}, max_depth=None, slip_rate=0, min_think_ms=0)",
    )

    async def play() -> None:
        match, token = await new_match(stack, [{"kind": "human"}, {"kind": "bot", "profile": "connect4-deep"}])
        me = SeatClient(stack.ws_url, match["id"], token)
        await me.start()
        await me.move("4", 0)
        await me.until(lambda f: f["type"] == "bot_thinking")
        await asyncio.sleep(1.0)  # 1 s into the 4 s search
        killed = time.monotonic()
        stack.kill("worker1", signal.SIGKILL)
        await asyncio.sleep(2.0)
        stack.start_worker()
        reply = await me.until(lambda f: f["type"] == "move" and f["ply"] == 1, timeout=45)
        print(f"fault: worker killed 1 s into a 4 s search; the move arrived {time.monotonic() - killed:.1f} s later")
        assert reply["by"] == {"kind": "bot", "is_ai": True} and not reply.get("fallback")
        await asyncio.sleep(1.0)  # a second delivery of the task, if any, has had time to play
        assert_each_ply_once(stack, match["id"], me)
        assert len(stored_moves(stack, match["id"])) == 2
        searched = real_search(stack, match["id"], 1)
        # Think time is the search that answered, not the outage before it.
        assert searched["think_ms"] <= SLOW_BOT_BUDGET_MS + 1500, searched
        await me.close()

    asyncio.run(play())


def test_web_killed_right_after_a_move_between_two_people_loses_and_doubles_nothing(stack):
    async def play() -> None:
        match, alice, bob = await two_people(stack)
        columns = iter("4433221")
        players = [alice, bob]
        for ply in range(4):
            await players[ply % 2].move(next(columns), ply)
            await bob.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p)
        # Alice moves, and daphne dies within the same second: stored or not, nobody may be misled.
        await alice.move(next(columns), 4)
        killed = time.monotonic()
        stack.kill("web", signal.SIGKILL)
        stack.env["CHANNEL_GROUP_EXPIRY_S"] = str(GROUP_EXPIRY_S)
        stack.start_web()
        # Stored before the kill: both hear it in the replay; lost with daphne: Alice's page sends it again.
        await alice.until(lambda f: f["type"] == "move" and f["ply"] == 4, timeout=20)
        await bob.until(lambda f: f["type"] == "move" and f["ply"] == 4, timeout=20)
        print(f"fault: daphne killed and restarted; the move reached both {time.monotonic() - killed:.1f} s later")
        await wait_for(lambda: alice.reconnects >= 1 and bob.reconnects >= 1, timeout=10)
        # The dead process never left the match's group; the next move after the group expiry drops it.
        await asyncio.sleep(max(0.0, killed + GROUP_EXPIRY_S + 1 - time.monotonic()))
        for ply in (5, 6):
            await players[ply % 2].move(next(columns), ply)
            await alice.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p)
            await bob.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p)
        assert_each_ply_once(stack, match["id"], alice, bob)
        assert len(stored_moves(stack, match["id"])) == 7
        r = redis.Redis(port=stack.redis_port)
        assert r.zcard(f"{stack.env['CHANNEL_PREFIX']}:group:match.{match['id']}") == 2, "only the two live sockets"
        await alice.close()
        await bob.close()

    asyncio.run(play())


def test_redis_restarted_mid_game_the_clients_recover_within_10_s_and_the_bot_still_moves(stack):
    async def play() -> None:
        match, token = await new_match(stack, [{"kind": "human"}, {"kind": "bot", "profile": "connect4-shallow"}])
        me = SeatClient(stack.ws_url, match["id"], token)
        await me.start()
        ply = 0
        for _ in range(2):
            await me.move(me_legal(me), ply)
            await me.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p + 1)
            ply += 2
        stack.restart_redis(down_s=1.0)
        back = time.monotonic()
        # The player moves at once: the move and the bot's reply arrive within 10 s of Redis's return.
        await me.move(me_legal(me), ply)
        await me.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p + 1, timeout=10)
        recovered_s = time.monotonic() - back
        print(f"fault: Redis restarted; a move and the bot's reply went through {recovered_s:.1f} s after it was back")
        assert recovered_s <= 10, recovered_s
        ply += 2
        await me.move(me_legal(me), ply)
        await me.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p + 1, timeout=10)
        ply += 2
        assert_each_ply_once(stack, match["id"], me)
        for bot_ply in range(1, ply, 2):
            real_search(stack, match["id"], bot_ply)
        await me.close()

    asyncio.run(play())


@pytest.mark.skipif(not postgres_reachable(), reason="no PostgreSQL at FAULTS_POSTGRES_URL")
def test_database_gone_for_seconds_mid_game_the_move_goes_through_after_and_nothing_is_left_behind():
    async def play(stack: FaultStack) -> None:
        match, alice, bob = await two_people(stack)
        columns = iter("4433221")
        players = [alice, bob]
        for ply in range(2):
            await players[ply % 2].move(next(columns), ply)
            await bob.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p)
        stack.cut_database()
        # Alice moves while nothing can be stored: her page must not believe it played, and
        # once the database is back her move goes through, once.
        await alice.move(next(columns), 2)
        await asyncio.sleep(DATABASE_DOWN_S)
        stack.restore_database()
        back = time.monotonic()
        await bob.until(lambda f: f["type"] == "move" and f["ply"] == 2, timeout=20)
        print(f"fault: database gone {DATABASE_DOWN_S} s; the move reached Bob {time.monotonic() - back:.1f} s after")
        for ply in (3, 4):
            await players[ply % 2].move(next(columns), ply)
            await alice.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p, timeout=10)
            await bob.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p, timeout=10)
        assert_each_ply_once(stack, match["id"], alice, bob)
        # A socket that failed for want of a database left its groups: only the two open ones are in it.
        r = redis.Redis(port=stack.redis_port)
        await wait_for(lambda: r.zcard(f"{stack.env['CHANNEL_PREFIX']}:group:match.{match['id']}") == 2, timeout=5)
        online = stack.sql("select index, online from matches_seat where match_id = ? order by index", match["id"])
        assert online == [(0, True), (1, True)], online
        await alice.close()
        await bob.close()

    with FaultStack("postgres") as stack:
        try:
            asyncio.run(play(stack))
        except BaseException:
            print(stack.logs())
            raise


def me_legal(client: SeatClient) -> str:
    """A legal column for the client's next move: from the last move frame, or the state."""
    moves = [f for f in client.events if f["type"] == "move"]
    legal = moves[-1]["legal_moves"] if moves else client.match["legal_moves"]
    return "4" if "4" in legal else legal[0]


async def wait_for(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.1)

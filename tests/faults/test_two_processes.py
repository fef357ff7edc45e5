"""Two web processes and two workers on one Redis and one PostgreSQL: one match, players on both.

This is the shape of a scaled-out installation (docs/scaling.md): web replicas behind a
proxy, any socket on any replica, workers anywhere consuming the same queues.  Every move
must cross between the processes exactly once: each client (the two players, a spectator
on each process) hears every event once, in order, and nothing else.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.faults.client import SeatClient
from tests.faults.stack import FaultStack, postgres_reachable
from tests.faults.test_faults import assert_each_ply_once, me_legal, real_search, stored_moves

pytestmark = [
    pytest.mark.fullstack,
    pytest.mark.faults,
    pytest.mark.skipif(not postgres_reachable(), reason="no PostgreSQL at FAULTS_POSTGRES_URL"),
]

# Twelve Connect Four plies in which nobody wins.
COLUMNS = "123456776543"
SETTLE_S = 1.0  # after the last move: time for a duplicate, if any, to arrive


@pytest.fixture(scope="module")
def stack():
    with FaultStack("postgres") as stack:
        stack.start_web("web2")
        stack.start_worker()  # worker2: both consume the installation's queues
        try:
            yield stack
        except BaseException:
            print(stack.logs())
            raise


def test_players_on_two_processes_and_a_spectator_on_each_hear_every_move_once(stack):
    async def play() -> None:
        _, alice = stack.guest()
        _, bob = stack.guest()
        seats = [{"kind": "human"}, {"kind": "human"}]
        match = stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, alice)
        stack.api("POST", f"/api/matches/{match['id']}/join/", {}, bob)
        web1, web2 = stack.ws_url_of("web"), stack.ws_url_of("web2")
        clients = [
            SeatClient(web1, match["id"], alice),
            SeatClient(web2, match["id"], bob),
            SeatClient(web1, match["id"], None),  # spectators, one on each process
            SeatClient(web2, match["id"], None),
        ]
        for client in clients:
            await client.start()
        players = clients[:2]
        assert [c.seat for c in clients] == [0, 1, None, None]
        plies = 12
        for ply in range(plies):
            await players[ply % 2].move(COLUMNS[ply], ply)
            for client in clients:
                await client.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p, timeout=10)
        await asyncio.sleep(SETTLE_S)
        assert len(stored_moves(stack, match["id"])) == plies
        assert_each_ply_once(stack, match["id"], *clients)
        for client in clients:
            assert len(client.moves_seen()) == plies, "each move heard once by each client"
            assert client.reconnects == 0
        for client in clients:
            await client.close()

    asyncio.run(asyncio.wait_for(play(), timeout=120))


def test_a_bot_match_played_from_the_second_process_gets_its_moves_from_either_worker(stack):
    async def play() -> None:
        _, token = stack.guest()
        seats = [{"kind": "human"}, {"kind": "bot", "profile": "connect4-shallow"}]
        match = stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, token)
        me = SeatClient(stack.ws_url_of("web2"), match["id"], token)
        watcher = SeatClient(stack.ws_url_of("web"), match["id"], None)
        await me.start()
        await watcher.start()
        ply = 0
        for _ in range(4):
            await me.move(me_legal(me), ply)
            reply = await me.until(lambda f, p=ply: f["type"] in ("move", "game_over") and f.get("ply") == p + 1)
            await watcher.until(lambda f, p=ply: f["type"] == "move" and f["ply"] == p + 1, timeout=10)
            assert reply["by"] == {"kind": "bot", "is_ai": True}
            ply += 2
        await asyncio.sleep(SETTLE_S)
        assert_each_ply_once(stack, match["id"], me, watcher)
        for bot_ply in range(1, ply, 2):
            real_search(stack, match["id"], bot_ply)
        await me.close()
        await watcher.close()

    asyncio.run(asyncio.wait_for(play(), timeout=120))

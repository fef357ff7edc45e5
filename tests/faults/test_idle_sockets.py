"""Time passing on the production shape: daphne, channels_redis on the real Redis, a Celery worker.

A player who thinks for 30 s must find both sockets open, and the move and the bot's
reply must arrive.  (redis-py's 5 s socket timeout once closed every idle socket with 1011.)
"""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

pytestmark = [pytest.mark.fullstack, pytest.mark.faults]

IDLE_S = 30


async def frames_until(ws, done, timeout: float = 20) -> list[dict]:
    """Read frames until `done(frame)`; heartbeats and the like may come in between."""
    seen = []
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=timeout))
        seen.append(frame)
        if done(frame):
            return seen


async def idle_then_move(stack) -> None:
    _, token = stack.guest()
    seats = [{"kind": "human"}, {"kind": "bot", "profile": "connect4-shallow"}]
    match = stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, token)
    path = f"/ws/matches/{match['id']}/?token={token}"
    async with (
        websockets.connect(stack.ws_url + path) as room,
        websockets.connect(stack.ws_url + "/ws/lobby/") as lobby,
    ):
        state = json.loads(await room.recv())
        assert state["type"] == "state" and state["you"] == {"seat": 0}
        await lobby.recv()  # the lobby's list

        await asyncio.sleep(IDLE_S)  # the player thinks; nothing is sent either way by the player
        assert room.close_code is None and lobby.close_code is None, (room.close_code, lobby.close_code)

        await room.send(json.dumps({"type": "move", "move": "4", "ply": 0}))
        frames = await frames_until(room, lambda f: f["type"] == "move" and f["seat"] == 1)
        assert not [f for f in frames if f["type"] == "error"], frames
        assert [f["ply"] for f in frames if f["type"] == "move"] == [0, 1]
        assert frames[-1]["by"] == {"kind": "bot", "is_ai": True}
        assert not frames[-1].get("fallback"), "the reply comes from a real search"

        # The idle lobby socket still hears the channel layer: a new open match is pushed to it.
        _, other = stack.guest()
        opened = stack.api("POST", "/api/matches/", {"game": "tictactoe", "seats": [{"kind": "human"}] * 2}, other)
        pushed = await frames_until(lobby, lambda f: f'"id": {opened["id"]},' in json.dumps(f))
        assert pushed


def test_idle_match_and_lobby_sockets_stay_open_and_the_game_goes_on(live_stack):
    asyncio.run(idle_then_move(live_stack))

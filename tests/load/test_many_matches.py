"""Bounded load on loopback: many players and spectators at once, nothing lost, nothing doubled."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
import websockets

pytestmark = pytest.mark.fullstack

PLAYERS = 24
SPECTATORS = 8
RESYNCS: list[int] = []  # matches whose player noticed a missed frame by the heartbeat


async def play_one(stack, seed: int) -> dict:
    _, token = await asyncio.to_thread(stack.guest)
    seats = [{"kind": "human"}, {"kind": "bot", "profile": "tictactoe-random"}]
    match = await asyncio.to_thread(stack.api, "POST", "/api/matches/", {"game": "tictactoe", "seats": seats}, token)
    rng = random.Random(seed)
    async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
        state = json.loads(await ws.recv())
        legal, ply, v = state["match"]["legal_moves"], state["match"]["ply"], state["v"]
        while True:
            await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
            moved_at = v  # any frame that gives the turn back comes after this version (the move is one)
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                assert frame["type"] != "error", frame
                if frame["type"] == "heartbeat" and frame["v"] > v:
                    # As the page does: the heartbeat says a frame went missing, so ask for the state.
                    RESYNCS.append(match["id"])
                    await ws.send(json.dumps({"type": "sync"}))
                    continue
                if frame["type"] == "state" and frame["v"] <= moved_at:
                    continue  # the answer to a resync asked before the move went out: old news, as on the page
                if frame["type"] not in ("state", "heartbeat") and frame.get("v", v + 1) <= v:
                    # Seen already, as on the page (socket.js): a frame the heartbeat overtook, whose
                    # resync's state came first.  Acted on again, it would replay a turn already played.
                    continue
                v = frame.get("v", v) if frame["type"] != "heartbeat" else v
                if frame["type"] == "game_over" or (frame["type"] == "state" and frame["match"]["status"] != "active"):
                    return await asyncio.to_thread(stack.api, "GET", f"/api/matches/{match['id']}/")
                if frame["type"] == "state" and frame["match"]["to_move"] == 0:
                    legal, ply = frame["match"]["legal_moves"], frame["match"]["ply"]
                    break
                if frame["type"] == "move" and frame["to_move"] == 0:
                    legal, ply = frame["legal_moves"], frame["ply"] + 1
                    break


async def watch(stack, match_id: int, until_v: int) -> list[int]:
    async with websockets.connect(f"{stack.ws_url}/ws/matches/{match_id}/?v=0") as ws:
        seen = []
        while not seen or seen[-1] < until_v:
            seen.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=30))["v"])
        return seen


def test_many_players_at_once_finish_every_game_with_every_ply_stored_once(live_stack):
    async def run():
        return await asyncio.gather(*(play_one(live_stack, seed) for seed in range(PLAYERS)))

    try:
        matches = asyncio.run(asyncio.wait_for(run(), timeout=120))
    except BaseException:
        print(live_stack.server_log()[-8000:])  # what the stack was doing (pytest shows it on failure)
        raise
    print(f"load: {PLAYERS} games, {len(RESYNCS)} resyncs after a missed frame {RESYNCS}")
    assert len(matches) == PLAYERS
    for match in matches:
        assert match["status"] == "finished"
        assert [m["ply"] for m in match["moves"]] == list(range(match["ply"]))
        assert {m["by"]["is_ai"] for m in match["moves"] if m["seat"] == 1} == {True}

    async def spectate():
        finished = matches[0]
        return await asyncio.gather(*(watch(live_stack, finished["id"], finished["v"]) for _ in range(SPECTATORS)))

    replays = asyncio.run(asyncio.wait_for(spectate(), timeout=60))
    assert all(r == list(range(1, matches[0]["v"] + 1)) for r in replays), "every spectator replays every event"

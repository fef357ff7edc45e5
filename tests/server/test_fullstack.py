"""The whole stack for real: daphne, a Celery worker and Redis, a game over a real WebSocket."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3

import pytest
import websockets

from tests.support import LiveStack

pytestmark = pytest.mark.fullstack


async def play_against_bot(stack: LiveStack, game: str, bot: str, seed: int) -> tuple[dict, list[dict]]:
    """Play random legal moves against `bot` until the game ends; return the last match and bot frames."""
    _, token = stack.guest()
    match = stack.api(
        "POST", "/api/matches/", {"game": game, "seats": [{"kind": "human"}, {"kind": "bot", "profile": bot}]}, token
    )
    rng = random.Random(seed)
    bot_moves: list[dict] = []
    async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
        state = json.loads(await ws.recv())
        assert state["type"] == "state" and state["you"] == {"seat": 0}
        legal, ply, v = state["match"]["legal_moves"], state["match"]["ply"], state["v"]
        while True:
            await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
                assert frame["type"] != "error", frame
                if "v" in frame and frame["type"] != "heartbeat":  # a heartbeat repeats the latest version
                    assert frame["v"] == v + 1, "versions grow one by one, without gaps (nor another match's)"
                    v = frame["v"]
                if frame["type"] == "game_over":
                    return stack.api("GET", f"/api/matches/{match['id']}/"), bot_moves
                if frame["type"] == "move" and frame["seat"] == 1:
                    assert frame["by"] == {"kind": "bot", "is_ai": True}
                    bot_moves.append(frame)
                if frame["type"] == "move" and frame["to_move"] == 0:
                    legal, ply = frame["legal_moves"], frame["ply"] + 1
                    break


def stored_moves(stack: LiveStack, match_id: int) -> list[tuple[int, int, str]]:
    db = sqlite3.connect(stack.env["DATABASE_URL"].removeprefix("sqlite:///"))
    rows = db.execute("select ply, seat, move from matches_move where match_id = ? order by ply", (match_id,))
    return list(rows)


def test_a_whole_connect_four_game_against_a_celery_bot():
    with LiveStack() as stack:
        assert "full stack" in stack.server_log()
        match, bot_frames = asyncio.run(play_against_bot(stack, "connect4", "connect4-shallow", seed=7))
        assert match["status"] == "finished" and match["result"]["reason"] in ("four in a row", "board full")
        rows = stored_moves(stack, match["id"])
        assert [r[0] for r in rows] == list(range(match["ply"])), "every ply stored exactly once"
        assert [(f["ply"], f["move"]) for f in bot_frames] == [(p, m) for p, s, m in rows if s == 1]
        assert all(f["stats"]["algorithm"] == "alphabeta" and f["stats"]["queued_ms"] >= 0 for f in bot_frames)


def test_embedded_mode_plays_without_redis():
    with LiveStack(embedded=True) as stack:
        assert "embedded mode" in stack.server_log()
        match, bot_frames = asyncio.run(play_against_bot(stack, "tictactoe", "tictactoe-perfect", seed=3))
        assert match["status"] == "finished" and bot_frames
        assert match["result"]["winner"] in (1, None)  # the perfect bot never loses
        assert len(stored_moves(stack, match["id"])) == match["ply"]

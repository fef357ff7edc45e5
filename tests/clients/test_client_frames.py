"""The client's answers to what a match socket sends, without a server: what it sends back, and how often.

A program must not earn strikes (docs/bots.md, Limits) by its own client's reflexes: a missed move
asks for the state once, and a refused frame is not answered at once by another the server refuses.
"""

from __future__ import annotations

import asyncio
import json
import sys

from tests.support import ROOT

sys.path.insert(0, str(ROOT / "clients"))

from plyground_bot import client as client_module  # noqa: E402  # the client as its users import it
from plyground_bot.client import BotClient, _Match  # noqa: E402


class Scripted:
    """A match socket that says `frames` in order and keeps what the client sends."""

    def __init__(self, frames: list[dict]) -> None:
        self.frames, self.sent = list(frames), []

    async def recv(self) -> str:
        return json.dumps(self.frames.pop(0))

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def state(ply: int) -> dict:
    match = {"status": "active", "ply": ply, "to_move": 1, "state": {}, "legal_moves": [], "seats": [],
             "moves": [{"move": str(p)} for p in range(ply)]}  # fmt: skip
    return {"type": "state", "match": match}


def move(ply: int) -> dict:
    return {"type": "move", "ply": ply, "move": str(ply), "to_move": 1, "state": {}, "legal_moves": []}


OVER = {"type": "game_over", "status": "finished", "result": {}}


def play(frames: list[dict]) -> list[dict]:
    socket = Scripted(frames)
    asyncio.run(BotClient("http://127.0.0.1:1", "token", agent=None)._play_on(socket, _Match(1, "connect4", 0)))
    return socket.sent


def test_moves_missed_ask_for_the_state_once_until_it_comes():
    sent = play([state(0), move(0), move(2), move(3), move(4), state(5), move(5), move(7), OVER])
    assert sent == [{"type": "sync"}, {"type": "sync"}]  # one for each gap, not one for each frame after it


def test_a_rate_limited_frame_waits_out_the_window_before_asking_again(monkeypatch):
    waits = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(client_module.asyncio, "sleep", sleep)
    error = {"type": "error", "code": "rate_limited", "message": "too many frames: slow down"}
    sent = play([state(0), error, error, state(0), OVER])
    assert sent == [{"type": "sync"}, {"type": "sync"}] and waits == [5.0, 5.0]


class Searching:
    """An agent whose moves carry its search's figures."""

    async def on_turn(self, turn) -> client_module.Move:
        return client_module.Move(turn.legal_moves[0], {"nodes": 42, "depth": 3, "pv": [turn.legal_moves[0]]})


class Plain:
    async def on_turn(self, turn) -> str:
        return turn.legal_moves[0]


def my_turn(agent: object) -> list[dict]:
    match = {
        "status": "active",
        "ply": 0,
        "to_move": 0,
        "state": {},
        "legal_moves": ["4", "3"],
        "seats": [],
        "moves": [],
    }
    socket = Scripted([{"type": "state", "match": match}, move(0), OVER])
    asyncio.run(BotClient("http://127.0.0.1:1", "token", agent=agent)._play_on(socket, _Match(1, "connect4", 0)))
    return socket.sent


def test_a_move_with_stats_sends_them_and_a_plain_move_none():
    assert my_turn(Searching()) == [
        {"type": "move", "move": "4", "ply": 0, "stats": {"nodes": 42, "depth": 3, "pv": ["4"]}}
    ]
    assert my_turn(Plain()) == [{"type": "move", "move": "4", "ply": 0}]

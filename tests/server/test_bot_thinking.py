"""While a bot thinks: throttled bot_thinking frames with its search figures, never its move."""

from __future__ import annotations

import asyncio
import json
import queue

import pytest
import websockets
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import registry
from server.bots import turn as bot_turn
from server.matches import broadcast, services
from server.matches.models import Move
from server.search import job as search_job
from tests.support import LiveStack


def listen(match_id):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.match_group(match_id), channel)
    return channel


def drain(channel):
    async def collect():
        layer, frames = get_channel_layer(), []
        while True:
            try:
                frames.append((await asyncio.wait_for(layer.receive(channel), 0.2))["frame"])
            except TimeoutError:
                return frames

    return async_to_sync(collect)()


@pytest.mark.django_db(transaction=True)
def test_the_bot_reports_depth_and_nodes_while_it_searches(alice, fast_bot, monkeypatch):
    monkeypatch.setattr(bot_turn, "THINKING_REPORT_EVERY_S", 0.0)  # every iteration, for the test
    seats = [services.SeatRequest("human"), services.SeatRequest("bot", fast_bot)]
    match = services.match_create(fast_bot.game, seats, alice)
    channel = listen(match.pk)
    services.submit_move(match.pk, 0, "4", 0)  # the inline runner plays the bot's reply now
    reply = Move.objects.get(match=match, ply=1)
    frames = [f for f in drain(channel) if f["type"] == "bot_thinking" and "stats" in f]
    assert frames
    for frame in frames:
        assert frame["seat"] == 1 and frame["ply"] == 1 and frame["budget_ms"] == 60
        assert set(frame["stats"]) == {"depth", "nodes"}  # never the move it intends
    assert [f["stats"]["depth"] for f in frames] == list(range(1, len(frames) + 1))
    assert frames[-1]["stats"]["nodes"] <= reply.stats["nodes"]


def test_reports_are_throttled():
    sent = []
    turn = bot_turn.BotTurn(7, 3, 1, "connect4", {}, {"time_budget_ms": 900}, 0.0, 0.0)
    report = bot_turn.ThinkingReporter(turn, sent.append)
    report({"depth": 1, "nodes": 10, "elapsed_ms": 1.0})  # too soon after the turn's announcement
    report.last -= 1.0
    report({"depth": 2, "nodes": 50, "elapsed_ms": 300.0})
    report({"depth": 3, "nodes": 90, "elapsed_ms": 301.0})  # too soon after the last one
    assert sent == [{"type": "bot_thinking", "seat": 1, "ply": 3, "budget_ms": 900, "stats": {"depth": 2, "nodes": 50}}]


def test_a_pool_search_queues_its_figures_for_the_server_process(monkeypatch):
    """In the embedded runner's pool: frames go on the queue with their turn, never the move."""
    monkeypatch.setattr(bot_turn, "THINKING_REPORT_EVERY_S", 0.0)
    frames = queue.Queue()
    monkeypatch.setattr(search_job, "_progress_queue", frames)
    game = registry.get("connect4")
    position = game.to_json(game.initial_state())
    turn = bot_turn.BotTurn(5, 0, 0, "connect4", position, {"time_budget_ms": 5000, "max_depth": 4}, 0.0, 0.0)
    stats = bot_turn.compute_move_in_pool(turn)
    sent = [frames.get_nowait() for _ in range(frames.qsize())]
    assert sent and all(key == bot_turn.turn_key(turn) for key, _ in sent)
    assert [frame["stats"]["depth"] for _, frame in sent] == list(range(1, stats["depth"] + 1))
    assert all(set(frame) == {"type", "seat", "ply", "budget_ms", "stats"} for _, frame in sent)


@pytest.mark.fullstack
def test_embedded_mode_sends_the_bots_search_figures():
    """No Redis: the search runs in the process pool, and its figures still reach the match's sockets."""

    async def play_one_move(stack):
        _, token = stack.guest()
        seats = [{"kind": "human"}, {"kind": "bot", "profile": "othello-master"}]  # 2 s of alpha-beta
        match = stack.api("POST", "/api/matches/", {"game": "othello", "seats": seats}, token)
        async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
            state = json.loads(await ws.recv())
            legal = state["match"]["legal_moves"]
            await ws.send(json.dumps({"type": "move", "move": legal[0], "ply": state["match"]["ply"]}))
            frames = []
            while not (frames and frames[-1]["type"] == "move" and frames[-1]["seat"] == 1):
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=15)))
            return frames

    with LiveStack(embedded=True) as stack:
        frames = asyncio.run(play_one_move(stack))
    figures = [f for f in frames if f["type"] == "bot_thinking" and "stats" in f]
    assert figures, [f["type"] for f in frames]
    reply = frames[-1]
    for frame in figures:
        assert frame["seat"] == 1 and frame["ply"] == reply["ply"] == 1
        assert set(frame["stats"]) == {"depth", "nodes"}  # never the move it intends
    depths = [f["stats"]["depth"] for f in figures]
    assert depths == sorted(depths) and figures[-1]["stats"]["nodes"] <= reply["stats"]["nodes"]

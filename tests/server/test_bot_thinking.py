"""While a bot thinks: throttled bot_thinking frames with its search figures, never its move."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from server.bots import services as bot_services
from server.matches import broadcast, services
from server.matches.models import Move


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
    monkeypatch.setattr(bot_services, "THINKING_REPORT_EVERY_S", 0.0)  # every iteration, for the test
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


def test_reports_are_throttled(monkeypatch):
    sent = []
    monkeypatch.setattr(bot_services.broadcast, "send_to_group", lambda group, frame: sent.append(frame))
    turn = bot_services.BotTurn(7, 3, 1, "connect4", {}, {"time_budget_ms": 900}, 0.0, 0.0)
    report = bot_services.ThinkingReporter(turn)
    report({"depth": 1, "nodes": 10, "elapsed_ms": 1.0})  # too soon after the turn's announcement
    report.last -= 1.0
    report({"depth": 2, "nodes": 50, "elapsed_ms": 300.0})
    report({"depth": 3, "nodes": 90, "elapsed_ms": 301.0})  # too soon after the last one
    assert sent == [{"type": "bot_thinking", "seat": 1, "ply": 3, "budget_ms": 900, "stats": {"depth": 2, "nodes": 50}}]

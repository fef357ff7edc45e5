"""Invariant 1 (docs/design.md §6.1): a bot is never presented as a person, in any API, frame or export.

Every JSON object the server sends that describes a seat's occupant or a move's author is
found by walking the whole payload; each one that is a bot must say `is_ai: true`, and
nothing may call a bot a human.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from server.bots.models import BotProfile
from server.config.asgi import application
from server.matches import services
from server.players.models import Player
from server.players.services import player_create_guest_with_token

# Each test runs on the in-memory layer and on channels_redis with the real Redis.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]
BOT_SLUG = "connect4-shallow"


def bot_mentions(payload: Any, path: str = "$") -> list[tuple[str, dict]]:
    """Every object in `payload` that stands for a bot: a bot profile, or a player or author of kind bot."""
    found = []
    if isinstance(payload, dict):
        is_profile = "slug" in payload and "algorithm" in payload
        if payload.get("kind") in ("bot", "ai") or is_profile or isinstance(payload.get("profile"), dict):
            found.append((path, payload))
        for key, value in payload.items():
            found += bot_mentions(value, f"{path}.{key}")
    elif isinstance(payload, list):
        for i, value in enumerate(payload):
            found += bot_mentions(value, f"{path}[{i}]")
    return found


def assert_disclosed(payload: Any, at_least: int = 1) -> None:
    mentions = bot_mentions(payload)
    assert len(mentions) >= at_least, f"expected a bot in {json.dumps(payload)[:300]}"
    for path, obj in mentions:
        assert obj.get("is_ai") is True, f"{path} shows a bot without is_ai: {obj}"
        assert obj.get("kind") != "human", f"{path} calls a bot a human: {obj}"


@pytest.fixture
def played(db):
    """A match between a person and the bot, with moves by both."""
    player, token = player_create_guest_with_token("Dana")
    bot = BotProfile.objects.get(slug=BOT_SLUG)
    bot.time_budget_ms = 60
    bot.save()
    match = services.match_create("connect4", [services.SeatRequest("human"), services.SeatRequest("bot", bot)], player)
    services.submit_move(match.pk, 0, "1", 0)
    services.submit_move(match.pk, 0, "1", 2)
    return match, player, token


def test_every_http_endpoint_that_shows_a_bot_discloses_it(played):
    match, _, token = played
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert_disclosed(client.get("/api/bots/").json(), at_least=10)
    assert_disclosed(client.get(f"/api/bots/{BOT_SLUG}/").json())
    assert_disclosed(client.get("/api/matches/?status=active").json())
    detail = client.get(f"/api/matches/{match.pk}/").json()
    assert_disclosed(detail, at_least=3)  # the seat and both of the bot's moves
    assert [m["by"]["is_ai"] for m in detail["moves"]] == [False, True, False, True]


async def test_every_socket_frame_that_shows_a_bot_discloses_it(played):
    match, _, token = played
    lobby = WebsocketCommunicator(application, "/ws/lobby/")
    await lobby.connect()
    assert_disclosed(await lobby.receive_json_from())
    room = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/?token={token}")
    await room.connect()
    assert_disclosed(await room.receive_json_from(), at_least=3)
    await room.send_json_to({"type": "move", "move": "2", "ply": 4})
    frames = [await room.receive_json_from(timeout=5) for _ in range(4)]  # move, bot_queued, bot_thinking, bot move
    bot_move = next(f for f in frames if f["type"] == "move" and f["seat"] == 1)
    assert bot_move["by"] == {"kind": "bot", "is_ai": True}
    await room.send_json_to({"type": "resign"})
    ended = await lobby.receive_json_from(timeout=5)
    while ended["type"] == "online":
        ended = await lobby.receive_json_from(timeout=5)
    assert_disclosed(ended)  # the lobby hears the match end
    await room.disconnect()
    await lobby.disconnect()


def test_exports_disclose_bots_and_name_nobody(played):
    match, player, _ = played
    Player.objects.filter(pk=player.pk).update(consent_research=True)  # exports hold only people who agreed
    services.match_resign(match.pk, 0)
    researcher, token = player_create_guest_with_token("Rita")
    from django.contrib.auth.models import User

    user = User.objects.create_user("rita")
    user.groups.add(Group.objects.get_or_create(name="researcher")[0])
    Player.objects.filter(pk=researcher.pk).update(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    games = b"".join(client.get("/api/exports/games.jsonl").streaming_content).decode()
    lines = [json.loads(line) for line in games.splitlines()]
    assert lines and all(bot_mentions(line) for line in lines)
    for line in lines:
        assert_disclosed(line)
    moves = b"".join(client.get("/api/exports/moves.csv").streaming_content).decode()
    rows = list(csv.DictReader(io.StringIO(moves)))
    bot_rows = [r for r in rows if r["seat"] == "1"]
    assert bot_rows and all(r["by"] == "bot" and r["bot_profile"] == BOT_SLUG for r in bot_rows), rows[:2]
    assert player.name not in games and player.name not in moves

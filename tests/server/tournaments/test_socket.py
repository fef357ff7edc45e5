"""The tournament socket: the whole tournament on connect, then again after every change, live."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.agents.services import bot_account_create
from server.bots.models import BotProfile
from server.config.asgi import application
from server.players.models import ApiToken
from server.tournaments import services
from server.tournaments.models import Pairing
from tests.server.tournaments.support import people, tick_at, tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]
HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]


async def watch(tournament_id: int) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/", headers=HEADERS)
    assert (await comm.connect())[0]
    return comm


async def test_watchers_hear_entrants_the_start_and_the_pairings():
    t = await database_sync_to_async(tournament)("swiss")
    comm = await watch(t.pk)
    first = await comm.receive_json_from(timeout=5)
    assert first["type"] == "tournament" and first["tournament"]["status"] == "scheduled"
    players = await database_sync_to_async(people)(2)
    for player in players:
        await database_sync_to_async(services.tournament_join)(t.pk, player)
        frame = await comm.receive_json_from(timeout=5)
        assert frame["tournament"]["entrants"] == players.index(player) + 1
    await database_sync_to_async(tick_at)()
    frame = await comm.receive_json_from(timeout=5)
    while frame["tournament"]["status"] != "running" or not frame["tournament"]["pairings"]:
        frame = await comm.receive_json_from(timeout=5)
    (pairing,) = frame["tournament"]["pairings"]
    assert pairing["match_url"] == f"/matches/{pairing['match']}/" and pairing["white_score"] is None
    await comm.disconnect()


async def test_sync_bad_frames_and_unknown_tournaments():
    t = await database_sync_to_async(tournament)("arena")
    comm = await watch(t.pk)
    await comm.receive_json_from(timeout=5)
    await comm.send_json_to({"type": "sync"})
    assert (await comm.receive_json_from(timeout=5))["type"] == "tournament"
    await comm.send_json_to({"type": "join"})
    error = await comm.receive_json_from(timeout=5)
    assert error == {
        "type": "error",
        "code": "bad_message",
        "message": 'the tournament socket takes {"type": "sync"} only',
    }
    await comm.send_to(text_data="{not json")
    assert (await comm.receive_json_from(timeout=5))["code"] == "bad_message"
    await comm.disconnect()
    missing = WebsocketCommunicator(application, "/ws/tournaments/999999/", headers=HEADERS)
    assert (await missing.connect())[0]
    closed = await missing.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404, "reason": "no tournament 999999"}


async def test_a_bot_account_hears_its_tournament_game_start_on_its_event_stream():
    @database_sync_to_async
    def entered_bot() -> tuple[int, str]:
        owner = people(1)[0]
        bot = bot_account_create(owner, "Quokka")
        t = tournament("swiss", entry="bots", rounds=1)
        services.tournament_join(t.pk, bot)
        services.house_bot_add(t.pk, BotProfile.objects.get(slug="tictactoe-random"))
        return t.pk, ApiToken.issue(bot)

    tid, token = await entered_bot()
    events = WebsocketCommunicator(application, f"/ws/agents/?token={token}", headers=[(b"host", b"127.0.0.1")])
    assert (await events.connect())[0]
    await database_sync_to_async(tick_at)()
    while (frame := await events.receive_json_from(timeout=5))["type"] != "game_start":
        pass
    pairing = await database_sync_to_async(lambda: Pairing.objects.get(tournament_id=tid))()
    assert frame["match"] == pairing.match_id and frame["game"] == "tictactoe"
    await events.disconnect()

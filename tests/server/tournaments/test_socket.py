"""The tournament socket: the whole tournament on connect, then again after every change, live."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.config.asgi import application
from server.tournaments import services
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

"""A match socket's frames are written as the channel layer hands them over, in the order a
client must hear them (server/realtime/frames_at_once.py), on the real Redis layer.

The server's synchronous send is daphne's (`server/asgi_server.py`, tested there and on the full
stack); here it is a stand-in that puts the frame in the test client's stream, so the frames
written at once and those the consumer sends itself are heard in one order, as a browser hears
them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.config.asgi import application
from server.matches import consumers, heartbeat, services
from server.matches.consumers import MatchConsumer
from server.realtime.frames_at_once import SEND_TEXT_NOW

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.parametrize("channel_layer", ["redis"], indirect=True),
]
HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]


async def connect(path: str, token: str | None = None) -> tuple[WebsocketCommunicator, list[str]]:
    """A client whose socket offers the server's synchronous send; the texts it wrote that way."""
    comm = WebsocketCommunicator(application, f"{path}?token={token}" if token else path, headers=HEADERS)
    written_at_once: list[str] = []

    def send_text_now(text: str) -> bool:
        written_at_once.append(text)
        comm.output_queue.put_nowait({"type": "websocket.send", "text": text})
        return True

    comm.scope["extensions"] = {SEND_TEXT_NOW: send_text_now}  # the scope the application is about to get
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_json_from()  # its state
    return comm, written_at_once


async def sync_with_its_state_read_before(
    comm: WebsocketCommunicator, monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[..., Awaitable[Any]], *args: Any
) -> None:
    """`comm` asks `sync`; its state is read, then `meanwhile(*args)` runs before the state is sent."""
    state_read, done = threading.Event(), threading.Event()
    state_frame = consumers._state_frame

    def state_read_first(match_id, player_id):
        frame = state_frame(match_id, player_id)
        state_read.set()
        assert done.wait(5)
        return frame

    monkeypatch.setattr(consumers, "_state_frame", state_read_first)
    await comm.send_json_to({"type": "sync"})
    assert await database_sync_to_async(state_read.wait, thread_sensitive=False)(5)
    await meanwhile(*args)
    done.set()


async def test_a_move_reaches_each_socket_without_its_consumer_handling_it(two_players, channel_layer, monkeypatch):
    match, alice_token, bob_token = two_players
    handled, noted = [], []
    monkeypatch.setattr(MatchConsumer, "frame_send", lambda self, event: handled.append(event))
    note = MatchConsumer.frame_written  # its bookkeeping (a rematch offer waiting) sees every frame

    def noting(self, frame):
        noted.append(frame["type"])
        note(self, frame)

    monkeypatch.setattr(MatchConsumer, "frame_written", noting)
    (alice, _), (bob, bob_wrote), (watcher, watcher_wrote) = [
        await connect(f"/ws/matches/{match.pk}/", token) for token in (alice_token, bob_token, None)
    ]
    await alice.send_json_to({"type": "move", "move": "4", "ply": 0})
    for comm in (alice, bob, watcher):
        while (frame := await comm.receive_json_from(timeout=3))["type"] != "move":
            pass
        assert frame["ply"] == 0 and frame["move"] == "4"
    assert any('"type": "move"' in text for text in bob_wrote)
    assert any('"type": "move"' in text for text in watcher_wrote)
    assert handled == []  # no frame went through a consumer's task
    assert noted.count("move") == 3
    for comm in (alice, bob, watcher):
        await comm.disconnect()


async def test_a_frame_waits_for_the_handler_under_way_and_comes_after_what_it_sends(
    two_players, channel_layer, monkeypatch
):
    """A spectator's `sync` reads the state, and a move is committed before the state is sent:
    the move's frame, handed over meanwhile, must come after that older state, or the page
    would go back a move and stay there."""
    match, alice_token, _ = two_players
    (watcher, _) = await connect(f"/ws/matches/{match.pk}/")
    await sync_with_its_state_read_before(
        watcher, monkeypatch, database_sync_to_async(services.submit_move), match.pk, 0, "4", 0
    )
    heard = [await watcher.receive_json_from(timeout=3) for _ in range(2)]
    assert [(f["type"], f.get("ply", f.get("match", {}).get("ply"))) for f in heard] == [("state", 0), ("move", 0)]
    await watcher.disconnect()


async def test_a_heartbeat_is_written_at_once_and_waits_for_the_handler_under_way(
    two_players, channel_layer, monkeypatch, settings
):
    """The beat takes the frames' way: written by the beat itself, not by the socket's task, and
    held behind a handler under way like a relayed frame (here a `sync` still reading)."""
    settings.MATCH_HEARTBEAT_MS = 10_000
    match, alice_token, _ = two_players
    (alice, alice_wrote) = await connect(f"/ws/matches/{match.pk}/", alice_token)
    sends = []
    monkeypatch.setattr(MatchConsumer, "send_json", lambda self, content, close=False: sends.append(content))
    assert await heartbeat.beat() == 1
    assert sends == []  # not through the consumer
    assert json.loads(alice_wrote[-1]) == {"type": "heartbeat", "v": match.v, "interval_ms": 10_000}
    assert (await alice.receive_json_from(timeout=3))["type"] == "heartbeat"

    await sync_with_its_state_read_before(alice, monkeypatch, heartbeat.beat)
    heard = [(await alice.receive_json_from(timeout=3))["type"] for _ in range(2)]
    assert heard == ["state", "heartbeat"]
    await alice.disconnect()

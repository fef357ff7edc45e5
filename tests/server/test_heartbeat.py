"""The match heartbeat: idle sockets hear the current version, in one query per interval."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from server.matches import heartbeat, services
from server.players.services import player_create_guest_with_token
from server.realtime.frames_at_once import frame_text
from tests.server.conftest import human_match
from tests.server.test_consumers import connect, receive_type

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fast_heartbeat(settings):
    settings.MATCH_HEARTBEAT = True
    settings.MATCH_HEARTBEAT_MS = 200
    yield
    if heartbeat._task is not None:
        heartbeat._task.cancel()
        heartbeat._task = None


class ThroughItsTask:
    """A socket that takes no frame at once (embedded mode's): its beats come through `send_json`."""

    def take_frame(self, message):
        return False


def two_player_match():
    (alice, alice_token), (bob, _) = player_create_guest_with_token("Alice"), player_create_guest_with_token("Bob")
    return human_match("connect4", alice, bob), alice_token


async def test_an_idle_match_socket_hears_the_current_version(fast_heartbeat):
    match, token = await database_sync_to_async(two_player_match)()
    comm = await connect(f"/ws/matches/{match.pk}/", token)
    state = await comm.receive_json_from()
    first = await receive_type(comm, "heartbeat", timeout=2)
    assert first == {"type": "heartbeat", "v": state["v"], "interval_ms": 200}
    # A move whose frame this socket never gets (stored behind its back): the next heartbeat says so.
    await database_sync_to_async(services.submit_move)(match.pk, 0, "4", 0)
    while (frame := await comm.receive_json_from(timeout=2))["type"] != "heartbeat" or frame["v"] == state["v"]:
        pass
    assert frame["v"] == state["v"] + 1
    await comm.disconnect()
    assert heartbeat.socket_count() == 0


async def test_one_query_per_interval_for_many_sockets_and_matches(settings, monkeypatch):
    settings.MATCH_HEARTBEAT_MS = 10_000  # no loop: beat() is called by hand

    class FakeSocket(ThroughItsTask):
        def __init__(self) -> None:
            self.frames: list[dict] = []

        async def send_json(self, content, close=False):
            self.frames.append(content)

    matches = [await database_sync_to_async(two_player_match)() for _ in range(5)]
    sockets = {m.pk: [FakeSocket() for _ in range(200)] for m, _ in matches}  # 1,000 sockets
    for match_id, group in sockets.items():
        for socket in group:
            heartbeat.register(match_id, socket)
    queries: list[int] = []
    original = heartbeat.versions_of

    def counted(ids):
        with CaptureQueriesContext(connection) as captured:
            result = original(ids)
        queries.append(len(captured))
        return result

    monkeypatch.setattr(heartbeat, "versions_of", counted)
    try:
        started = time.perf_counter()
        sent = await heartbeat.beat()
        await asyncio.sleep(0)  # the sends run as tasks
        elapsed = time.perf_counter() - started
    finally:
        for match_id, group in sockets.items():
            for socket in group:
                heartbeat.unregister(match_id, socket)
    assert sent == 1000 and queries == [1]
    for (match, _), group in zip(matches, sockets.values(), strict=True):
        assert all(s.frames == [{"type": "heartbeat", "v": match.v, "interval_ms": 10_000}] for s in group)
    assert elapsed < 2  # generous: about 20 ms on a laptop
    assert heartbeat.socket_count() == 0


async def test_a_beat_to_many_sockets_leaves_the_event_loop_free_between_slices(settings):
    """Sent all at once, a beat to 1,000 sockets held the loop for one long turn: a move arriving
    then waited for all of them.  A probe task counts the heartbeats sent between its turns."""
    settings.MATCH_HEARTBEAT_MS = 10_000
    sent_so_far = 0

    class Counted(ThroughItsTask):
        async def send_json(self, content, close=False):
            nonlocal sent_so_far
            sent_so_far += 1

    match, _ = await database_sync_to_async(two_player_match)()
    sockets = [Counted() for _ in range(1000)]
    for socket in sockets:
        heartbeat.register(match.pk, socket)
    between_turns: list[int] = []

    async def probe() -> None:
        seen = 0
        while seen < len(sockets):
            await asyncio.sleep(0)
            between_turns.append(sent_so_far - seen)
            seen = sent_so_far

    prober = asyncio.create_task(probe())
    try:
        sent = await heartbeat.beat()
        await asyncio.wait_for(prober, timeout=10)
    finally:
        for socket in sockets:
            heartbeat.unregister(match.pk, socket)
    assert sent == sent_so_far == 1000
    assert max(between_turns) <= heartbeat.SLICE < 1000


async def test_a_socket_closed_while_a_beat_is_spread_gets_none(settings):
    settings.MATCH_HEARTBEAT_MS = 10_000
    frames: list[int] = []

    class Numbered(ThroughItsTask):
        def __init__(self, n: int) -> None:
            self.n = n

        async def send_json(self, content, close=False):
            frames.append(self.n)

    match, _ = await database_sync_to_async(two_player_match)()
    sockets = [Numbered(n) for n in range(heartbeat.SLICE * 2)]
    for socket in sockets:
        heartbeat.register(match.pk, socket)
    beating = asyncio.create_task(heartbeat.beat())
    while not frames:  # the first slice is out; the second waits for the pause
        await asyncio.sleep(0)
    last = next(s for s in sockets if s.n not in frames)
    heartbeat.unregister(match.pk, last)
    try:
        assert await beating == len(sockets) - 1
        await asyncio.sleep(0)
        assert last.n not in frames and len(frames) == len(sockets) - 1
    finally:
        for socket in sockets:
            heartbeat.unregister(match.pk, socket)


async def test_a_slow_socket_skips_a_beat_instead_of_holding_the_others(settings):
    settings.MATCH_HEARTBEAT_MS = 10_000
    match, _ = await database_sync_to_async(two_player_match)()
    release = asyncio.Event()

    class Slow(ThroughItsTask):
        calls = 0

        async def send_json(self, content, close=False):
            Slow.calls += 1
            await release.wait()

    class Quick(ThroughItsTask):
        frames: list[dict] = []

        async def send_json(self, content, close=False):
            Quick.frames.append(content)

    slow, quick = Slow(), Quick()
    heartbeat.register(match.pk, slow)
    heartbeat.register(match.pk, quick)
    try:
        await heartbeat.beat()
        await asyncio.sleep(0)
        await heartbeat.beat()
        await asyncio.sleep(0)
        assert Slow.calls == 1 and len(Quick.frames) == 2
        release.set()
        await asyncio.sleep(0)
    finally:
        heartbeat.unregister(match.pk, slow)
        heartbeat.unregister(match.pk, quick)


async def test_a_socket_whose_task_ended_without_disconnect_is_let_go():
    class Socket(ThroughItsTask):
        async def send_json(self, content, close=False):
            pass

    async def crashing_consumer():
        heartbeat.register(99, Socket())
        raise RuntimeError("a handler failed: disconnect() never runs")

    with pytest.raises(RuntimeError):
        await asyncio.create_task(crashing_consumer())
    await asyncio.sleep(0)  # the task's done callbacks run on the next turn of the loop
    assert heartbeat.socket_count() == 0


async def test_a_socket_taking_frames_at_once_gets_its_match_beat_encoded_once(settings):
    """No task a socket: each match's beat is one message whose text its first socket encodes
    for the others (`frame_text`), handed to each socket's `take_frame`."""
    settings.MATCH_HEARTBEAT_MS = 10_000
    (first, _), (second, _) = [await database_sync_to_async(two_player_match)() for _ in range(2)]

    class AtOnce:
        def __init__(self) -> None:
            self.taken: list[dict] = []

        def take_frame(self, message):
            self.taken.append(message)
            frame_text(message)
            return True

        async def send_json(self, content, close=False):
            raise AssertionError("a socket taking frames at once is not sent a beat through its task")

    sockets = {first.pk: [AtOnce() for _ in range(3)], second.pk: [AtOnce()]}
    for match_id, group in sockets.items():
        for socket in group:
            heartbeat.register(match_id, socket)
    try:
        assert await heartbeat.beat() == 4
        await heartbeat.beat()  # a socket taking at once is never left busy: it gets every beat
    finally:
        for match_id, group in sockets.items():
            for socket in group:
                heartbeat.unregister(match_id, socket)
    for match, group in ((first, sockets[first.pk]), (second, sockets[second.pk])):
        assert all(len(s.taken) == 2 for s in group)
        beat = group[0].taken[0]
        assert all(s.taken[0] is beat for s in group)  # one message, so one encoding, a match
        assert json.loads(beat["text"]) == {"type": "heartbeat", "v": match.v, "interval_ms": 10_000}

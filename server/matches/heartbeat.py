"""Every match socket hears its match's latest version every few seconds, outside the channel layer.

A frame lost on its way through the channel layer leaves no version gap until the next
frame, which may never come (the match waits for the player who missed it).  So each web
process sends each of its own match sockets ``{"type": "heartbeat", "v", "interval_ms"}``
every ``MATCH_HEARTBEAT_MS``; a client whose version is behind asks ``sync``, and a client
that hears nothing at all for about two intervals knows its socket is dead and reconnects.

The heartbeat goes straight from this process to its sockets (not through Redis), so it
still arrives when a layer message was lost.  One query per interval reads the versions
of every match this process has sockets for, however many sockets there are; a socket
whose previous heartbeat is still being written (a slow reader) skips a beat.

A beat is sent in slices of `SLICE` sockets with the event loop free between them: sent all
at once, the heartbeats held the loop every interval (moves arriving meanwhile waited), for
longer with every socket a process holds.

Each match's beat is encoded once, and written to each of its sockets as a relayed frame is
(`server/realtime/frames_at_once.py`: at once, or after the handler under way), which costs the
process less CPU than a beat through each socket's own task (`benchmarks/README.md`, history:
"A slower machine again; the heartbeat written at once").  A socket that does not take
frames that way (embedded mode) gets it through its task, and only there can a slow reader
still be busy with its last beat.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.conf import settings

from server.matches import frames
from server.matches.models import Match
from server.realtime.frames_at_once import FRAME_SEND

log = logging.getLogger("plyground.matches")


class Socket(Protocol):
    def take_frame(self, message: dict[str, Any]) -> bool: ...  # `FramesWrittenAtOnce.take_frame`

    async def send_json(self, content: Any, close: bool = False) -> None: ...


_sockets: dict[int, set[Socket]] = defaultdict(set)  # match id -> this process's sockets for it
_busy: set[Socket] = set()  # sockets whose last heartbeat is still being sent
_task: asyncio.Task[Any] | None = None

SLICE = 100  # heartbeats sent in one turn of the event loop (a few ms of it)
SLICE_PAUSE_S = 0.02  # between slices: 1,000 sockets' beat spread over ~0.2 s


def interval_ms() -> int:
    return max(100, settings.MATCH_HEARTBEAT_MS)


def register(match_id: int, socket: Socket) -> None:
    """Called from the socket's own task: it is let go when the consumer leaves or when that task
    ends, whichever comes first (a consumer that crashed never runs `disconnect()`)."""
    _sockets[match_id].add(socket)
    task = asyncio.current_task()
    if task is not None:
        task.add_done_callback(lambda _: unregister(match_id, socket))


def unregister(match_id: int, socket: Socket) -> None:
    sockets = _sockets.get(match_id)
    if sockets is None:
        return
    sockets.discard(socket)
    _busy.discard(socket)
    if not sockets:
        del _sockets[match_id]


def socket_count() -> int:
    return sum(len(s) for s in _sockets.values())


def versions_of(match_ids: list[int]) -> dict[int, int]:
    """The event version of each match, in one query."""
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "v"))


async def beat() -> int:
    """One heartbeat to every match socket of this process; returns how many were sent."""
    if not _sockets:
        return 0
    versions = await database_sync_to_async(versions_of)(list(_sockets))
    every = interval_ms()
    # A match gone has no beat: its sockets will be closed by whoever deleted it.
    beats = {match_id: {"type": FRAME_SEND, "frame": frames.heartbeat(v, every)} for match_id, v in versions.items()}
    recipients = [(match_id, socket) for match_id in beats for socket in list(_sockets.get(match_id, ()))]
    # Spread over at most a quarter of the interval, however many slices there are.
    pause = min(SLICE_PAUSE_S, every / 4000 / max(1, len(recipients) // SLICE))
    sent = 0
    for start in range(0, len(recipients), SLICE):
        if start:
            await asyncio.sleep(pause)  # the previous slice goes out, and moves waiting with it
        for match_id, socket in recipients[start : start + SLICE]:
            if socket in _busy or socket not in _sockets.get(match_id, ()):
                continue  # still writing its last beat (a slow reader), or closed during the pauses
            if not socket.take_frame(beats[match_id]):
                _busy.add(socket)
                asyncio.get_running_loop().create_task(_send(socket, beats[match_id]["frame"]))  # type: ignore[arg-type]  # the heartbeat frame
            sent += 1
    return sent


async def _send(socket: Socket, frame: dict[str, Any]) -> None:
    try:
        await socket.send_json(frame)
    except Exception:  # a socket closing under us: its disconnect unregisters it
        log.debug("heartbeat not sent", exc_info=True)
    finally:
        _busy.discard(socket)


def start_heartbeat() -> None:
    """Start the loop once per event loop (idempotent), like the match watch."""
    global _task
    if not settings.MATCH_HEARTBEAT:
        return
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_run())


async def _run() -> None:
    while True:
        await asyncio.sleep(interval_ms() / 1000)
        try:
            await beat()
        except Exception:
            log.exception("match heartbeat failed")

"""The lobby's online count, told to every lobby socket at most once a second per web process.

Each lobby arrival changes the count, and telling every lobby socket about every arrival
costs N² frames when N sockets connect at once (a restart reconnects everyone).  So an
arrival only asks for the count to be told: the first ask in a quiet second is told at once,
the asks after it within the second are told together at its end, with the count read then
(so the last count told is the count after the last arrival).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from server.matches import broadcast, frames
from server.players.selectors import players_online
from server.realtime.frames_at_once import FRAME_SEND

log = logging.getLogger("plyground.lobby")
INTERVAL_S = 1.0

_told_at = float("-inf")  # monotonic time the count was last told from this process
_pending: asyncio.Task[None] | None = None


def count_changed() -> None:
    """Called on the event loop: the count will be told within `INTERVAL_S`, once."""
    global _pending
    loop = asyncio.get_running_loop()
    if _pending is not None and not _pending.done() and _pending.get_loop() is loop:
        return
    delay = max(0.0, _told_at + INTERVAL_S - time.monotonic())
    # A fresh context: the asking socket's own database thread may be gone by then.
    _pending = loop.create_task(_tell_after(delay), context=contextvars.Context())


async def _tell_after(delay: float) -> None:
    global _told_at
    await asyncio.sleep(delay)
    _told_at = time.monotonic()  # asks from here on wait for the next interval
    try:
        count = await database_sync_to_async(players_online)()
        layer = get_channel_layer()
        assert layer is not None  # the settings always configure one
        await layer.group_send(broadcast.LOBBY_GROUP, {"type": FRAME_SEND, "frame": frames.online(count)})
    except Exception:  # the count is told again at the next arrival or presence heartbeat
        log.warning("online count not told", exc_info=True)

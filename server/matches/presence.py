"""Who this web process has sockets for: seats (a seated person's match sockets) and people (any socket).

Each socket is served by its own asyncio task (Channels runs one consumer per connection).
What a socket holds is let go when its consumer says it left *or* when its task ends,
whichever comes first: a consumer that crashed (an exception in a handler, a channel-layer
read that failed) never runs `disconnect()`, and its seat must not stay online for ever.

The database holds the sums, `Seat.online` and `Player.online_until`, kept fresh by the
heartbeat of `server/matches/watch.py` (a few writes per interval, however many sockets),
so a process that dies takes its seats and people offline after `PRESENCE_STALE_MS`.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async

from server.matches import services

log = logging.getLogger("plyground.matches")


@dataclass
class _Hold:
    """What one socket holds: a seat (match id, seat index) and the person behind it."""

    seat: tuple[int, int] | None = None
    player: int | None = None


_holds: dict[asyncio.Task, _Hold] = {}
_writes: set[asyncio.Task] = set()  # offline writes started by a socket's end, not awaited by anyone


def _hold() -> _Hold:
    task = asyncio.current_task()
    assert task is not None, "presence is kept from a socket's task"
    hold = _holds.get(task)
    if hold is None:
        hold = _holds[task] = _Hold()
        task.add_done_callback(_ended)
    return hold


def hold(match_id: int, seat: int | None, player_id: int | None) -> None:
    """This socket holds `seat` (if seated) and its person, as written by `services.socket_arrived`:
    the caller stored that in the same database call that read the socket's match (one call, not three)."""
    current = _hold()
    if seat is not None:
        current.seat = (match_id, seat)
    if player_id is not None:
        current.player = player_id


async def left(match_id: int, seat: int) -> None:
    """The socket's consumer says it left; the seat goes offline when it was its last socket here."""
    hold = _holds.get(asyncio.current_task())
    if hold is not None and hold.seat == (match_id, seat):
        hold.seat = None
    if (match_id, seat) not in here():
        await database_sync_to_async(services.seat_presence)(match_id, seat, False)


def _ended(task: asyncio.Task) -> None:
    """A socket's task ended, cleanly or not: let go of whatever it still holds."""
    hold = _holds.pop(task, None)
    if hold is None:
        return
    if hold.seat is not None and hold.seat not in here():
        _write(services.seat_presence, *hold.seat, False)
    if hold.player is not None and hold.player not in people():
        _write(services.person_presence, hold.player, False)


def _write(fn: Callable[..., Any], *args: Any) -> None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # the loop is closing: the heartbeat's absence takes them offline
        return
    # A fresh context: the ended socket's own (its database thread, server/config/db_threads.py)
    # is closed by now, so the write goes to Channels' default thread.
    write = loop.create_task(database_sync_to_async(fn)(*args), context=contextvars.Context())
    _writes.add(write)
    write.add_done_callback(_written)


def _written(write: asyncio.Task) -> None:
    _writes.discard(write)
    if not write.cancelled() and write.exception() is not None:
        log.warning("presence not written", exc_info=write.exception())


async def settled() -> None:
    """Wait for the offline writes of sockets that ended (tests, and a clean shutdown)."""
    while _writes:
        await asyncio.gather(*list(_writes), return_exceptions=True)


def here() -> set[tuple[int, int]]:
    """The (match id, seat) pairs with a socket open in this process."""
    return {hold.seat for task, hold in list(_holds.items()) if hold.seat is not None and not task.done()}


def people() -> set[int]:
    """The players with a socket open in this process (match or lobby)."""
    return {hold.player for task, hold in list(_holds.items()) if hold.player is not None and not task.done()}

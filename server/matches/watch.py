"""Runs in the web process: clocks are enforced, presence kept fresh and the lobby kept true.

Every second it ends clocked matches whose seat to move ran out of time (plus the grace
the page shows at 0:00) and aborts those whose person made no first move in time; every
`PRESENCE_HEARTBEAT_MS` it marks the seats and people this process has sockets for as
still here.  Then it applies the lobby's rules (docs/lobby.md): seats with no heartbeat
go offline, a person gone from a game between people loses it, a match against bots
whose person is gone is adjourned, and an open match whose creator is gone is aborted.
A rematch offered after a match is called off once a person has left its room for
`REMATCH_LEFT_GRACE_MS` (a reload comes back well within it).  When the number of people
online changed, the lobby hears it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime
from typing import Any, NamedTuple

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from server.matches import broadcast, frames, presence, services
from server.matches.services import rematch
from server.players.selectors import players_online
from server.realtime.failures import log_failure

log = logging.getLogger("plyground.matches")
INTERVAL_S = 1.0
_task: asyncio.Task[Any] | None = None
_online_told: int | None = None  # the count this process last told the lobby


class WatchPass(NamedTuple):
    """What one pass did."""

    flagged: int = 0  # out of time
    abandoned: int = 0  # a person left a game between people
    adjourned: int = 0  # the person left a game against bots
    expired: int = 0  # an open match whose creator left
    rematches_withdrawn: int = 0  # a person left the room of a finished match with a rematch on offer
    unstarted: int = 0  # a person did not make their first move in time: aborted


def start_match_watch() -> None:
    """Start the loop once per event loop (idempotent)."""
    global _task
    if not settings.MATCH_WATCH:
        return
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_watch())


def watch_pass(
    heartbeat: bool = True, now: datetime | None = None, held: tuple[set[tuple[int, int]], set[int]] | None = None
) -> WatchPass:
    """One pass at `now`; `held` is (seats, people) with a socket here, read on the event loop."""
    now = now or timezone.now()
    if heartbeat:
        seats, people = held if held is not None else (presence.here(), presence.people())
        services.presence_heartbeat(seats, people, now)
        _tell_lobby_online(now)
    services.presence_expire_stale(now)
    return WatchPass(
        services.flag_fallen_clocks(now),
        services.abandon_gone_seats(now),
        services.adjourn_gone_matches(now),
        services.expire_open_matches(now),
        rematch.withdraw_left_rematches(now),
        services.abort_unstarted_matches(now),
    )


def _tell_lobby_online(now: datetime | None) -> None:
    global _online_told
    count = players_online(now)
    if count != _online_told:
        _online_told = count
        broadcast.send_to_group(broadcast.LOBBY_GROUP, frames.online(count))


async def _watch() -> None:
    last_beat = 0.0
    while True:
        await asyncio.sleep(INTERVAL_S)
        try:
            beat = time.monotonic() - last_beat >= settings.PRESENCE_HEARTBEAT_MS / 1000
            if beat:
                last_beat = time.monotonic()
            held = (presence.here(), presence.people())
            done = await database_sync_to_async(watch_pass)(beat, None, held)
            if any(done):
                log.info(
                    "match watch: %d out of time, %d abandoned, %d adjourned, %d open matches expired, "
                    "%d rematch offers withdrawn, %d aborted without a first move",
                    *done,
                )
        except Exception:
            log_failure(log, "match watch pass failed")

"""Runs in the web process: clocks are enforced and presence kept fresh, whoever is connected.

Every second it ends clocked matches whose seat to move ran out of time (plus the
grace the page shows at 0:00), marks the seats this process has sockets for as still
here, and ends matches between people that a seat abandoned past the grace.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.db import database_sync_to_async
from django.conf import settings

from server.matches import presence, services

log = logging.getLogger("plyground.matches")
INTERVAL_S = 1.0
_task: asyncio.Task | None = None


def start_match_watch() -> None:
    """Start the loop once per event loop (idempotent)."""
    global _task
    if not settings.MATCH_WATCH:
        return
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_watch())


def watch_pass(heartbeat: bool = True) -> tuple[int, int]:
    """One pass: (matches flagged, matches abandoned)."""
    if heartbeat:
        services.presence_heartbeat(presence.here())
    return services.flag_fallen_clocks(), services.abandon_gone_seats()


async def _watch() -> None:
    last_beat = 0.0
    while True:
        await asyncio.sleep(INTERVAL_S)
        try:
            beat = time.monotonic() - last_beat >= settings.PRESENCE_HEARTBEAT_MS / 1000
            if beat:
                last_beat = time.monotonic()
            flagged, abandoned = await database_sync_to_async(watch_pass)(beat)
            if flagged or abandoned:
                log.info("match watch: %d out of time, %d abandoned", flagged, abandoned)
        except Exception:
            log.exception("match watch pass failed")

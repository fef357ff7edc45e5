"""The tournament tick in the web process, for embedded mode (no Redis, so no Celery beat).

In the full stack Celery beat sends the tick (`tasks.tick`); without Redis there is no beat,
and `make run` still runs tournaments: the web process ticks every `TOURNAMENT_TICK_MS`
(`TOURNAMENT_TICK_IN_WEB`, on in embedded mode only).
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from server.realtime.failures import log_failure
from server.tournaments import rounds

log = logging.getLogger("plyground.tournaments")
_task: asyncio.Task[None] | None = None


def start_tournament_watch() -> None:
    """Start the loop once per event loop (idempotent); nothing when beat sends the tick."""
    global _task
    if not settings.TOURNAMENT_TICK_IN_WEB:
        return
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_watch())


async def _watch() -> None:
    while True:
        await asyncio.sleep(settings.TOURNAMENT_TICK_MS / 1000)
        try:
            done = await database_sync_to_async(rounds.tick)()
            if done.started or done.paired or done.finished:
                log.info("tournament tick: %s", done)
        except Exception:
            log_failure(log, "tournament tick failed")

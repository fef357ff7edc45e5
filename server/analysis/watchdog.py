"""Runs in the web process: an analysis whose worker died goes on (docs/design.md §4).

Every `INTERVAL_S` it asks `services.resume_stalled_analyses` to queue again the analyses
with no step for ``ANALYSIS_STALL_SECONDS``.  Kept apart from the bots' watchdog, which
never imports analysis; switched on and off with it (``BOT_WATCHDOG``).
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from server.analysis.services import resume_stalled_analyses

log = logging.getLogger("plyground.analysis")
INTERVAL_S = 30.0  # a stalled analysis waits minutes, not seconds: look seldom
_task: asyncio.Task[None] | None = None


def start_analysis_watch() -> None:
    """Start the loop once per event loop (idempotent)."""
    global _task
    if not settings.BOT_WATCHDOG:
        return
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_watch())


async def _watch() -> None:
    while True:
        await asyncio.sleep(INTERVAL_S)
        try:
            resumed = await database_sync_to_async(resume_stalled_analyses)()
            if resumed:
                log.warning("queued %d stalled analysis job(s) again", resumed)
        except Exception:
            log.exception("analysis watch pass failed")

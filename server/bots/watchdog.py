"""Runs in the web process: a bot turn that nobody answered gets a fallback move."""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from server.bots.services import rescue_overdue_bots

log = logging.getLogger("plyground.bots")
INTERVAL_S = 1.0
_task: asyncio.Task | None = None


def start_watchdog() -> None:
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
            rescued = await database_sync_to_async(rescue_overdue_bots)()
            if rescued:
                log.warning("watchdog played %d fallback bot move(s)", rescued)
        except Exception:
            log.exception("bot watchdog pass failed")

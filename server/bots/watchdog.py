"""Runs in the web process: a match never hangs waiting for a bot, and a bot never pretends (docs/design.md §4).

The rules are `server.bots.services.bot_turns_to_rescue`'s: a turn waiting for a free
worker is never overdue; a search that started and never answered is queued once more;
a fallback move (marked as one) only when that second search is lost too, or when no
worker has started any search for ``BOT_QUEUE_CAP_MS``.  What the watchdog knows is in
the database (`BotTurnRecord`), so a restarted web process carries on where it was.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from server.bots.queues import bot_queue_of
from server.bots.runners import queue_bot_turn
from server.bots.services import (
    bot_seat_to_move,
    bot_turn_announce,
    bot_turn_fallback,
    bot_turn_queued,
    bot_turn_requeued,
    bot_turns_to_rescue,
    budget_ms_of,
    trim_bot_turn_records,
)
from server.realtime.failures import log_failure

log = logging.getLogger("plyground.bots")
INTERVAL_S = 1.0
TRIM_EVERY = 300  # passes between two trims of ended matches' bot turn records
_task: asyncio.Task[None] | None = None


def rescue_overdue_bots(now: datetime | None = None) -> int:
    """Act on every bot turn that needs it; returns the fallback moves played."""
    now = now or timezone.now()
    played = 0
    for rescue in bot_turns_to_rescue(now):
        key = (rescue.match_id, rescue.ply)
        if rescue.action == "fallback":
            played += bot_turn_fallback(*key, reason=rescue.reason)
            continue
        (log.info if rescue.action == "requeue" and not rescue.lost_search else log.warning)(
            "bot turn %s: %s", key, rescue.reason
        )
        if rescue.action == "queue":
            found = bot_seat_to_move(*key)
            if found is None:
                continue
            bot_turn_queued(*key, budget_ms_of(found[1]), now)
        else:
            bot_turn_requeued(*key, now)
        if rescue.lost_search or rescue.action == "queue":
            bot_turn_announce(rescue.match_id, rescue.seat, rescue.ply)  # waiting again, not thinking
        queue_bot_turn(*key, bot_queue_of(rescue.match_id, rescue.source))
    return played


def start_watchdog() -> None:
    """Start the loop once per event loop (idempotent)."""
    global _task
    if not settings.BOT_WATCHDOG:
        return
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_watch())


async def _watch() -> None:
    passes = 0
    while True:
        await asyncio.sleep(INTERVAL_S)
        passes += 1
        try:
            rescued = await database_sync_to_async(rescue_overdue_bots)()
            if rescued:
                log.warning("watchdog played %d fallback bot move(s)", rescued)
            if passes % TRIM_EVERY == 0:
                await database_sync_to_async(trim_bot_turn_records)()
        except Exception:
            log_failure(log, "bot watchdog pass failed")

"""Runs in the web process: a match never hangs waiting for a bot (DESIGN §4).

A bot turn still unanswered at its deadline plus the grace is queued once more (its
task may have been lost with a worker or a restarted server); if that one is not
answered in time either, the bot plays a fallback move.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import models

from server.bots.runners import queue_bot_turn
from server.bots.services import bot_turn_fallback, overdue_bot_turns

log = logging.getLogger("plyground.bots")
INTERVAL_S = 1.0
_task: asyncio.Task | None = None
# (match id, ply) -> when its second chance runs out (epoch seconds)
_second_chances: dict[tuple[int, int], float] = {}


def rescue_overdue_bots() -> int:
    """Queue each overdue bot turn once more, then play a fallback; returns the moves played."""
    now = time.time()
    played = 0
    overdue = overdue_bot_turns()
    for key in overdue:
        expires = _second_chances.get(key)
        if expires is None:
            budget_s = _budget_s(*key)
            _second_chances[key] = now + budget_s + settings.BOT_WATCHDOG_GRACE_MS / 1000
            log.warning("bot turn %s unanswered: queued again", key)
            queue_bot_turn(key[0], key[1], now, now + budget_s)
        elif now >= expires:
            played += bot_turn_fallback(*key)
    for key in set(_second_chances) - set(overdue):
        del _second_chances[key]  # answered, or the match moved on
    return played


def _budget_s(match_id: int, ply: int) -> float:
    from server.matches.models import Seat

    seat = Seat.objects.filter(match_id=match_id, kind=Seat.Kind.BOT, match__to_move=models.F("index")).first()
    return ((seat.bot_snapshot or {}).get("time_budget_ms", 1000) if seat else 1000) / 1000


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

"""The tournament tick, sent by Celery beat every `TOURNAMENT_TICK_MS` (docs/tournaments.md)."""

from __future__ import annotations

import logging

from celery import shared_task

from server.tournaments import rounds

log = logging.getLogger("plyground.tournaments")


@shared_task(name="tournaments.tick", ignore_result=True)
def tick() -> None:
    """Start what is due, record and pair what is running: safe to run twice, and at once."""
    done = rounds.tick()
    if done.started or done.cancelled or done.paired or done.recorded or done.finished:
        log.info("tournament tick: %s", done)

"""Celery tasks: a bot turn, run by a worker."""

from __future__ import annotations

from celery import shared_task

from server.bots.services import bot_turn_run


@shared_task(name="bots.bot_move", ignore_result=True)
def bot_move(match_id: int, ply: int, deadline: float, queued_at: float) -> bool:
    """Search and play the bot's move for `ply`; does nothing if that ply was already played."""
    return bot_turn_run(match_id, ply, deadline, queued_at)

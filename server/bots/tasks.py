"""Celery tasks: a bot turn, run by a worker."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from server.bots.services import bot_turn_run


@shared_task(name="bots.bot_move", ignore_result=True)
def bot_move(match_id: int, ply: int, token: Any = "", *_: Any) -> bool:
    """Search and play the bot's move for `ply`, its budget from now; nothing if that ply was already played.

    `token` tells this queueing of the turn from another one.  A message of the previous
    shape ``(match_id, ply, deadline, queued_at)`` is run as a turn without a token.
    """
    return bot_turn_run(match_id, ply, token if isinstance(token, str) else "")

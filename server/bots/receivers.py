"""Bots listen for turns: when a bot seat is to move, its search is queued (after commit)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from server.bots.queues import bot_queue_of
from server.bots.runners import queue_bot_turn
from server.bots.services import adaptive_strengths_update, bot_turn_announce, bot_turn_queued, budget_ms_of
from server.matches.models import Match, Seat
from server.matches.signals import match_finished, turn_started


@receiver(turn_started, sender=Match, dispatch_uid="bots.queue_on_turn")
def queue_when_bot_to_move(
    sender: Any, match_id: int, ply: int, seat: int, bot: bool | None = None, **kwargs: Any
) -> None:
    if bot is False:  # the sender had the seats loaded: a person is to move, nothing to look up
        return
    bot_seat = Seat.objects.filter(match_id=match_id, index=seat, kind=Seat.Kind.BOT).select_related("match").first()
    if bot_seat is None:
        return
    bot_turn_queued(match_id, ply, budget_ms_of(bot_seat))
    bot_turn_announce(match_id, bot_seat.index, ply)
    queue_bot_turn(match_id, ply, bot_queue_of(match_id, bot_seat.match.source))


@receiver(match_finished, sender=Match, dispatch_uid="bots.adapt_on_finish")
def adapt_after_match(sender: Any, match_id: int, **kwargs: Any) -> None:
    adaptive_strengths_update(match_id)

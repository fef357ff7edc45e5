"""A hint is recorded with the move the player then plays (its stats), so exports show it."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from server.matches.models import MatchEvent, Move


@receiver(post_save, sender=Move, dispatch_uid="analysis.hint_on_move")
def record_hint_with_move(sender: Any, instance: Move, created: bool, **kwargs: Any) -> None:
    if not created or instance.seat < 0 or not instance.match.hints_allowed:
        return
    event = (
        MatchEvent.objects.filter(
            match_id=instance.match_id, frame__type="hint", frame__ply=instance.ply, frame__seat=instance.seat
        )
        .order_by("-v")
        .first()
    )
    if event is None:
        return
    # The profile goes under ``engine``, the hint frame's former name for it: exports read that key.
    hint = {k: event.frame[k] for k in ("move", "value", "depth", "nodes", "engine") if k in event.frame}
    instance.stats = {**(instance.stats or {}), "hint": hint}
    Move.objects.filter(pk=instance.pk).update(stats=instance.stats)

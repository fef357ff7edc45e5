"""Reads of the seek pool: what the lobby shows."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from server.pairing.models import Seek
from server.players.selectors import player_json

SEEKS_SHOWN = 100


def live_seeks() -> QuerySet[Seek]:
    """Seeks whose person is still online somewhere (a dead process's seeks fall away with its presence)."""
    return Seek.objects.filter(player__online_until__gt=timezone.now()).select_related("player")


def seek_json(seek: Seek) -> dict[str, Any]:
    return {
        "id": seek.pk,
        "game": seek.game,
        "clock": seek.clock or None,
        "rated": seek.rated,
        "rating": seek.rating,
        "range": seek.rating_range,
        "options": seek.options or {},
        "player": player_json(seek.player),
        "created_at": seek.created_at.isoformat(),
    }


def seeks_json() -> list[dict[str, Any]]:
    return [seek_json(s) for s in live_seeks().order_by("pk")[:SEEKS_SHOWN]]

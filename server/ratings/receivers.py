"""Ratings listen to `matches`; `matches` never imports `ratings` (docs/design.md §4)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from server.matches.models import Match
from server.matches.signals import match_ending
from server.ratings.services import rate_match


@receiver(match_ending, dispatch_uid="ratings.rate_match")
def rate_on_ending(sender: Any, match: Match, **kwargs: Any) -> None:
    rate_match(match)

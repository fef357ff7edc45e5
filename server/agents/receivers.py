"""Bot accounts listen for ends of matches: a measurement goes on when one of its games ends."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from server.agents import measuring
from server.matches.models import Match
from server.matches.signals import match_finished


@receiver(match_finished, sender=Match, dispatch_uid="agents.measure_on_finish")
def measurement_after_match(sender: Any, match_id: int, **kwargs: Any) -> None:
    measuring.after_match(match_id)

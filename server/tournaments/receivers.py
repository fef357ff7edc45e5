"""Tournaments listen for ends of matches: a tournament's game ended, so its result counts now."""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from server.matches.models import Match
from server.matches.signals import match_finished
from server.tournaments import rounds

log = logging.getLogger("plyground.tournaments")


@receiver(match_finished, sender=Match, dispatch_uid="tournaments.record_on_finish")
def record_after_match(sender: Any, match_id: int, **kwargs: Any) -> None:
    try:
        rounds.match_ended(match_id)
    except Exception:  # the match's end stands; the next tick records the result and pairs
        log.exception("tournament result of match %s left to the tick", match_id)

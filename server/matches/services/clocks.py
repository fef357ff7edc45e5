"""Time controls: a clocked match's seat to move loses when its time and the grace run out.

People only flag.  A bot seat of a clocked match is charged its search time (never its wait
for a free computer) and gains the increment, so its clock shows what it spent; it never
loses on time, since its level's time budget, not the clock, bounds how long it thinks
(docs/wire.md "Creating a match").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import CHANCE
from server.matches.models import Match, Seat
from server.matches.services.endings import forfeit
from server.matches.services.events import locked


@dataclass(frozen=True)
class Clock:
    """A time control: each seat starts with `minutes` and gains `increment` seconds per move."""

    minutes: float
    increment: int

    def to_json(self) -> dict[str, int]:
        return {"initial_ms": round(self.minutes * 60_000), "increment_ms": self.increment * 1000}


def flag_if_out_of_time(match: Match, now=None, seats: dict[int, Seat] | None = None) -> bool:
    """End the match "out of time" when the person to move has used their time plus the grace.

    `seats` (by index), when the caller has them loaded, saves a query for the seat's kind.
    """
    if match.status != Match.Status.ACTIVE or match.clock_ms is None or match.to_move in (None, CHANCE):
        return False
    if match.turn_started_at is None:
        return False
    if _bot_seat(match, match.to_move, seats):
        return False
    if not out_of_time(match.clock_ms, match.to_move, match.turn_started_at, now or timezone.now()):
        return False
    seat = match.to_move
    match.clock_ms = [0 if i == seat else ms for i, ms in enumerate(match.clock_ms)]
    forfeit(match, seat, "out of time")
    return True


def out_of_time(clock_ms: list[int], seat: int, turn_started_at: datetime, now: datetime) -> bool:
    """Whether `seat`, to move since `turn_started_at`, has used its time left and the grace."""
    used_ms = (now - turn_started_at).total_seconds() * 1000
    return used_ms > clock_ms[seat] + settings.CLOCK_FLAG_GRACE_MS


def charged(clock_ms: list[int], seat: int, used_ms: int, increment_ms: int) -> list[int]:
    """Each seat's time left once `seat` is charged the `used_ms` of its move and given the increment."""
    left = max(0, clock_ms[seat] - used_ms) + increment_ms
    return [left if i == seat else ms for i, ms in enumerate(clock_ms)]


def flag_fallen_clocks(now=None) -> int:
    """End every clocked match whose seat to move ran out of time; how many ended."""
    now = now or timezone.now()
    live = Match.objects.filter(status=Match.Status.ACTIVE, clock_ms__isnull=False, turn_started_at__isnull=False)
    overdue = [
        pk
        for pk, clock_ms, seat, started in live.values_list("pk", "clock_ms", "to_move", "turn_started_at")
        if seat is not None and seat >= 0 and out_of_time(clock_ms, seat, started, now)
    ]
    # A bot to move never flags: its seat is left out here and again under the lock.
    bots_to_move = set(
        Seat.objects.filter(match_id__in=overdue, kind=Seat.Kind.BOT, index=F("match__to_move")).values_list(
            "match_id", flat=True
        )
    )
    overdue = [pk for pk in overdue if pk not in bots_to_move]
    flagged = 0
    for match_id in overdue:  # checked again under the lock: a move may have come in meanwhile
        with transaction.atomic():
            match = locked(match_id)
            if flag_if_out_of_time(match, now):
                match.save()
                flagged += 1
    return flagged


def _bot_seat(match: Match, index: int, seats: dict[int, Seat] | None) -> bool:
    if seats is not None:
        return index in seats and seats[index].kind == Seat.Kind.BOT
    return match.seats.filter(index=index, kind=Seat.Kind.BOT).exists()

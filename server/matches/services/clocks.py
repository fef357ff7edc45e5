"""Time controls: a clocked match's seat to move loses when its time and the grace run out.

A seat's clock runs from its first move on (lichess's rule): the first move costs nothing
and adds no increment, so nobody loses time to a pairing they were slow to notice.  Instead
a person who has not made their first move `CLOCK_FIRST_MOVE_MS` after their turn began has
the match aborted, unrated and without a result (`abort_unstarted_matches`).

People only flag.  A bot seat of a clocked match is charged its search time (never its wait
for a free computer) and gains the increment, so its clock shows what it spent; it never
loses on time, since its level's time budget, not the clock, bounds how long it thinks
(docs/wire.md "Creating a match").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import CHANCE
from server.matches.models import Match, Move, Seat
from server.matches.selectors import clock_runs
from server.matches.services.endings import abort, forfeit
from server.matches.services.events import locked


@dataclass(frozen=True)
class Clock:
    """A time control: each seat starts with `minutes` and gains `increment` seconds per move."""

    minutes: float
    increment: int

    def to_json(self) -> dict[str, int]:
        return {"initial_ms": round(self.minutes * 60_000), "increment_ms": self.increment * 1000}


def flag_if_out_of_time(match: Match, now: datetime | None = None, seats: dict[int, Seat] | None = None) -> bool:
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
    if not clock_runs(match, match.to_move):
        return False  # a first move: `abort_unstarted_matches` waits for it instead
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


def flag_fallen_clocks(now: datetime | None = None) -> int:
    """End every clocked match whose seat to move ran out of time; how many ended."""
    now = now or timezone.now()
    live = Match.objects.filter(status=Match.Status.ACTIVE, clock_ms__isnull=False, turn_started_at__isnull=False)
    overdue = [
        pk
        for pk, clock_ms, seat, started in live.values_list("pk", "clock_ms", "to_move", "turn_started_at")
        if seat is not None and seat >= 0 and out_of_time(clock_ms, seat, started, now)  # type: ignore[arg-type]  # the query: both set
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


def abort_unstarted_matches(now: datetime | None = None) -> int:
    """Abort every clocked match whose person to move has not made their first move within
    `CLOCK_FIRST_MOVE_MS` of their turn's start; how many were aborted.

    Their clock does not run yet, so this bounds the wait for them: aborted, not lost, and
    no rating changes.  A bot's seat is never waited for (it always moves).
    """
    now = now or timezone.now()
    since = now - timedelta(milliseconds=settings.CLOCK_FIRST_MOVE_MS)
    live = Match.objects.filter(
        status=Match.Status.ACTIVE, clock_ms__isnull=False, to_move__gte=0, turn_started_at__lt=since
    )
    # Only a seat whose time is still whole can be at its first move (`clock_runs`); of those,
    # one that has moved (a long think on its second move) is left out by one query for all,
    # rather than a lock every second while it thinks, and so is a bot to move.
    whole = {
        pk: seat
        for pk, clock, clock_ms, seat in live.values_list("pk", "clock", "clock_ms", "to_move")
        if clock_ms[seat] == clock["initial_ms"]  # type: ignore[index]  # a clocked match has both
    }
    played = Move.objects.filter(match_id__in=whole, ply__gte=F("match__opening_plies"))  # an opening is no first move
    moved = set(played.order_by().values_list("match_id", "seat").distinct())
    bots_to_move = set(
        Seat.objects.filter(match_id__in=whole, kind=Seat.Kind.BOT, index=F("match__to_move")).values_list(
            "match_id", flat=True
        )
    )
    aborted = 0
    # Checked again under the lock: the first move may have come in meanwhile.
    for match_id in (pk for pk, seat in whole.items() if (pk, seat) not in moved and pk not in bots_to_move):
        with transaction.atomic():
            match = locked(match_id)
            if not _waits_for_first_move(match, since):
                continue
            abort(match, "no first move", now)
            match.save()
            aborted += 1
    return aborted


def _waits_for_first_move(match: Match, since: datetime) -> bool:
    return (
        match.status == Match.Status.ACTIVE
        and match.clock_ms is not None
        and match.to_move is not None
        and match.to_move >= 0
        and match.turn_started_at is not None
        and match.turn_started_at < since
        and not _bot_seat(match, match.to_move, None)
        and not clock_runs(match, match.to_move)
    )


def _bot_seat(match: Match, index: int, seats: dict[int, Seat] | None) -> bool:
    if seats is not None:
        return index in seats and seats[index].kind == Seat.Kind.BOT
    return match.seats.filter(index=index, kind=Seat.Kind.BOT).exists()

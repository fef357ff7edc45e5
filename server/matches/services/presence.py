"""Presence: whether each seated person (and each person) has a socket open.

The web processes' sockets (`server/matches/presence.py`) report arrivals and departures
here, and their heartbeat keeps the database's sums fresh (`server/matches/watch.py`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from server.matches import broadcast, frames
from server.matches.models import Match, Seat
from server.matches.services.endings import match_resume
from server.players.models import Player
from server.players.services import player_seen


def seat_presence(match_id: int, seat: int, online: bool, now=None) -> bool:
    """A human seat's sockets came or went; True (and a `presence` frame) when that changed."""
    now = now or timezone.now()
    changed = Seat.objects.filter(match_id=match_id, index=seat, kind=Seat.Kind.HUMAN).exclude(online=online)
    flipped = changed.update(online=online, last_seen_at=now)
    Seat.objects.filter(match_id=match_id, index=seat).update(last_seen_at=now)
    if flipped:
        _send_presence(match_id, seat, online)
    return bool(flipped)


def socket_arrived(match_id: int, player_id: int | None, now=None) -> tuple[bool, int | None]:
    """A match socket opened: whether the match exists, and the seat of `player_id` in it (or None).

    Everything its arrival writes, in one call (a connect storm pays one database round per
    socket, not one per write): a seated person's seat is online (their adjourned match
    resumes), and the person is seen and online.
    """
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    if status is None:
        return False, None
    seat = None
    if player_id is not None:
        seat = Seat.objects.filter(match_id=match_id, player_id=player_id).values_list("index", flat=True).first()
        if seat is not None:
            seat_presence(match_id, seat, True, now)
            if status == Match.Status.ADJOURNED:
                match_resume(match_id, seat, now)  # re-checks under the match's lock
        player_seen(player_id)
        person_presence(player_id, True, now)
    return True, seat


def person_presence(player_id: int, online: bool, now=None) -> None:
    """A person's first socket in this web process opened, or their last one here closed.

    Online lasts until the next heartbeat is due (`PRESENCE_STALE_MS`); going offline is
    immediate, and another process that still holds a socket of theirs puts them back
    within one heartbeat.
    """
    now = now or timezone.now()
    until = now + timedelta(milliseconds=settings.PRESENCE_STALE_MS) if online else now
    Player.objects.filter(pk=player_id).update(online_until=until)


def presence_heartbeat(seats: set[tuple[int, int]], people: Iterable[int] = (), now=None) -> None:
    """The (match id, seat) pairs and the people this process has sockets for are still here.

    A few queries per interval, however many sockets: seats are found by match, then
    written by primary key (a long OR of pairs would overflow SQLite's expression depth).
    """
    now = now or timezone.now()
    if seats:
        rows = Seat.objects.filter(match_id__in={m for m, _ in seats}).values_list("pk", "match_id", "index", "online")
        held = [(pk, key, online) for pk, *key, online in rows if tuple(key) in seats]
        back = [pk for pk, _, online in held if not online]
        if back:
            Seat.objects.filter(pk__in=back, kind=Seat.Kind.HUMAN).update(online=True)
            for pk, (match_id, seat), _ in held:
                if pk in back:
                    _send_presence(match_id, seat, True)
        Seat.objects.filter(pk__in=[pk for pk, _, _ in held]).update(last_seen_at=now)
    people = set(people)
    if people:
        until = now + timedelta(milliseconds=settings.PRESENCE_STALE_MS)
        Player.objects.filter(pk__in=people).update(online_until=until)


LIVE_STATUSES = (Match.Status.WAITING, Match.Status.ACTIVE)


def presence_expire_stale(now=None) -> int:
    """Seats still online with no heartbeat for `PRESENCE_STALE_MS`: the process holding their
    socket died (or lost its database).  They go offline now; returns how many."""
    now = now or timezone.now()
    stale = now - timedelta(milliseconds=settings.PRESENCE_STALE_MS)
    gone = Seat.objects.filter(
        online=True, last_seen_at__lt=stale, match__status__in=LIVE_STATUSES, kind=Seat.Kind.HUMAN
    ).values_list("match_id", "index")
    expired = 0
    for match_id, seat in list(gone):
        expired += seat_presence(match_id, seat, False, now)
    return expired


def _send_presence(match_id: int, seat: int, online: bool) -> None:
    frame = frames.presence(seat, online, settings.ABANDON_GRACE_MS)
    group = broadcast.match_group(match_id)
    transaction.on_commit(lambda: broadcast.send_to_group(group, frame))

"""Presence: whether each seated person (and each person) has a socket open.

The web processes' sockets report arrivals and departures here; live presence is kept in
the presence store (`server/matches/presence.py`: Redis with expiry, or in process), and the
database hears only of transitions (docs/design.md §7).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from server.matches import presence
from server.matches.models import Match, Seat
from server.matches.services.endings import match_resume


def seat_presence(match_id: int, seat: int, online: bool, now: datetime | None = None) -> bool:
    """A human seat's sockets came or went; True (and a `presence` frame) when that changed."""
    return presence.seat_presence(match_id, seat, online, now)


def socket_arrived(match_id: int, player_id: int | None, now: datetime | None = None) -> tuple[bool, int | None]:
    """A match socket opened: whether the match exists, and the seat of `player_id` in it (or None).

    Everything its arrival reads and writes, in one call (a connect storm pays one database
    round per socket, not one per write): one query for the match and the seat, then in one
    transaction (one commit) a seated person's seat online (their adjourned match resumes),
    and the person seen and online, for what the presence store did not hold already.
    """
    found = _match_and_seat(match_id, player_id)
    if found is None:
        return False, None
    status, seat = found
    if player_id is None:
        return True, seat
    now = now or timezone.now()
    came = presence.arriving(match_id, seat, player_id, now)
    resumes = seat is not None and status == Match.Status.ADJOURNED
    if came or resumes:
        with transaction.atomic():
            presence.arrived(came, now)
            if resumes:
                match_resume(match_id, seat, now)  # type: ignore[arg-type]  # `resumes`: seated; re-checks under the match's lock
    return True, seat


def _match_and_seat(match_id: int, player_id: int | None) -> tuple[str, int | None] | None:
    """The match's status and `player_id`'s seat in it, in one query; None when there is no such match.

    Written in SQL: the ORM built the same query (with a subquery) at a cost in CPU above the
    query's own, on every socket's opening.
    """
    with connection.cursor() as cursor:
        cursor.execute(_match_and_seat_sql(), [player_id, match_id])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


def _match_and_seat_sql() -> str:
    q = connection.ops.quote_name
    match, seat = q(Match._meta.db_table), q(Seat._meta.db_table)
    # No seat joins for nobody (player_id NULL equals nothing): a spectator gets the status alone.
    return (
        f"SELECT m.{q('status')}, s.{q('index')} FROM {match} m LEFT JOIN {seat} s"
        f" ON s.{q('match_id')} = m.{q('id')} AND s.{q('player_id')} = %s"
        f" WHERE m.{q('id')} = %s ORDER BY s.{q('index')} LIMIT 1"
    )


def person_presence(player_id: int, online: bool, now: datetime | None = None) -> None:
    """A person's first socket in this web process opened, or their last one here closed."""
    presence.person_presence(player_id, online, now)


def presence_heartbeat(seats: set[tuple[int, int]], people: Iterable[int] = (), now: datetime | None = None) -> None:
    """The (match id, seat) pairs and the people this process has sockets for are still here:
    refreshed in the presence store; the database hears only those the store had lost."""
    presence.heartbeat(seats, people, now)


LIVE_STATUSES = (Match.Status.WAITING, Match.Status.ACTIVE)


def presence_expire_stale(now: datetime | None = None) -> int:
    """Seats and people whose process stopped refreshing them (it died) go offline; returns how many seats."""
    return presence.expire_stale(now)

"""Presence: whether each seated person (and each person) has a socket open.

The web processes' sockets report arrivals and departures here; live presence is kept in
the presence store (`server/matches/presence.py`: Redis with expiry, or in process), and the
database hears only of transitions (docs/design.md §7).
"""

from __future__ import annotations

from collections.abc import Iterable

from server.matches import presence
from server.matches.models import Match, Seat
from server.matches.services.endings import match_resume
from server.players.services import player_seen


def seat_presence(match_id: int, seat: int, online: bool, now=None) -> bool:
    """A human seat's sockets came or went; True (and a `presence` frame) when that changed."""
    return presence.seat_presence(match_id, seat, online, now)


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
    """A person's first socket in this web process opened, or their last one here closed."""
    presence.person_presence(player_id, online, now)


def presence_heartbeat(seats: set[tuple[int, int]], people: Iterable[int] = (), now=None) -> None:
    """The (match id, seat) pairs and the people this process has sockets for are still here:
    refreshed in the presence store; the database hears only those the store had lost."""
    presence.heartbeat(seats, people, now)


LIVE_STATUSES = (Match.Status.WAITING, Match.Status.ACTIVE)


def presence_expire_stale(now=None) -> int:
    """Seats and people whose process stopped refreshing them (it died) go offline; returns how many seats."""
    return presence.expire_stale(now)

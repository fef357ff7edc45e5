"""Rematch: after a match between people, one offers the same game again, seats swapped.

The offer waits in `Match.offer` (kind "rematch") of the finished match, under its row lock,
so it is made into a match exactly once: a second click, or both people clicking Rematch at
once (the second click is then an acceptance), finds the offer already answered and returns
the same next match.  Every frame goes in the finished match's event log, so a page that
reconnects still hears it (docs/wire.md).  Against bots the page starts a new match itself.

A person who leaves the room calls the offer off, but not at once: a reload closes the socket
and opens another a moment later.  The socket's departure is noted here, and the match watch
(`server/matches/watch.py`) withdraws the offer once the seat has been gone for
`REMATCH_LEFT_GRACE_MS`, unless it came back.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from server.matches import frames
from server.matches.errors import NoOffer, OfferNotAllowed
from server.matches.models import Match, Seat
from server.matches.services.clocks import Clock
from server.matches.services.events import locked, record
from server.matches.services.lifecycle import SeatRequest, match_create, match_join

KIND = "rematch"

# Seats whose last socket in this process closed while a rematch was on offer: when they went.
# Kept in the process that saw them go (a process that dies takes its notes with it, and the
# offer then stands, as it would for a socket that never said goodbye).
_leaving: dict[tuple[int, int], datetime] = {}
_leaving_lock = threading.Lock()  # noted on the event loop, read by the watch on a database thread


@transaction.atomic
def rematch_offer(match_id: int, seat: int) -> int | None:
    """`seat` offers a rematch; the next match's id when this click completed it (the other had offered)."""
    match = locked(match_id)
    seats = _people(match)
    offer = match.offer
    if offer is not None and offer.get("kind") == KIND:
        if "match" in offer:
            return int(offer["match"])
        if offer["seat"] == seat:
            return None  # a second click on our own offer
        if seat in offer["awaiting"]:
            return _accepted(match, seats, offer, seat)
    match.offer = {"kind": KIND, "seat": seat, "awaiting": [s.index for s in seats if s.index != seat]}
    record(match, frames.rematch_offer(seat, match.offer["awaiting"]))
    match.save()
    return None


@transaction.atomic
def rematch_answer(match_id: int, seat: int, accept: bool) -> int | None:
    """Accept (the next match's id once nobody else is awaited) or decline the rematch offered to
    `seat`; the seat that offered it declines to withdraw it."""
    match = locked(match_id)
    seats = _people(match)
    offer = match.offer
    if offer is None or offer.get("kind") != KIND:
        raise NoOffer("no rematch is on offer")
    if "match" in offer:
        if accept:
            return int(offer["match"])
        raise NoOffer("the rematch has started already")
    if seat == offer["seat"] and accept:
        raise NoOffer("you cannot accept your own rematch offer; decline withdraws it")
    if seat != offer["seat"] and seat not in offer["awaiting"]:
        raise NoOffer("this rematch offer is not waiting for your answer")
    if accept:
        return _accepted(match, seats, offer, seat)
    match.offer = None
    record(match, frames.rematch_answered(offer["seat"], seat, False))
    match.save()
    return None


def _accepted(match: Match, seats: list[Seat], offer: dict[str, Any], seat: int) -> int | None:
    awaiting = [s for s in offer["awaiting"] if s != seat]
    if awaiting:
        match.offer = {**offer, "awaiting": awaiting}
        record(match, frames.rematch_offer(offer["seat"], awaiting))
        match.save()
        return None
    next_match = _next_match(match, seats)
    match.offer = {**offer, "awaiting": [], "match": next_match.pk}
    record(match, frames.rematch(next_match.pk))
    match.save()
    return next_match.pk


def _next_match(match: Match, seats: list[Seat]) -> Match:
    """The same game, clock and rated flag; each person one seat on (two people swap colours)."""
    people = [seat.player for seat in seats[1:] + seats[:1]]
    clock = None
    if match.clock:
        clock = Clock(match.clock["initial_ms"] / 60_000, match.clock["increment_ms"] // 1000)
    human = SeatRequest("human")
    next_match = match_create(
        match.game, [human] * len(people), people[0], source=match.source, clock=clock, options=match.options
    )
    for person in people[1:]:
        match_join(next_match.pk, person)  # type: ignore[arg-type]  # people's seats: a player each
    Match.objects.filter(pk=next_match.pk).update(rated=match.rated)
    return next_match


def _people(match: Match) -> list[Seat]:
    """The seats of a finished match between people, in order; OfferNotAllowed otherwise."""
    if match.status != Match.Status.FINISHED:
        raise OfferNotAllowed("a rematch follows a finished match")
    seats = list(match.seats.select_related("player").order_by("index"))
    if any(seat.kind != Seat.Kind.HUMAN or seat.player is None for seat in seats):
        raise OfferNotAllowed("against bots, Rematch starts a new match at once")
    return seats


@transaction.atomic
def rematch_left(match_id: int, seat: int) -> bool:
    """`seat` left the finished match's room: a rematch still waiting is off, and both hear why.

    True when there was one to call off.
    """
    match = locked(match_id)
    offer = match.offer
    if offer is None or offer.get("kind") != KIND or "match" in offer:
        return False
    if seat != offer["seat"] and seat not in offer["awaiting"]:
        return False
    match.offer = None
    record(match, frames.rematch_answered(offer["seat"], seat, False, reason="left"))
    match.save()
    return True


def rematch_leaving(match_id: int, seat: int, now: datetime | None = None) -> None:
    """`seat`'s last socket here closed while a rematch was on offer: called off after the grace,
    unless the seat is back by then (a reload).  No database work: it runs on the event loop."""
    with _leaving_lock:
        _leaving[(match_id, seat)] = now or timezone.now()


def withdraw_left_rematches(now: datetime | None = None) -> int:
    """The watch's part: each seat noted leaving that has had no socket anywhere for
    `REMATCH_LEFT_GRACE_MS` calls its rematch off (`rematch_left`); a seat back online is
    forgotten.  Returns how many offers were called off."""
    now = now or timezone.now()
    since = now - timedelta(milliseconds=settings.REMATCH_LEFT_GRACE_MS)
    with _leaving_lock:
        due = [(key, at) for key, at in _leaving.items() if at <= since]
    withdrawn = 0
    for (match_id, seat), at in due:
        # `online`: a socket holds the seat in some process.  `last_seen_at`: when it last came
        # or went, so a seat that came back and left again waits out a grace of its own.
        seat_row = Seat.objects.filter(match_id=match_id, index=seat).values_list("online", "last_seen_at")
        online, last_seen = seat_row.first() or (True, None)
        if not online and last_seen is not None and last_seen > since:
            continue
        if not online and rematch_left(match_id, seat):
            withdrawn += 1
        with _leaving_lock:
            if _leaving.get((match_id, seat)) == at:  # not noted again meanwhile
                del _leaving[(match_id, seat)]
    return withdrawn


def pending_after(frame: dict[str, Any], pending: bool) -> bool:
    """Whether a rematch offer waits, once a socket has sent `frame` (it was `pending` before)."""
    kind = frame.get("type")
    if kind == "rematch_offer":
        return True
    if kind in ("rematch_answered", "rematch"):
        return False
    if kind == "state":
        offer = frame.get("match", {}).get("offer") or {}
        return offer.get("kind") == KIND and "match" not in offer
    return pending

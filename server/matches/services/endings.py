"""How a match ends: a result, a forfeit (a resignation: `resignations.match_resign`), an abort; and
the lobby's rules for matches nobody plays any more (abandoned, adjourned and resumed, expired; docs/lobby.md).

Every result is a `games.base.Outcome`, stored and sent as its `to_json()` through `_end`,
the one place a match stops.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.base import Outcome
from server.matches import frames
from server.matches.errors import GameOver, NotSeated
from server.matches.models import Match, Seat
from server.matches.selectors import result_json
from server.matches.services.events import announce_turn, lobby_after_commit, locked, record, record_state
from server.matches.signals import match_ending, match_finished

# --- results ------------------------------------------------------------------------


def forfeited(num_seats: int, seat: int, reason: str) -> Outcome:
    """`seat` loses (resigned, out of time, abandoned); the others share the win (zero-sum)."""
    returns = [1.0 / (num_seats - 1)] * num_seats
    returns[seat] = -1.0
    winner = 1 - seat if num_seats == 2 else None
    ranking = [i for i in range(num_seats) if i != seat] + [seat]
    return Outcome(tuple(returns), winner, reason, tuple(ranking))


def drawn(num_seats: int, reason: str) -> Outcome:
    return Outcome((0.0,) * num_seats, None, reason)


def called_off(reason: str) -> Outcome:
    """An aborted match has no result: nobody won, nobody lost."""
    return Outcome((), None, reason)


def _end(match: Match, status: Match.Status, outcome: Outcome, now: datetime) -> None:
    match.offer = None
    match.status = status
    match.finished_at, match.to_move = now, None
    match.result = outcome.to_json()
    record(match, frames.game_over(result_json(match.result) or {}, match.status))
    lobby_after_commit(match)


def finish(match: Match, outcome: Outcome) -> None:
    """The match is over with `outcome`: `match_ending` now (ratings), `match_finished` after commit."""
    _end(match, Match.Status.FINISHED, outcome, timezone.now())
    match_ending.send(sender=Match, match=match)
    _finished_after_commit(match.pk)


def _finished_after_commit(match_id: int) -> None:
    transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match_id))


def forfeit(match: Match, seat: int, reason: str) -> None:
    finish(match, forfeited(match.seats.count(), seat, reason))


def abort(match: Match, reason: str, now: datetime | None = None) -> None:
    """The match is called off, unrated and without a winner (nobody joined, everyone left...)."""
    _end(match, Match.Status.ABORTED, called_off(reason), now or timezone.now())
    _finished_after_commit(match.pk)


# --- asked for by a seat or an admin --------------------------------------------------


@transaction.atomic
def match_abort(match_id: int, reason: str) -> Match:
    match = locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    abort(match, reason)
    match.save()
    return match


# --- the lobby's rules: matches nobody plays any more -----------------------------------


def _gone_since(seat: Seat, match: Match) -> Any:
    """When this human seat was last known to have a socket (the match's start if never)."""
    start = match.started_at or match.created_at
    return max(seat.last_seen_at or start, start)


def abandon_gone_seats(now: datetime | None = None) -> int:
    """Matches between people where a seat's sockets are gone past the grace: that seat loses.

    When every person is gone the match is aborted instead.  Returns how many matches ended.
    Stale seats (a dead process) are taken offline first by `presence_expire_stale`.
    """
    now = now or timezone.now()
    ended = 0
    since = now - timedelta(milliseconds=settings.ABANDON_GRACE_MS)
    # Only matches with a seat gone past the grace (as `_gone_since` reads it), found by the
    # database: a pass every second must not load every match whose seat just went offline.
    gone_q = Q(seats__last_seen_at__isnull=True) | Q(seats__last_seen_at__lt=since)
    candidates = (
        Match.objects.filter(status=Match.Status.ACTIVE)
        .alias(start=Coalesce("started_at", "created_at"))
        .filter(start__lt=since)
        .filter(gone_q, seats__kind=Seat.Kind.HUMAN, seats__online=False)
        .distinct()
    )
    for match in candidates.prefetch_related("seats"):
        humans = [s for s in match.seats.all() if s.kind == Seat.Kind.HUMAN]
        if len(humans) < 2:
            continue  # one person against bots: adjourned, never lost (`adjourn_gone_matches`)
        if not any(not s.online and _gone_since(s, match) < since for s in humans):
            continue
        with transaction.atomic():
            match = locked(match.pk)  # type: ignore[assignment]  # the same row, locked (without the annotation)
            if match.status != Match.Status.ACTIVE:
                continue
            humans = [s for s in match.seats.all() if s.kind == Seat.Kind.HUMAN]
            gone = [s for s in humans if not s.online and _gone_since(s, match) < since]
            if not gone:
                continue
            if len(gone) == len(humans):
                abort(match, "abandoned", now)
            else:
                forfeit(match, gone[0].index, "abandoned")
            match.save()
            ended += 1
    return ended


def adjourn_gone_matches(now: datetime | None = None) -> int:
    """A match of one person against bots, whose person has had no socket and which has seen
    no move for `ADJOURN_AFTER_MS`, is adjourned: off the live list, kept, resumable.

    Only unclocked matches adjourn (in a clocked one the person's own clock decides: it runs
    out and they lose on time).  "No move for as long" means no bot search can still be running for it.
    Returns how many matches were adjourned.
    """
    now = now or timezone.now()
    since = now - timedelta(milliseconds=settings.ADJOURN_AFTER_MS)
    candidates = (
        Match.objects.filter(status=Match.Status.ACTIVE, clock__isnull=True, turn_started_at__lt=since)
        .filter(seats__kind=Seat.Kind.BOT)
        .filter(seats__kind=Seat.Kind.HUMAN, seats__online=False)
        .distinct()
    )
    adjourned = 0
    for match in candidates.prefetch_related("seats"):
        if not _person_gone(match, since):
            continue
        with transaction.atomic():
            match = locked(match.pk)
            if match.status != Match.Status.ACTIVE or not match.turn_started_at or match.turn_started_at >= since:
                continue
            if not _person_gone(match, since):
                continue
            match.status, match.adjourned_at = Match.Status.ADJOURNED, now
            record_state(match)
            match.save()
            lobby_after_commit(match)
            adjourned += 1
    return adjourned


def _person_gone(match: Match, since: Any) -> bool:
    humans = [s for s in match.seats.all() if s.kind == Seat.Kind.HUMAN]
    return len(humans) == 1 and not humans[0].online and _gone_since(humans[0], match) < since


@transaction.atomic
def match_resume(match_id: int, seat: int, now: datetime | None = None) -> Match:
    """`seat`'s person is back: their adjourned match is active again, where it stopped.

    The turn starts again now (so does a bot's budget, so its search is queued afresh
    through `turn_started`).  A match that is running or waiting is left as it is.
    """
    match = locked(match_id)
    if match.is_over:
        raise GameOver("the match is over: nothing to resume")
    if not any(s.index == seat and s.kind == Seat.Kind.HUMAN for s in match.seats.all()):
        raise NotSeated("you have no seat in this match: only its players resume it")
    if match.status != Match.Status.ADJOURNED:
        return match
    match.status, match.adjourned_at = Match.Status.ACTIVE, None
    match.turn_started_at = now or timezone.now()
    record_state(match)
    match.save()
    announce_turn(match)
    lobby_after_commit(match)
    return match


def expire_open_matches(now: datetime | None = None) -> int:
    """A waiting match whose seated people have had no socket for `OPEN_MATCH_EXPIRE_MS`
    is aborted ("nobody joined"): its creator is gone, nobody would play it.  Returns how many."""
    now = now or timezone.now()
    since = now - timedelta(milliseconds=settings.OPEN_MATCH_EXPIRE_MS)
    expired = 0
    for match in Match.objects.filter(status=Match.Status.WAITING, created_at__lt=since).prefetch_related("seats"):
        if not _everyone_gone(match, since):
            continue
        with transaction.atomic():
            match = locked(match.pk)
            if match.status != Match.Status.WAITING or not _everyone_gone(match, since):
                continue
            abort(match, "nobody joined", now)
            match.save()
            expired += 1
    return expired


def _everyone_gone(match: Match, since: Any) -> bool:
    seated = [s for s in match.seats.all() if s.kind == Seat.Kind.HUMAN and s.player_id is not None]
    return all(not s.online and (s.last_seen_at or match.created_at) < since for s in seated)

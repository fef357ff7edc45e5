"""Rating a match as it ends: Glicko-2, one rating period per match (docs/design.md §4).

`rate_match` runs inside the transaction that ends the match (the `match_ending` signal),
so the result and the ratings commit together or not at all.  It changes each person's
rating at most once per match: the match row is locked by the ending, a match ends once,
and `RatingChange` is unique per (match, player) besides.  The people's rating rows are
locked in player order, so two matches of the same people ending at once queue up
instead of losing an update or deadlocking.

Periods: each match is one rating period (as lichess rates), which widens the deviation by
Glickman's step 6 once.  Time without rated games widens it further before the match:
`RATING_PERIODS_PER_DAY` periods a day since the player's last rated match (lichess's
0.21436, about one period every 4.7 days), never past the starting deviation.  Nothing is
written for idle time: the stored deviation is the one after the last match.

Farming (docs/security.md, "Farming ratings"): rated matches are between accounts
(server/matches/services/lifecycle.py, server/pairing/services.py).  A match that ends before
its people made `RATING_MIN_PLIES` moves between them changes no rating (an instant
resignation, a flag or an abandonment at the first move says nothing about strength).  And
one pair of people moves each other's ratings in at most `RATING_PAIR_MATCHES_PER_DAY`
matches in any 24 hours: past that their results against each other are left out (the match
stays rated and is listed; it changes nothing, and a log line says so for an admin), so two
accounts trading wins cannot pump one of them.

Several seats: each person is rated against every other seat at once, the higher return
winning the pair (a draw when equal).  A bot seat counts as an opponent only where
`BOT_GAMES_RATED_FOR_HUMANS` allows rated bot games, and only once its rating is measured.

Bots are on the same scale (`server.bots.placement`): calibration places them, and here
their rated games against people move them as a person's move a person, so that a bot's
number and a person's mean the same.  A bot is rated against the people of the match only
(its games against bots are calibration's), one rating period per match, without the
idle widening (a bot's strength does not drift while it rests).  Adaptive bots are not
moved: they play each person at a strength of that person's own, so their results say
how well they adapt, not how strong they are.  Bot profiles are locked after the people's
rows, in id order, so two matches of one bot ending at once queue up as people's do.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from server.bots import placement
from server.bots.models import BotProfile
from server.matches.models import Match, Seat
from server.ratings import glicko2
from server.ratings.models import BotRatingChange, PlayerRating, RatingChange

SECONDS_PER_DAY = 86400.0
PAIR_WINDOW = timedelta(days=1)  # `RATING_PAIR_MATCHES_PER_DAY` counts in any window this long

log = logging.getLogger("plyground.ratings")


def rate_match(match: Match) -> list[RatingChange]:
    """Update the ratings of the people of a finished rated match; the changes made."""
    if not _ratable(match) or RatingChange.objects.filter(match=match).exists():
        return []
    seats = list(match.seats.all())
    at = match.finished_at
    assert at is not None and match.result is not None  # `_ratable`: it has finished
    rows = _locked_ratings(match.game, sorted({s.player_id for s in seats if s.player_id}))
    now = {pid: _current(row, at) for pid, row in rows.items()}
    bots = _locked_bots(seats)
    bots_now = {pid: _bot_rating(profile) for pid, profile in bots.items()}
    returns = match.result["returns"]
    spent = _spent_pairs(match, seats)
    changes = []
    for seat in seats:
        if seat.player_id is None:
            continue
        results = [
            glicko2.Result(opponent, _score(returns[seat.index], returns[other.index]))
            for other in seats
            if other.index != seat.index
            and frozenset((seat.player_id, other.player_id)) not in spent
            and (opponent := _opponent(other, now, bots_now)) is not None
        ]
        if results:
            changes.append(_apply(match, rows[seat.player_id], now[seat.player_id], results, at))
    for profile_id, profile in bots.items():
        results = [
            glicko2.Result(now[other.player_id], _score(returns[seat.index], returns[other.index]))
            for seat in seats
            if seat.bot_profile_id == profile_id
            for other in seats
            if other.player_id is not None
        ]
        if results and not profile.adaptive:
            _apply_to_bot(match, profile, bots_now[profile_id], results, at)
    return changes


def _ratable(match: Match) -> bool:
    result = match.result or {}
    if not (match.rated and match.status == Match.Status.FINISHED and result.get("returns")):
        return False
    # The people's own moves: chance (dice, seat -1) is no one's.
    return match.moves.filter(seat__gte=0).count() >= settings.RATING_MIN_PLIES


def _spent_pairs(match: Match, seats: list[Seat]) -> set[frozenset[int]]:
    """The pairs of this match's people who already moved each other's ratings in
    `RATING_PAIR_MATCHES_PER_DAY` matches in the 24 hours before it ended: not rated together again."""
    people = sorted({s.player_id for s in seats if s.player_id is not None})
    since = (match.finished_at or timezone.now()) - PAIR_WINDOW
    spent = set()
    for i, first in enumerate(people):
        for second in people[i + 1 :]:
            together = (
                RatingChange.objects.filter(player_id=first, game=match.game, at__gt=since)
                .filter(match__seats__player_id=second)
                .exclude(match=match)
                .count()
            )
            if together >= settings.RATING_PAIR_MATCHES_PER_DAY:
                spent.add(frozenset((first, second)))
                log.warning(
                    "rating: match %s left out between players %s and %s: %d rated matches together in 24 h",
                    match.pk,
                    first,
                    second,
                    together,
                )
    return spent


def _locked_ratings(game: str, player_ids: list[int]) -> dict[int, PlayerRating]:
    """Each person's rating row in `game`, created at the start if new, locked in id order."""
    rows = {}
    for player_id in player_ids:
        try:
            with transaction.atomic():
                rows[player_id], _ = PlayerRating.objects.select_for_update().get_or_create(
                    player_id=player_id, game=game
                )
        except IntegrityError:  # created meanwhile by another match ending: wait for its lock
            rows[player_id] = PlayerRating.objects.select_for_update().get(player_id=player_id, game=game)
    return rows


def _current(row: PlayerRating, at: datetime) -> glicko2.Rating:
    """The rating as it stands at `at`: its deviation widened for the time without games."""
    if row.updated_at is None or at is None:
        return row.as_glicko()
    days = max((at - row.updated_at).total_seconds(), 0.0) / SECONDS_PER_DAY
    return glicko2.idle(row.as_glicko(), days * settings.RATING_PERIODS_PER_DAY)


def _locked_bots(seats: list[Seat]) -> dict[int, BotProfile]:
    """The measured bot profiles seated, locked in id order, where rated bot games exist."""
    if not settings.BOT_GAMES_RATED_FOR_HUMANS:
        return {}
    ids = sorted({s.bot_profile_id for s in seats if s.kind == Seat.Kind.BOT and s.bot_profile_id is not None})
    profiles = BotProfile.objects.select_for_update().filter(pk__in=ids, rating__isnull=False).order_by("pk")
    return {profile.pk: profile for profile in profiles}


def _bot_rating(profile: BotProfile) -> glicko2.Rating:
    # A rating from before bots had a deviation is as sure as the measurement floor.
    return glicko2.Rating(
        profile.rating,  # type: ignore[arg-type]  # measured only (`_locked_bots`)
        profile.deviation or placement.MIN_DEVIATION,
        profile.volatility or placement.START_VOLATILITY,
    )


def _opponent(seat: Seat, people: dict[int, glicko2.Rating], bots: dict[int, glicko2.Rating]) -> glicko2.Rating | None:
    if seat.player_id is not None:
        return people[seat.player_id]
    if seat.kind == Seat.Kind.BOT and seat.bot_profile_id is not None:
        return bots.get(seat.bot_profile_id)
    return None


def _score(mine: float, theirs: float) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def _apply(
    match: Match, row: PlayerRating, before: glicko2.Rating, results: list[glicko2.Result], at: datetime
) -> RatingChange:
    after = glicko2.rate(before, results, tau=settings.RATING_TAU)
    change = RatingChange.objects.create(
        match=match,
        player_id=row.player_id,
        game=match.game,
        score=sum(r.score for r in results) / len(results),
        rating_before=before.rating,
        deviation_before=before.deviation,
        volatility_before=before.volatility,
        rating_after=after.rating,
        deviation_after=after.deviation,
        volatility_after=after.volatility,
        at=at,
    )
    row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
    row.games += 1
    row.updated_at = at
    row.save(update_fields=["rating", "deviation", "volatility", "games", "updated_at"])
    return change


def _apply_to_bot(
    match: Match, profile: BotProfile, before: glicko2.Rating, results: list[glicko2.Result], at: datetime
) -> BotRatingChange:
    after = glicko2.rate(before, results, tau=settings.RATING_TAU)
    change = BotRatingChange.objects.create(
        match=match,
        profile=profile,
        score=sum(r.score for r in results) / len(results),
        rating_before=before.rating,
        deviation_before=before.deviation,
        rating_after=after.rating,
        deviation_after=after.deviation,
        at=at,
    )
    profile.rating, profile.deviation, profile.volatility = after.rating, after.deviation, after.volatility
    # `update` rather than `save`: the rating moves, the settings it was measured with stay.
    BotProfile.objects.filter(pk=profile.pk).update(
        rating=after.rating, deviation=after.deviation, volatility=after.volatility
    )
    return change

"""Reads of people's ratings, for the profile page, the leaderboards and the API."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import registry
from server.matches.models import Match, Seat
from server.players.selectors import person_json
from server.ratings import glicko2
from server.ratings.models import PlayerRating, RatingChange


def ratings_for(player_id: int) -> list[dict[str, Any]]:
    """The player's rating in each game they have played rated, by game id."""
    rows = PlayerRating.objects.filter(player_id=player_id).order_by("game")
    return [
        {
            "game": row.game,
            "rating": row.rating,
            "deviation": row.deviation,
            "volatility": row.volatility,
            "provisional": row.provisional,
            "games": row.games,
        }
        for row in rows
    ]


def rating_history(player_id: int, game: str) -> list[dict[str, Any]]:
    """The rating after each of the player's rated matches in `game`, oldest first."""
    changes = RatingChange.objects.filter(player_id=player_id, game=game).order_by("at", "pk")
    return [{"at": c.at, "rating": c.rating_after, "deviation": c.deviation_after} for c in changes]


def leaderboard(game: str, now: datetime | None = None) -> list[dict[str, Any]]:
    """The best established ratings in `game` among people who played a rated match lately.

    Accounts only: a guest's rating (from before rated games needed accounts) was free to farm."""
    since = (now or timezone.now()) - timedelta(days=settings.LEADERBOARD_ACTIVE_DAYS)
    rows = (
        PlayerRating.objects.filter(
            game=game,
            deviation__lte=settings.RATING_PROVISIONAL_DEVIATION,
            updated_at__gte=since,
            player__is_guest=False,
        )
        .select_related("player")
        .order_by("-rating", "deviation", "player_id")[: settings.LEADERBOARD_SIZE]
    )
    return [
        {
            "rank": rank,
            "player": person_json(row.player_id, row.player.name, row.player.is_guest),
            "rating": row.rating,
            "deviation": row.deviation,
            "games": row.games,
            "last_played": row.updated_at,
        }
        for rank, row in enumerate(rows, start=1)
    ]


def leaderboards(now: datetime | None = None) -> list[dict[str, Any]]:
    """Every game's leaderboard, in the catalogue's order: {"game", "name", "leaders"}."""
    return [{"game": g.id, "name": g.name, "leaders": leaderboard(g.id, now)} for g in registry.all()]


def provisional_deviation() -> float:
    """Ratings whose deviation is above this are provisional, shown with "?"."""
    return settings.RATING_PROVISIONAL_DEVIATION


def match_ratings(match_id: int) -> dict[str, Any] | None:
    """The people of a match with their rating in its game, and each one's change once a rated
    match has ended (None: no such match).  Bots' ratings are their profiles' (docs/design.md §4)."""
    match = Match.objects.filter(pk=match_id).only("game", "rated").first()
    if match is None:
        return None
    seats = list(Seat.objects.filter(match_id=match_id, player__isnull=False).order_by("index"))
    people = [s.player_id for s in seats if s.player_id is not None]  # all of them (the query above)
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(game=match.game, player_id__in=people)}
    changes = {c.player_id: c for c in RatingChange.objects.filter(match_id=match_id)}
    return {
        "game": match.game,
        "rated": match.rated,
        "seats": [_seat_rating(s.index, ratings.get(s.player_id), changes.get(s.player_id)) for s in seats],  # type: ignore[arg-type]  # seats with a player only (the query above)
    }


def _seat_rating(index: int, now: PlayerRating | None, change: RatingChange | None) -> dict[str, Any]:
    # Before the first rated match a person has no row: the start of the scale, provisional.
    rating = now.rating if now else glicko2.BASE
    deviation = now.deviation if now else glicko2.START_DEVIATION
    limit = settings.RATING_PROVISIONAL_DEVIATION
    return {
        "seat": index,
        "rating": rating,
        "deviation": deviation,
        "provisional": deviation > limit,
        "change": None
        if change is None
        else {
            "before": change.rating_before,
            "after": change.rating_after,
            "provisional_before": change.deviation_before > limit,
            "provisional_after": change.deviation_after > limit,
        },
    }

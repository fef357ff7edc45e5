"""Reads of people's ratings, for the profile page, the leaderboards and the API."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import registry
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
    """The best established ratings in `game` among people who played a rated match lately."""
    since = (now or timezone.now()) - timedelta(days=settings.LEADERBOARD_ACTIVE_DAYS)
    rows = (
        PlayerRating.objects.filter(
            game=game, deviation__lte=settings.RATING_PROVISIONAL_DEVIATION, updated_at__gte=since
        )
        .select_related("player")
        .order_by("-rating", "deviation", "player_id")[: settings.LEADERBOARD_SIZE]
    )
    return [
        {
            "rank": rank,
            "player": {"id": row.player_id, "name": row.player.name},
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

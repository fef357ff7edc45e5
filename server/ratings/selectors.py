"""Reads of people's ratings, for the profile page, the leaderboards and the API."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import registry
from server.matches.models import Match, Seat
from server.players.selectors import player_json
from server.ratings import glicko2
from server.ratings.models import BotRatingChange, PlayerRating, RatingChange


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
    """The ratings in `game` of people who played a rated match lately: established ones best first,
    then the provisional ones (shown with "?", as lichess does), best first too.

    A provisional rating is listed rather than hidden, so a new site's board is not empty; it
    ranks below every established one, so a few lucky first games do not top it.  Accounts
    only: a guest's rating (from before rated games needed accounts) was free to farm."""
    since = (now or timezone.now()) - timedelta(days=settings.LEADERBOARD_ACTIVE_DAYS)
    limit = settings.RATING_PROVISIONAL_DEVIATION
    active = PlayerRating.objects.filter(game=game, updated_at__gte=since, player__is_guest=False).select_related(
        "player"
    )
    size = settings.LEADERBOARD_SIZE
    best_first = ("-rating", "deviation", "player_id")
    rows = list(active.filter(deviation__lte=limit).order_by(*best_first)[:size])
    if len(rows) < size:
        rows += active.filter(deviation__gt=limit).order_by(*best_first)[: size - len(rows)]
    return [
        {
            "rank": rank,
            "player": player_json(row.player),
            "rating": row.rating,
            "deviation": row.deviation,
            "provisional": row.deviation > limit,
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
    """The people and measured bots of a match with their rating in its game, on the one scale,
    and each one's change once a rated match has ended (None: no such match)."""
    match = Match.objects.filter(pk=match_id).only("game", "rated").first()
    if match is None:
        return None
    seats = list(Seat.objects.filter(match_id=match_id, player__isnull=False).order_by("index"))
    people = [s.player_id for s in seats if s.player_id is not None]  # all of them (the query above)
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(game=match.game, player_id__in=people)}
    changes = {c.player_id: c for c in RatingChange.objects.filter(match_id=match_id)}
    entries = [_seat_rating(s.index, ratings.get(s.player_id), changes.get(s.player_id)) for s in seats]  # type: ignore[arg-type]  # seats with a player only (the query above)
    entries += _bot_seat_ratings(match_id)
    return {"game": match.game, "rated": match.rated, "seats": sorted(entries, key=lambda e: e["seat"])}


def _bot_seat_ratings(match_id: int) -> list[dict[str, Any]]:
    """The bots' seats whose profile has a rating now: the profile's, as the lobby shows it."""
    seats = Seat.objects.filter(match_id=match_id, kind=Seat.Kind.BOT, bot_profile__rating__isnull=False)
    changes = {c.profile_id: c for c in BotRatingChange.objects.filter(match_id=match_id)}
    out = []
    for seat in seats.select_related("bot_profile"):
        profile = seat.bot_profile
        assert profile is not None  # bot seats with a measured profile only (the query above)
        out.append(
            {
                "seat": seat.index,
                "kind": "bot",
                "rating": profile.rating,
                "deviation": profile.deviation,
                "provisional": profile.provisional,
                "change": _change_json(changes.get(profile.pk)),
            }
        )
    return out


def _seat_rating(index: int, now: PlayerRating | None, change: RatingChange | None) -> dict[str, Any]:
    # Before the first rated match a person has no row: the start of the scale, provisional.
    rating = now.rating if now else glicko2.BASE
    deviation = now.deviation if now else glicko2.START_DEVIATION
    return {
        "seat": index,
        "kind": "human",
        "rating": rating,
        "deviation": deviation,
        "provisional": deviation > settings.RATING_PROVISIONAL_DEVIATION,
        "change": _change_json(change),
    }


def _change_json(change: RatingChange | BotRatingChange | None) -> dict[str, Any] | None:
    """A rated match's change of one seat's rating, as a person's or a bot's row records it."""
    if change is None:
        return None
    limit = settings.RATING_PROVISIONAL_DEVIATION
    return {
        "before": change.rating_before,
        "after": change.rating_after,
        "provisional_before": change.deviation_before > limit,
        "provisional_after": change.deviation_after > limit,
    }

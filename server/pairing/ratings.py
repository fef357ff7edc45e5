"""The rating a seek's range is measured from: the person's Glicko-2 rating in the game."""

from __future__ import annotations

from server.ratings.models import PlayerRating

DEFAULT_RATING = 1500  # Glicko-2's starting rating, for a person with no rated match in the game yet


def rating_of(player_id: int, game: str) -> int:
    """`player_id`'s rating in `game` (rounded); DEFAULT_RATING while they have none."""
    rating = PlayerRating.objects.filter(player_id=player_id, game=game).values_list("rating", flat=True).first()
    return DEFAULT_RATING if rating is None else round(rating)

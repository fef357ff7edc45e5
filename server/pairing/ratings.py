"""The rating a seek's range is measured from."""

from __future__ import annotations

DEFAULT_RATING = 1500


def rating_of(player_id: int, game: str) -> int:
    """`player_id`'s rating in `game`; DEFAULT_RATING while they have none."""
    # Ratings come from server/ratings/selectors.py (`ratings_for(player_id)`: per game, Glicko-2).
    return DEFAULT_RATING

"""Where a bot stands on the people's Glicko-2 scale: placed by its calibration games.

Calibration (`server.bots.rating`) measures the bots of a game against each other on an
Elo scale anchored at the random mover (0).  Glicko-2 expects the same logistic curve (400
points for odds of ten to one), so differences carry over as they are; only where the
scale starts has to be chosen.  `RANDOM_MOVER_RATING` puts the random mover at 600: chess,
the one game measured against an outside reference (Stockfish held to `UCI_Elo`,
`server/bots/stockfish_ratings.json`), sits between 560 and 670 points above its own
round-robin figures.  Every game starts from it until rated games against people move
each bot (`server.ratings.services`), which is what makes a bot's number mean what a
person's does.

The deviation (RD) is the calibration's standard error, half its 95% interval over
1.96, and never below `MIN_DEVIATION`: the anchor's own figure is exact only on the bots'
scale, never on the people's.
"""

from __future__ import annotations

from dataclasses import dataclass

RANDOM_MOVER_RATING = 600.0
Z95 = 1.959964
MIN_DEVIATION = 60.0
START_VOLATILITY = 0.06  # Glicko-2's, as for people (server/ratings/glicko2.py)


@dataclass(frozen=True)
class Placement:
    rating: float
    deviation: float
    low: float  # the calibration's 95% interval, on the people's scale
    high: float


def place(elo: float, low: float | None, high: float | None) -> Placement:
    """A calibration's Elo (random mover 0) and 95% interval as a rating on the people's scale."""
    rating = elo + RANDOM_MOVER_RATING
    if low is None or high is None:
        return Placement(rating, MIN_DEVIATION, rating, rating)
    deviation = max((high - low) / 2 / Z95, MIN_DEVIATION)
    return Placement(rating, deviation, low + RANDOM_MOVER_RATING, high + RANDOM_MOVER_RATING)


def calibration_elo(rating: float) -> float:
    """Back to the bots' own scale (random mover 0), as `seed_ratings.json` keeps it."""
    return rating - RANDOM_MOVER_RATING

"""What an export says of each seat beyond who sat there: its name in the game, its clock at each
move and the rating change a rated match made (docs/exports.md, "A line of games.jsonl").

Clocks are replayed from the moves' think times by the clock's own rule
(`server.matches.services.clocks`): the exported times are the think times the export already
carries, summed, so they join nothing the think times do not.  Ratings are coarsened
(`RATING_STEP`): the site shows each person's rating after every rated match, to the digit,
under their name, so an exact rating would be a key from a line to a name.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from django.conf import settings

from games import CHANCE, registry
from server.matches.services.clocks import charged

# Ratings are exported to the nearest 50 points: the deviation of a person who plays often
# settles at about 60 here (one rating period per match), so finer digits are mostly noise
# to a researcher, while a band of 50 holds many people, so no exported rating is a name.
RATING_STEP = 50


@cache
def seat_names(game: str) -> tuple[str, ...]:
    """The game's names of its seats ("white", "blue (dot)"), from its spec, by seat index."""
    return tuple(seat.name for seat in registry.get(game).spec.seats)


def seat_name(game: str, index: int) -> str:
    names = seat_names(game)
    return names[index] if index < len(names) else f"seat {index + 1}"


def clocks_after_moves(
    initial_ms: int | None, increment_ms: int | None, seats: int, moves: Iterable[tuple[int, int]]
) -> list[list[int] | None]:
    """Each seat's time left after each of `moves` ((seat, think_ms) in ply order); Nones when unclocked.

    As the match's clock counts: a seat's first move costs nothing and adds no increment; every
    later one costs its think time and gains the increment; chance costs nobody anything.
    """
    moves = list(moves)
    if initial_ms is None:
        return [None] * len(moves)
    left, moved, increment = [int(initial_ms)] * seats, set(), int(increment_ms or 0)
    after: list[list[int] | None] = []
    for seat, think_ms in moves:
        if seat in moved:
            left = charged(left, seat, think_ms, increment)  # a new list: those already listed stay as they were
        elif seat != CHANCE and 0 <= seat < seats:
            moved.add(seat)
        after.append(left)
    return after


def coarse_rating(rating: float) -> int:
    """A rating to the nearest `RATING_STEP` points."""
    return int(RATING_STEP * round(rating / RATING_STEP))


def rating_change(before: float, deviation_before: float, after: float, deviation_after: float) -> dict[str, Any]:
    """A seat's rating change as exported: coarse ratings, and whether each was provisional."""
    provisional = settings.RATING_PROVISIONAL_DEVIATION
    return {
        "before": coarse_rating(before),
        "after": coarse_rating(after),
        "provisional_before": deviation_before > provisional,
        "provisional_after": deviation_after > provisional,
    }

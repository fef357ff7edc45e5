"""Standings and the crosstable, computed from the pairings (docs/tournaments.md, "Standings").

Round robin and Swiss: points (a win 1, a draw ½, a bye 1), then Buchholz (the opponents'
points), then Sonneborn-Berger (the points of the opponents beaten, half of those drawn),
then the rating at entry.  Arena: points as lichess counts them (2 a win, 1 a draw, double
while on fire after two wins running, `pairing.arena_points`), then the rating at entry.

Everything is computed from the stored pairings each time: there is no running total to drift.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from server.tournaments.pairing import arena_points, buchholz, on_fire, sonneborn_berger

EntrantId = int


@dataclass(frozen=True)
class Played:
    """One finished pairing as the standings read it: scores in half points; `black` None for a bye."""

    white: EntrantId
    black: EntrantId | None
    white_score: int
    black_score: int


@dataclass
class Row:
    entrant: EntrantId
    rating: int
    points: int = 0  # half points (round robin, Swiss) or arena points
    buchholz: int = 0  # half points
    sonneborn_berger: int = 0  # quarter points (result in half points times score in half points)
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    on_fire: bool = False  # arena: the next win counts double
    results: list[int] = field(default_factory=list)  # half points, in the order played (byes too)


def standings(arena: bool, ratings: dict[EntrantId, int], played: Sequence[Played]) -> list[Row]:
    """Every entrant's row, best first.  `ratings` names every entrant; `played` in the order finished."""
    rows = {e: Row(e, rating) for e, rating in ratings.items()}
    met: dict[EntrantId, list[tuple[EntrantId, int]]] = defaultdict(list)
    for game in played:
        _count(rows[game.white], game.white_score, game.black is None)
        if game.black is not None:
            _count(rows[game.black], game.black_score, False)
            met[game.white].append((game.black, game.white_score))
            met[game.black].append((game.white, game.black_score))
    for row in rows.values():
        row.points = sum(arena_points(row.results)) if arena else sum(row.results)
        row.on_fire = arena and on_fire(row.results)
    if not arena:
        scores = {e: row.points for e, row in rows.items()}
        for e, row in rows.items():
            row.buchholz = buchholz([o for o, _ in met[e]], scores)
            row.sonneborn_berger = sonneborn_berger(met[e], scores)
    return sorted(rows.values(), key=lambda r: (-r.points, -r.buchholz, -r.sonneborn_berger, -r.rating, r.entrant))


def _count(row: Row, score: int, bye: bool) -> None:
    row.results.append(score)
    if bye:
        return
    row.games += 1
    if score == 2:
        row.wins += 1
    elif score == 1:
        row.draws += 1
    else:
        row.losses += 1

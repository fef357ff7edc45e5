"""Reads for research exports: the matches a filter selects, as privacy-safe records, in constant memory.

Matches are read in keyset order (``pk > last``), a chunk at a time; each chunk's seats
and moves come in one query each.  Nothing holds more than one chunk, whatever the
export's size, and no query stays open between chunks (so a slow reader holds no
database cursor).  The record layout is `SCHEMA_VERSION` of ``docs/exports.md``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.db.models import Case, Exists, IntegerField, Max, OuterRef, Q, QuerySet, Value, When

from games import CHANCE
from server.matches.models import Match, Move, Seat
from server.research.filters import ExportFilters
from server.research.notation import standard_notation
from server.research.pseudonyms import Pseudonyms

SCHEMA_VERSION = 1
MAX_SEATS = 8  # the most seats a game has (the match API allows 6)
CHUNK_MATCHES = 500  # matches per round trip: ~20,000 moves, a few MB at most

MATCH_FIELDS = ("id", "game", "source", "status", "created_at", "started_at", "finished_at", "result", "ply")
SEAT_FIELDS = ("match_id", "index", "kind", "player_id", "bot_snapshot")
MOVE_FIELDS = ("match_id", "ply", "seat", "move", "created_at", "think_ms", "stats")


def _seated(**lookups: Any) -> Exists:
    return Exists(Seat.objects.filter(match=OuterRef("pk"), **lookups))


def matches_query(filters: ExportFilters) -> QuerySet[Match]:
    """The matches `filters` select (unordered)."""
    qs = Match.objects.order_by()
    if filters.within is not None:
        qs = qs.filter(pk__in=filters.within.order_by().values("pk"))
    if filters.statuses:
        qs = qs.filter(status__in=filters.statuses)
    if filters.games:
        qs = qs.filter(game__in=filters.games)
    if filters.since:
        qs = qs.filter(created_at__gte=filters.since)
    if filters.until:
        qs = qs.filter(created_at__lt=filters.until)
    if filters.sources:
        qs = qs.filter(source__in=filters.sources)
    if filters.min_plies:
        qs = qs.filter(ply__gte=filters.min_plies)
    if filters.bots:
        qs = qs.filter(_seated(bot_profile__slug__in=filters.bots))
    if filters.pairings:
        bot, human = _seated(kind=Seat.Kind.BOT), _seated(kind=Seat.Kind.HUMAN)
        wanted = {"human-vs-bot": bot & human, "bot-vs-bot": bot & ~human, "human-vs-human": human & ~bot}
        qs = qs.filter(_any(wanted[p] for p in filters.pairings))
    if filters.results:
        # The winner's seat index, or NULL for a draw, an abort or an unfinished match.
        # (Compared key by key: casting the JSON value reads a JSON null as 0 on SQLite.)
        winner_seat = Case(
            *(When(result__winner=i, then=Value(i)) for i in range(MAX_SEATS)), output_field=IntegerField()
        )
        qs = qs.alias(winner_seat=winner_seat)
        winner_is = {
            kind: Exists(Seat.objects.filter(match=OuterRef("pk"), index=OuterRef("winner_seat"), kind=kind))
            for kind in Seat.Kind.values
        }
        wanted = {
            "win": Q(winner_seat__isnull=False),
            "draw": Q(status=Match.Status.FINISHED, winner_seat__isnull=True),
            "human-win": Q(winner_is[Seat.Kind.HUMAN]),
            "bot-win": Q(winner_is[Seat.Kind.BOT]),
        }
        qs = qs.filter(_any(wanted[r] for r in filters.results))
    return qs


def _any(conditions) -> Q:
    combined = Q()
    for condition in conditions:
        combined |= Q(condition)
    return combined


def export_count(filters: ExportFilters) -> int:
    """How many matches an export of `filters` holds (for progress bars)."""
    total = matches_query(filters).count()
    return total if filters.max is None else min(total, filters.max)


def match_records(filters: ExportFilters, chunk: int = CHUNK_MATCHES) -> Iterator[dict[str, Any]]:
    """One record per match, in id order; see docs/exports.md for the layout."""
    # Matches made while the export runs are not in it: the set is fixed when it starts.
    ceiling = Match.objects.aggregate(top=Max("pk"))["top"]
    if ceiling is None:
        return
    qs = matches_query(filters).filter(pk__lte=ceiling).order_by("pk").values_list(*MATCH_FIELDS)
    names = Pseudonyms()
    last, left = 0, filters.max
    while left is None or left > 0:
        rows = list(qs.filter(pk__gt=last)[: chunk if left is None else min(chunk, left)])
        if not rows:
            return
        ids = [row[0] for row in rows]
        seats, moves = _seats_by_match(ids), _moves_by_match(ids)
        for row in rows:
            yield _record(row, seats.get(row[0], ()), moves.get(row[0], ()), names)
        last = ids[-1]
        if left is not None:
            left -= len(rows)


def _seats_by_match(ids: list[int]) -> dict[int, list[tuple]]:
    found: dict[int, list[tuple]] = defaultdict(list)
    for row in Seat.objects.filter(match_id__in=ids).order_by("match_id", "index").values_list(*SEAT_FIELDS):
        found[row[0]].append(row)
    return found


def _moves_by_match(ids: list[int]) -> dict[int, list[tuple]]:
    found: dict[int, list[tuple]] = defaultdict(list)
    for row in Move.objects.filter(match_id__in=ids).order_by("match_id", "ply").values_list(*MOVE_FIELDS):
        found[row[0]].append(row)
    return found


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def pairing(kinds: list[str]) -> str:
    has_bot, has_human = Seat.Kind.BOT in kinds, Seat.Kind.HUMAN in kinds
    if has_bot and has_human:
        return "human-vs-bot"
    return "bot-vs-bot" if has_bot else "human-vs-human"


def _record(row: tuple, seats: list[tuple], moves: list[tuple], names: Pseudonyms) -> dict[str, Any]:
    match_id, game, source, status, created_at, started_at, finished_at, result, ply = row
    seat_list, kind_of = [], {}
    for _, index, kind, player_id, snapshot in seats:
        is_ai = kind == Seat.Kind.BOT
        kind_of[index] = kind
        seat_list.append(
            {
                "index": index,
                "kind": kind,
                "is_ai": is_ai,
                # Only a pseudonym: never the player's name, account, address or anything they typed.
                "player": names.player(player_id) if player_id is not None and not is_ai else None,
                "bot": snapshot if is_ai else None,
            }
        )
    move_list, played = [], []
    for _, move_ply, seat, move, at, think_ms, stats in moves:
        move_list.append(
            {
                "ply": move_ply,
                "seat": seat,
                "by": "chance" if seat == CHANCE else kind_of.get(seat, Seat.Kind.HUMAN),
                "move": move,
                "at": _iso(at),
                "think_ms": think_ms,
                "stats": stats,
            }
        )
        if seat != CHANCE:
            played.append(move)
    return {
        "schema_version": SCHEMA_VERSION,
        "match": names.match(match_id),
        "game": game,
        "variant": {},  # none of our games has options yet; a variant's settings go here
        "source": source,
        "status": status,
        "created_at": _iso(created_at),
        "started_at": _iso(started_at),
        "finished_at": _iso(finished_at),
        "result": result,
        "pairing": pairing(list(kind_of.values())),
        "plies": ply,
        "seats": seat_list,
        "moves": move_list,
        "notation": standard_notation(game, played),
    }

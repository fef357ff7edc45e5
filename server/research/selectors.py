"""Reads for research exports: the matches a filter selects, with their seats and moves, in constant memory.

Matches are read in keyset order (``pk > last``), a chunk at a time; each chunk's seats
and moves come in one query each.  Nothing holds more than one chunk, whatever the
export's size, and no query stays open between chunks (so a slow reader holds no
database cursor).  `server.research.formats` writes them out as ``docs/exports.md`` says.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    Case,
    CharField,
    Exists,
    Func,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    TextField,
    Value,
    When,
)
from django.db.models.functions import Cast

from server.matches.models import Match, Move, Seat
from server.research.filters import ExportFilters

SCHEMA_VERSION = 1
MAX_SEATS = 8  # the most seats a game has (the match API allows 6)
CHUNK_MATCHES = 500  # matches per round trip: ~20,000 moves, a few MB at most


class IsoTimestamp(Func):
    """A timestamp as ISO 8601 text in UTC (``2026-03-01T12:00:00.250000+00:00``), written by the database."""

    arity = 1
    output_field = CharField()
    template = "CAST(%(expressions)s AS CHAR(40))"  # other databases: their own text form

    def as_sqlite(self, compiler, connection, **extra):
        # Django keeps SQLite timestamps as "YYYY-MM-DD HH:MM:SS[.ffffff]" in UTC.
        return self.as_sql(compiler, connection, template="(REPLACE(%(expressions)s, ' ', 'T') || '+00:00')")

    def as_postgresql(self, compiler, connection, **extra):
        fmt = 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'
        return self.as_sql(compiler, connection, template=f"TO_CHAR(%(expressions)s AT TIME ZONE 'UTC', '{fmt}')")


def _json_text(name: str) -> Cast:
    return Cast(name, TextField())


# Columns read for an export: names (for the reader) to expressions (for the database).
MATCH_FIELDS: dict[str, Any] = {
    "id": "id",
    "game": "game",
    "source": "source",
    "status": "status",
    "created_at": IsoTimestamp("created_at"),
    "started_at": IsoTimestamp("started_at"),
    "finished_at": IsoTimestamp("finished_at"),
    "result": _json_text("result"),
    "ply": "ply",
}
SEAT_FIELDS: dict[str, Any] = {
    "match_id": "match_id",
    "index": "index",
    "kind": "kind",
    "player_id": "player_id",
    "bot_snapshot": _json_text("bot_snapshot"),
}
MOVE_FIELDS: dict[str, Any] = {
    "match_id": "match_id",
    "ply": "ply",
    "seat": "seat",
    "move": "move",
    "at": IsoTimestamp("created_at"),
    "think_ms": "think_ms",
    "stats": _json_text("stats"),
}


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


@dataclass(slots=True)
class MatchRows:
    """One match as read for an export: its row, its seats and its moves, as plain tuples.

    Timestamps are ISO 8601 text and JSON columns raw JSON text, both written by the
    database: an export then decodes and re-encodes nothing it does not have to.
    """

    match: tuple  # MATCH_FIELDS
    seats: list[tuple]  # SEAT_FIELDS
    moves: list[tuple]  # MOVE_FIELDS


def match_rows(filters: ExportFilters, chunk: int = CHUNK_MATCHES) -> Iterator[MatchRows]:
    """The matches `filters` select, in id order, a chunk of matches (and their seats and moves) at a time."""
    # Matches made while the export runs are not in it: the set is fixed when it starts.
    ceiling = Match.objects.aggregate(top=Max("pk"))["top"]
    if ceiling is None:
        return
    qs = matches_query(filters).filter(pk__lte=ceiling).order_by("pk").values_list(*MATCH_FIELDS.values())
    last, left = 0, filters.max
    while left is None or left > 0:
        rows = list(qs.filter(pk__gt=last)[: chunk if left is None else min(chunk, left)])
        if not rows:
            return
        ids = [row[0] for row in rows]
        seats, moves = _by_match(Seat, SEAT_FIELDS, ids, "index"), _by_match(Move, MOVE_FIELDS, ids, "ply")
        for row in rows:
            yield MatchRows(row, seats.get(row[0], []), moves.get(row[0], []))
        last = ids[-1]
        if left is not None:
            left -= len(rows)


def _by_match(model, fields: dict[str, Any], ids: list[int], order: str) -> dict[int, list[tuple]]:
    found: dict[int, list[tuple]] = defaultdict(list)
    rows = model.objects.filter(match_id__in=ids).order_by("match_id", order).values_list(*fields.values())
    for row in rows:
        found[row[0]].append(row)
    return found


def pairing(kinds: Iterable[str]) -> str:
    kinds = set(kinds)
    if Seat.Kind.BOT in kinds and Seat.Kind.HUMAN in kinds:
        return "human-vs-bot"
    return "bot-vs-bot" if Seat.Kind.BOT in kinds else "human-vs-human"

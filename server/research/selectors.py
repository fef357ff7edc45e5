"""Reads for research exports: the matches a filter selects, with their seats and moves, in constant memory.

Matches are read in keyset order (``pk > last``), a chunk at a time; each chunk's seats
and moves come in one query each.  Nothing holds more than one chunk, whatever the
export's size, and no query stays open between chunks (so a slow reader holds no
database cursor).  `server.research.formats` writes them out as ``docs/exports.md`` says.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import (
    BigIntegerField,
    Case,
    CharField,
    Exists,
    F,
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
from server.players.consent import Purpose, consent_field
from server.ratings.models import RatingChange
from server.research.filters import ExportFilters
from server.research.pseudonyms import Pseudonyms

SCHEMA_VERSION = 2  # 2: no absolute times, no search seeds (docs/exports.md, "Privacy")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_SEATS = 8  # the most seats a game has (the match API allows 6)
CHUNK_MATCHES = 500  # matches per round trip: ~20,000 moves, a few MB at most


class EpochMs(Func):
    """A timestamp as whole milliseconds since 1970 (UTC), computed by the database.

    Exports never write it: they write the differences between a match's timestamps
    (`docs/exports.md`, "Privacy"), which the database's integers make exact and cheap.
    """

    arity = 1
    output_field = BigIntegerField()
    template = "CAST(EXTRACT(EPOCH FROM %(expressions)s) * 1000 AS BIGINT)"

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        # julianday() is SQLite's own millisecond count over 86,400,000: back to an exact integer.
        template = "CAST(ROUND((julianday(%(expressions)s) - 2440587.5) * 86400000.0) AS INTEGER)"
        return self.as_sql(compiler, connection, template=template)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        return self.as_sql(compiler, connection, template="ROUND(EXTRACT(EPOCH FROM %(expressions)s) * 1000)::bigint")


class IsoDay(Func):
    """A timestamp's day in UTC, as ISO 8601 text (``2026-03-01``), written by the database."""

    arity = 1
    output_field = CharField()
    template = "CAST(CAST(%(expressions)s AS DATE) AS CHAR(10))"

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        return self.as_sql(compiler, connection, template="date(%(expressions)s)")  # stored in UTC

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        return self.as_sql(compiler, connection, template="to_char(%(expressions)s AT TIME ZONE 'UTC', 'YYYY-MM-DD')")


def _json_text(name: str) -> Cast:
    return Cast(name, TextField())


class JsonValue(Func):
    """One key of a JSON column, read by the database: a scalar as an SQL value, a list or object as JSON text."""

    output_field = TextField()

    def __init__(self, column: str, key: str) -> None:
        if not _KEY.fullmatch(key):
            raise ValueError(f"not a plain JSON key: {key!r}")
        super().__init__(F(column))
        self.key = key

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        return self.as_sql(compiler, connection, template=f"JSON_EXTRACT(%(expressions)s, '$.{self.key}')")

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        return self.as_sql(compiler, connection, template=f"(%(expressions)s ->> '{self.key}')")


class JsonWithout(Func):
    """A JSON object column without some keys, as JSON text (``{}`` when nothing is left; NULL stays NULL)."""

    output_field = TextField()

    def __init__(self, column: str, keys: Iterable[str]) -> None:
        self.keys = sorted(keys)
        if not all(_KEY.fullmatch(k) for k in self.keys):
            raise ValueError(f"not plain JSON keys: {self.keys!r}")
        super().__init__(F(column))

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        paths = ", ".join(f"'$.{k}'" for k in self.keys)
        return self.as_sql(compiler, connection, template=f"JSON_REMOVE(%(expressions)s, {paths})")

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        keys = ", ".join(f"'{k}'" for k in self.keys)
        return self.as_sql(compiler, connection, template=f"((%(expressions)s - ARRAY[{keys}]::text[])::text)")


@dataclass(frozen=True)
class Columns:
    """What an export reads of a match, its seats and its moves: names (for the reader) to expressions."""

    match: dict[str, Any]
    seat: dict[str, Any]
    move: dict[str, Any]


# What both formats read of every move.  `at` is never written as it is: the formats write
# `at_ms`, its distance from the match's creation (`created_ms` of the match's columns).
MOVE_BASICS = {
    "match_id": "match_id",
    "ply": "ply",
    "seat": "seat",
    "move": "move",
    "at": EpochMs("created_at"),
    "think_ms": "think_ms",
}
# What both formats read of every match's time: its day, and the origin of its other times.
MATCH_TIMES = {"created_on": IsoDay("created_at"), "created_ms": EpochMs("created_at")}

# Search figures an export leaves out.  The seed is computed from the match's public id and the
# ply (`server.bots.services.turn_seed`): exported, it would give the match away, and with it
# its players' names on the match page.
HIDDEN_STATS = frozenset({"seed"})

# games.jsonl: the whole match; JSON columns as text, spliced into the line as they are
# (the search figures without HIDDEN_STATS).
GAME_COLUMNS = Columns(
    match={
        "id": "id",
        "game": "game",
        "source": "source",
        "status": "status",
        **MATCH_TIMES,
        "started_ms": EpochMs("started_at"),
        "finished_ms": EpochMs("finished_at"),
        "result": _json_text("result"),
        "ply": "ply",
        "rated": "rated",
        "clock": _json_text("clock"),
        "options": _json_text("options"),
        "opening_plies": "opening_plies",  # an opening's moves start no clock (remaining_ms)
    },
    seat={
        "match_id": "match_id",
        "index": "index",
        "kind": "kind",
        "player_id": "player_id",
        "bot_snapshot": _json_text("bot_snapshot"),
    },
    move={
        **MOVE_BASICS,
        "stats": JsonWithout("stats", HIDDEN_STATS),
        "fallback": "fallback",
        "queue_wait_ms": "queue_wait_ms",
        "notation": "notation",  # blank where it is the move itself
    },
)

# moves.csv: a move a row; the database picks the search figures out of the stored JSON.
STAT_COLUMNS = (
    "algorithm",
    "value",
    "depth",
    "nodes",
    "nps",
    "elapsed_ms",
    "budget_ms",
    "queued_ms",
    "deadline_slack_ms",
    "search_version",
)
# Figures with a column of their own ("move" is the move column); any others go to `other_stats`.
# ("fallback" and "reason": how moves stored before the `fallback` field said it.)
# (HIDDEN_STATS are in neither: they are never exported.)
COLUMN_STATS = frozenset({*STAT_COLUMNS, *HIDDEN_STATS, "move", "fallback", "reason", "pv", "visits"})
MOVE_ROW_COLUMNS = Columns(
    match={
        "id": "id",
        "game": "game",
        "source": "source",
        "winner": JsonValue("result", "winner"),
        **MATCH_TIMES,
        "rated": "rated",
        "clock_initial_ms": JsonValue("clock", "initial_ms"),
        "clock_increment_ms": JsonValue("clock", "increment_ms"),
        "opening_plies": "opening_plies",
    },
    seat={
        "match_id": "match_id",
        "index": "index",
        "kind": "kind",
        "player_id": "player_id",
        "bot_profile": JsonValue("bot_snapshot", "slug"),
        "bot_level": JsonValue("bot_snapshot", "level"),
        "snapshot_kind": JsonValue("bot_snapshot", "kind"),  # "agent" for a bot account's seat
    },
    move={
        **MOVE_BASICS,
        **{name: JsonValue("stats", name) for name in STAT_COLUMNS},
        "fallback": "fallback",  # the move's own field: why no search chose it, blank if one did
        "pv": JsonValue("stats", "pv"),
        "visits": JsonValue("stats", "visits"),
        "other_stats": JsonWithout("stats", COLUMN_STATS),
        "queue_wait_ms": "queue_wait_ms",
        "notation": "notation",
    },
)


# A bot account holds a person's kind of seat; for pairings and results it is a bot (`pairing`).
BOT_SEAT = Q(kind=Seat.Kind.BOT) | Q(kind=Seat.Kind.HUMAN, player__bot_owner__isnull=False)
PERSON_SEAT = Q(kind=Seat.Kind.HUMAN, player__bot_owner__isnull=True)


def _seated(*conditions: Q, **lookups: Any) -> Exists:
    return Exists(Seat.objects.filter(*conditions, match=OuterRef("pk"), **lookups))


def refusing_seat(purpose: Purpose) -> Exists:
    """Whether a person seated in the match has not agreed to `purpose` (docs/exports.md, "Consent").

    The whole match is left out, not that person's moves: a game is made by all its players
    (each move answers the others', and each position holds them all), so no part of it is one
    person's alone.  Bots need nobody's consent; an open seat has nobody to ask.
    """
    return _seated(player__isnull=False, **{f"player__{consent_field(purpose)}": False})


def matches_query(filters: ExportFilters) -> QuerySet[Match]:
    """The matches `filters` select (unordered), of people who all agreed to the export's purpose."""
    qs = Match.objects.order_by().exclude(refusing_seat(filters.purpose))
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
        bot, human = _seated(BOT_SEAT), _seated(PERSON_SEAT)
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
            kind: Exists(Seat.objects.filter(seat, match=OuterRef("pk"), index=OuterRef("winner_seat")))
            for kind, seat in ((Seat.Kind.HUMAN, PERSON_SEAT), (Seat.Kind.BOT, BOT_SEAT))
        }
        wanted = {
            "win": Q(winner_seat__isnull=False),
            "draw": Q(status=Match.Status.FINISHED, winner_seat__isnull=True),
            "human-win": Q(winner_is[Seat.Kind.HUMAN]),
            "bot-win": Q(winner_is[Seat.Kind.BOT]),
        }
        qs = qs.filter(_any(wanted[r] for r in filters.results))
    return qs


def _any(conditions: Iterable[Q]) -> Q:
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

    match: tuple[Any, ...]  # Columns.match
    seats: list[tuple[Any, ...]]  # Columns.seat
    moves: list[tuple[Any, ...]]  # Columns.move
    # A rated match's changes by player id: (rating, deviation) before, then after.
    ratings: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)


# SQLite has no autovacuum and Django never runs ANALYZE.  Without statistics every chunk
# query walks the status index and sorts the rest of the table, so an export's cost grows
# with the square of its size; from this many stored moves it pays to analyse once.
ANALYZE_FROM_MOVES = 100_000


def ensure_planner_statistics() -> None:
    """Analyse the export's tables on SQLite once they are big and have never been analysed."""
    if connection.vendor != "sqlite":
        return  # PostgreSQL's autovacuum keeps its statistics
    moves = Move._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT max(id) FROM {moves}")  # noqa: S608 - a table name from the model
        if (cursor.fetchone()[0] or 0) < ANALYZE_FROM_MOVES:
            return
        cursor.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'")
        if cursor.fetchone()[0]:
            cursor.execute("SELECT count(*) FROM sqlite_stat1 WHERE tbl = %s", [moves])
            if cursor.fetchone()[0]:
                return
        for model in (Match, Seat, Move):
            cursor.execute(f"ANALYZE {model._meta.db_table}")


def match_rows(
    filters: ExportFilters,
    columns: Columns | None = None,
    chunk: int = CHUNK_MATCHES,
    order: Callable[[int], Any] | None = None,
) -> Iterator[MatchRows]:
    """The matches `filters` select, a chunk of matches (and their seats and moves) at a time.

    Chunks are read in id order, but each chunk's matches come out sorted by `order` of their
    id: by default their pseudonym (a keyed hash), so a line's place in an export says
    nothing of its match's id (or time) beyond its chunk.  Public ids grow with time, and an
    export in id order could be laid beside the public match list, line for line.
    """
    ensure_planner_statistics()
    if order is None:
        order = Pseudonyms().match
    # Matches made while the export runs are not in it: the set is fixed when it starts.
    ceiling = Match.objects.aggregate(top=Max("pk"))["top"]
    if ceiling is None:
        return
    columns = columns or GAME_COLUMNS
    qs = matches_query(filters).filter(pk__lte=ceiling).order_by("pk").values_list(*columns.match.values())
    last, left = 0, filters.max
    while left is None or left > 0:
        rows = list(qs.filter(pk__gt=last)[: chunk if left is None else min(chunk, left)])
        if not rows:
            return
        ids = [row[0] for row in rows]
        seats, moves = _by_match(Seat, columns.seat, ids, "index"), _by_match(Move, columns.move, ids, "ply")
        ratings = _rating_changes(ids)
        for row in sorted(rows, key=lambda row: order(row[0])):
            yield MatchRows(row, seats.get(row[0], []), moves.get(row[0], []), ratings.get(row[0], {}))
        last = ids[-1]
        if left is not None:
            left -= len(rows)


def _by_match(
    model: type[Seat] | type[Move], fields: dict[str, Any], ids: list[int], order: str
) -> dict[int, list[tuple[Any, ...]]]:
    found: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    # The range tells the planner what the IN list does not: the rows sit in one stretch
    # of the match_id index.  Without it PostgreSQL, short of statistics, guesses 500 ids
    # at over a million moves and JIT-compiles the query (for every chunk) or scans the table.
    chunk = model.objects.filter(match_id__gte=ids[0], match_id__lte=ids[-1], match_id__in=ids)
    rows = chunk.order_by("match_id", order).values_list(*fields.values())
    for row in rows:
        found[row[0]].append(row)
    return found


def _rating_changes(ids: list[int]) -> dict[int, dict[int, tuple[float, float, float, float]]]:
    """The rating changes of the matches `ids`, by match and player: one query a chunk."""
    found: dict[int, dict[int, tuple[float, float, float, float]]] = defaultdict(dict)
    changes = RatingChange.objects.filter(match_id__gte=ids[0], match_id__lte=ids[-1], match_id__in=ids).order_by()
    fields = ("match_id", "player_id", "rating_before", "deviation_before", "rating_after", "deviation_after")
    for match_id, player_id, *figures in changes.values_list(*fields):
        found[match_id][player_id] = tuple(figures)
    return found


def pairing(kinds: Iterable[str]) -> str:
    """Who played whom; a bot account ("agent") is a bot here, as everywhere a pairing is named."""
    kinds = {Seat.Kind.BOT if kind == "agent" else kind for kind in kinds}
    if Seat.Kind.BOT in kinds and Seat.Kind.HUMAN in kinds:
        return "human-vs-bot"
    return "bot-vs-bot" if Seat.Kind.BOT in kinds else "human-vs-human"

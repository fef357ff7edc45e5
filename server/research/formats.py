"""The export files: JSON Lines (a match a line) and CSV (a move a row), written in chunks of bytes.

Both are written from the same rows (`selectors.match_rows`), so they always agree.
The CSV columns are `CSV_COLUMNS`, documented in ``docs/exports.md`` and listed in
``docs/exports.schema.json`` under ``x-csv-columns``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from games import CHANCE
from server.matches.models import Seat
from server.research.filters import ExportFilters
from server.research.notation import standard_notation
from server.research.pseudonyms import Pseudonyms
from server.research.selectors import SCHEMA_VERSION, MatchRows, match_rows, pairing

LINES_PER_CHUNK = 100  # matches per chunk of bytes handed to the server
CHANCE_SEAT = ("chance", None, None, None)

CSV_COLUMNS = (
    "schema_version",
    "match",
    "game",
    "source",
    "pairing",
    "winner",
    "ply",
    "seat",
    "by",
    "player",
    "bot_profile",
    "bot_level",
    "move",
    "at",
    "think_ms",
    "algorithm",
    "value",
    "depth",
    "nodes",
    "nps",
    "elapsed_ms",
    "budget_ms",
    "queued_ms",
    "deadline_slack_ms",
    "seed",
    "engine",
    "fallback",
    "pv",
    "visits",
    "other_stats",
)
# Search figures that get a column of their own.
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
    "seed",
    "engine",
)
# Figures with a column of their own ("move" is the move column); any others go to `other_stats`.
COLUMN_STATS = frozenset({*STAT_COLUMNS, "move", "fallback", "pv", "visits"})
NO_STATS = [None] * (len(STAT_COLUMNS) + 4)  # the search columns of a person's move or a chance event


_text = json.encoder.encode_basestring  # a JSON string literal, non-ASCII kept (C-accelerated)


def _opt_text(value: str | None) -> str:
    return "null" if value is None else _text(value)


def game_line(rows: MatchRows, names: Pseudonyms) -> str:
    """A match as one line of ``games.jsonl`` (without the newline).

    Written by hand for speed, splicing in the JSON the database holds (results, bot
    snapshots, search figures) as it is; ``docs/exports.schema.json`` checks the result.
    """
    match_id, game, source, status, created_at, started_at, finished_at, result, plies = rows.match
    kinds: dict[int, str] = {}
    seats = []
    for _, index, kind, player_id, snapshot in rows.seats:
        kinds[index] = kind
        if kind == Seat.Kind.BOT:
            seats.append(f'{{"index":{index},"kind":"bot","is_ai":true,"player":null,"bot":{snapshot or "null"}}}')
        else:
            # Only a pseudonym: never the player's name, account, address or anything they typed.
            player = "null" if player_id is None else f'"{names.player(player_id)}"'
            seats.append(f'{{"index":{index},"kind":"human","is_ai":false,"player":{player},"bot":null}}')
    moves, played = [], []
    for _, ply, seat, move, at, think_ms, stats in rows.moves:
        by = "chance" if seat == CHANCE else kinds.get(seat, Seat.Kind.HUMAN)
        moves.append(
            f'{{"ply":{ply},"seat":{seat},"by":"{by}","move":{_text(move)},"at":"{at}",'
            f'"think_ms":{think_ms},"stats":{stats or "null"}}}'
        )
        if seat != CHANCE:
            played.append(move)
    notation = standard_notation(game, played)
    return (
        f'{{"schema_version":{SCHEMA_VERSION},"match":"{names.match(match_id)}","game":{_text(game)},'
        f'"variant":{{}},"source":{_text(source)},"status":{_text(status)},"created_at":{_opt_text(created_at)},'
        f'"started_at":{_opt_text(started_at)},"finished_at":{_opt_text(finished_at)},"result":{result or "null"},'
        f'"pairing":"{pairing(kinds.values())}","plies":{plies},"seats":[{",".join(seats)}],'
        f'"moves":[{",".join(moves)}],"notation":{_compact(notation)}}}'
    )


def game_records(filters: ExportFilters) -> Iterator[dict[str, Any]]:
    """The export's matches as Python dicts, for code that reads them in-process (tests, notebooks)."""
    names = Pseudonyms()
    for rows in match_rows(filters):
        yield json.loads(game_line(rows, names))


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def jsonl_chunks(matches: Iterable[MatchRows]) -> Iterator[bytes]:
    names = Pseudonyms()
    lines: list[str] = []
    for rows in matches:
        lines.append(game_line(rows, names))
        if len(lines) >= LINES_PER_CHUNK:
            yield ("\n".join(lines) + "\n").encode()
            lines = []
    if lines:
        yield ("\n".join(lines) + "\n").encode()


def move_rows(rows: MatchRows, names: Pseudonyms) -> Iterator[list[Any]]:
    """The CSV rows of one match, in `CSV_COLUMNS` order (the csv module writes None as an empty cell)."""
    match_id, game, source, _, _, _, _, result, _ = rows.match
    seats: dict[int, tuple[str, str | None, Any, Any]] = {}  # index -> (by, player, bot slug, bot level)
    for _, index, kind, player_id, snapshot in rows.seats:
        if kind == Seat.Kind.BOT:
            bot = json.loads(snapshot) if snapshot else {}
            seats[index] = ("bot", None, bot.get("slug"), bot.get("level"))
        else:
            seats[index] = ("human", names.player(player_id) if player_id is not None else None, None, None)
    winner = json.loads(result).get("winner") if result else None
    head = [SCHEMA_VERSION, names.match(match_id), game, source, pairing(s[0] for s in seats.values()), winner]
    for _, ply, seat, move, at, think_ms, stats_text in rows.moves:
        by, player, slug, level = CHANCE_SEAT if seat == CHANCE else seats[seat]
        row = [*head, ply, seat, by, player, slug, level, move, at, think_ms]
        if stats_text:
            stats = json.loads(stats_text)
            row += [stats.get(name) for name in STAT_COLUMNS]
            pv, visits = stats.get("pv"), stats.get("visits")
            other = None if stats.keys() <= COLUMN_STATS else {k: v for k, v in stats.items() if k not in COLUMN_STATS}
            row += [
                "true" if stats.get("fallback") else "false",
                " ".join(pv) if isinstance(pv, list) else pv,
                None if visits is None else _compact(visits),
                _compact(other) if other else None,
            ]
        else:
            row += NO_STATS
        yield row


def csv_chunks(matches: Iterable[MatchRows]) -> Iterator[bytes]:
    names = Pseudonyms()
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for count, rows in enumerate(matches, 1):
        writer.writerows(move_rows(rows, names))
        if count % LINES_PER_CHUNK == 0:
            yield buffer.getvalue().encode()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode()


FORMATS = {
    "jsonl": (jsonl_chunks, "application/x-ndjson; charset=utf-8"),
    "csv": (csv_chunks, "text/csv; charset=utf-8"),
}

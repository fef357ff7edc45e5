"""The export files: JSON Lines (a match a line) and CSV (a move a row), written in chunks of bytes.

Both are produced from the records of `selectors.match_records`, so they always agree.
The CSV columns are `CSV_COLUMNS`, documented in ``docs/exports.md`` and listed in
``docs/exports.schema.json`` under ``x-csv-columns``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from server.research.selectors import SCHEMA_VERSION

LINES_PER_CHUNK = 100  # matches per chunk of bytes handed to the server

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
    "stats",
)
# Search figures that get a column of their own; all of them stay in the `stats` column too.
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


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def jsonl_chunks(records: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    lines: list[str] = []
    for record in records:
        lines.append(_compact(record))
        if len(lines) >= LINES_PER_CHUNK:
            yield ("\n".join(lines) + "\n").encode()
            lines = []
    if lines:
        yield ("\n".join(lines) + "\n").encode()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return _compact(value)
    return value


def move_rows(record: dict[str, Any]) -> Iterator[list[Any]]:
    """The CSV rows of one match record, in `CSV_COLUMNS` order."""
    seats = {seat["index"]: seat for seat in record["seats"]}
    winner = (record["result"] or {}).get("winner")
    head = [SCHEMA_VERSION, record["match"], record["game"], record["source"], record["pairing"], _cell(winner)]
    for move in record["moves"]:
        seat = seats.get(move["seat"]) or {}
        bot = seat.get("bot") or {}
        stats = move["stats"] or {}
        pv = stats.get("pv")
        yield [
            *head,
            move["ply"],
            move["seat"],
            move["by"],
            _cell(seat.get("player")),
            _cell(bot.get("slug")),
            _cell(bot.get("level")),
            move["move"],
            _cell(move["at"]),
            move["think_ms"],
            *(_cell(stats.get(name)) for name in STAT_COLUMNS),
            _cell(stats.get("fallback", False) if stats else None),
            " ".join(pv) if isinstance(pv, list) else _cell(pv),
            _cell(stats.get("visits")),
            _cell(move["stats"]),
        ]


def csv_chunks(records: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for count, record in enumerate(records, 1):
        writer.writerows(move_rows(record))
        if count % LINES_PER_CHUNK == 0:
            yield buffer.getvalue().encode()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode()


FORMATS = {
    "jsonl": (jsonl_chunks, "application/x-ndjson; charset=utf-8"),
    "csv": (csv_chunks, "text/csv; charset=utf-8"),
}

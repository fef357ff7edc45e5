"""A measurement's games for its bot's owner: every move, the agent's and the house bots' stats.

In the research exports' file formats (docs/exports.md): ``games.jsonl`` (one game a line),
``moves.csv`` (one move a row, the stats as a JSON cell) and, for chess, ``games.pgn``
(each game's PGN with its moves in SAN).  Unlike the research exports these are the owner's
own games, named by their match ids, not pseudonyms: no other person sits in them (the other
seats are house bots).  The moves of a game's opening say so (`"opening": true`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from server.agents.models import Measurement, MeasurementGame
from server.matches import records
from server.matches.models import Seat

FORMATS = ("jsonl", "csv", "pgn")
MEDIA_TYPES = {
    "jsonl": "application/x-ndjson; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "pgn": "application/x-chess-pgn; charset=utf-8",
}
CSV_COLUMNS = (
    "match", "game", "step", "agent_seat", "opening", "ply", "seat", "by", "move", "notation",
    "in_opening", "think_ms", "stats",
)  # fmt: skip


def _games(measurement: Measurement) -> list[MeasurementGame]:
    return list(measurement.games.select_related("match").prefetch_related("match__seats", "match__moves"))


def _by(seats: dict[int, Seat], seat: int) -> str:
    if seat < 0:
        return "chance"
    return "bot" if seats[seat].kind == Seat.Kind.BOT else "agent"


def game_record(game: MeasurementGame, openings: str) -> dict[str, Any]:
    """One game as a line of ``games.jsonl``."""
    match = game.match
    seats = {s.index: s for s in match.seats.all()}
    return {
        "match": match.pk,
        "game": match.game,
        "step": game.step,
        "agent_seat": game.agent_seat,
        "opening": None if game.opening is None else {"set": openings, "index": game.opening},
        "status": match.status,
        "result": match.result,
        "clock": match.clock,
        "created_at": match.created_at.isoformat(),
        "moves": [
            {
                "ply": m.ply,
                "seat": m.seat,
                "by": _by(seats, m.seat),
                "move": m.move,
                "notation": m.notation or m.move,
                "opening": m.ply < match.opening_plies,
                "think_ms": m.think_ms,
                "stats": m.stats,
            }
            for m in match.moves.all()
        ],
    }


def jsonl(measurement: Measurement) -> Iterator[str]:
    for game in _games(measurement):
        yield json.dumps(game_record(game, measurement.openings), ensure_ascii=False, separators=(",", ":")) + "\n"


def csv_rows(measurement: Measurement) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in _games(measurement):
        record = game_record(game, measurement.openings)
        for move in record["moves"]:
            stats = None if move["stats"] is None else json.dumps(move["stats"], separators=(",", ":"))
            writer.writerow([
                record["match"], record["game"], record["step"], record["agent_seat"], game.opening,
                move["ply"], move["seat"], move["by"], move["move"], move["notation"],
                "true" if move["opening"] else "false", move["think_ms"], stats,
            ])  # fmt: skip
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def pgn(measurement: Measurement, site: str) -> Iterator[str]:
    """Each game's PGN (chess only: the caller checks), one after another."""
    for game in _games(measurement):
        yield records.match_record(game.match, site=f"{site}/matches/{game.match.pk}/").text.rstrip() + "\n\n"


def export(measurement: Measurement, fmt: str, site: str) -> Iterator[str]:
    if fmt == "jsonl":
        return jsonl(measurement)
    if fmt == "csv":
        return csv_rows(measurement)
    return pgn(measurement, site)

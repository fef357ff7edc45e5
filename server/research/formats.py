"""The export files: JSON Lines (a match a line) and CSV (a move a row), written in chunks of bytes.

Both are written from the same rows (`selectors.match_rows`), so they always agree.
The CSV columns are `CSV_COLUMNS`, documented in ``docs/exports.md`` and listed in
``docs/exports.schema.json`` under ``x-csv-columns``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from games import CHANCE
from server.matches.models import Seat
from server.research.filters import ExportFilters
from server.research.notation import positions_before, standard_notation
from server.research.pseudonyms import Pseudonyms
from server.research.seats import clocks_after_moves, coarse_rating, rating_change, seat_name
from server.research.selectors import (
    GAME_COLUMNS,
    MOVE_ROW_COLUMNS,
    SCHEMA_VERSION,
    STAT_COLUMNS,
    Columns,
    MatchRows,
    match_rows,
    pairing,
)

LINES_PER_CHUNK = 100  # matches per chunk of bytes handed to the server
AGENT = "agent"  # a bot account's seat (docs/bots.md), in exports only when its owner opted in
CHANCE_SEAT = ("chance", None, None, None, None, None, None)  # (by, player, bot slug, bot level, name, ratings)

CSV_COLUMNS = (
    "schema_version",
    "match",
    "game",
    "source",
    "pairing",
    "winner",
    "created_on",
    "ply",
    "seat",
    "by",
    "player",
    "bot_profile",
    "bot_level",
    "move",
    "at_ms",
    "think_ms",
    *STAT_COLUMNS,  # the search figures, in the order the query reads them
    "fallback",
    "pv",
    "visits",
    "other_stats",
    "queue_wait_ms",  # added within schema version 1, hence at the end
    "fallback_reason",
    "notation",  # the move as players write it (SAN in chess); added within schema version 2
    "position",  # the position before the move (FEN in chess); added within schema version 2
    # Added within schema version 2 too: the match's rating and time control, the mover's seat
    # name and rating change, and every seat's clock after the move.
    "rated",
    "clock_initial_ms",
    "clock_increment_ms",
    "seat_name",
    "rating_before",
    "rating_after",
    "remaining_ms",
)
NO_STATS = [None] * (len(STAT_COLUMNS) + 4)  # the search columns of a person's move or a chance event


_text = json.encoder.encode_basestring  # a JSON string literal, non-ASCII kept (C-accelerated)


def _opt_text(value: str | None) -> str:
    return "null" if value is None else _text(value)


def game_line(rows: MatchRows, names: Pseudonyms) -> str:
    """A match as one line of ``games.jsonl`` (without the newline).

    Written by hand for speed, splicing in the JSON the database holds (results, bot
    snapshots, search figures) as it is; ``docs/exports.schema.json`` checks the result.
    """
    (
        match_id,
        game,
        source,
        status,
        created_on,
        created_ms,
        started_ms,
        finished_ms,
        result,
        plies,
        rated,
        clock,
        options,
        opening_plies,
    ) = rows.match
    clock = _clock(clock)
    kinds: dict[int, str] = {}
    seats = []
    for _, index, kind, player_id, snapshot in rows.seats:
        kinds[index] = kind
        head = f'{{"index":{index},"name":{_text(seat_name(game, index))}'
        if kind == Seat.Kind.BOT:
            seats.append(
                f'{head},"kind":"bot","is_ai":true,"player":null,"bot":{snapshot or "null"},"rating_change":null}}'
            )
        elif snapshot is not None and json.loads(snapshot).get("kind") == AGENT:  # a bot account its owner opted in
            kinds[index] = AGENT
            player = "null" if player_id is None else f'"{names.player(player_id)}"'
            seats.append(f'{head},"kind":"agent","is_ai":true,"player":{player},"bot":null,"rating_change":null}}')
        else:
            # Only a pseudonym: never the player's name, account, address or anything they typed.
            player = "null" if player_id is None else f'"{names.player(player_id)}"'
            change = _rating_change(rows, player_id)
            seats.append(f'{head},"kind":"human","is_ai":false,"player":{player},"bot":null,"rating_change":{change}}}')
    moves, played = [], []
    initial_ms, increment_ms = (clock["initial_ms"], clock["increment_ms"]) if clock else (None, None)
    remaining = _remaining(initial_ms, increment_ms, len(rows.seats), rows.moves, opening_plies)
    for (_, ply, seat, move, at, think_ms, stats, fallback, queue_wait_ms, notation), position, left in zip(
        rows.moves, _positions(game, rows.moves), remaining, strict=True
    ):
        by = "chance" if seat == CHANCE else kinds.get(seat, Seat.Kind.HUMAN)
        moves.append(
            f'{{"ply":{ply},"seat":{seat},"by":"{by}","move":{_text(move)},"notation":{_text(notation or move)},'
            f'"position":{_opt_text(position)},"at_ms":{at - created_ms},'
            f'"think_ms":{think_ms},"remaining_ms":{_int_list(left) or "null"},"stats":{stats or "null"},'
            f'"fallback":{_opt_text(fallback or None)},'
            f'"queue_wait_ms":{"null" if queue_wait_ms is None else queue_wait_ms}}}'
        )
        if seat != CHANCE:
            played.append(move)
    notation = standard_notation(game, played)
    return (
        f'{{"schema_version":{SCHEMA_VERSION},"match":"{names.match(match_id)}","game":{_text(game)},'
        f'"variant":{_compact(_options(options))},"source":{_text(source)},"status":{_text(status)},"created_on":"{created_on}",'
        f'"started_ms":{_since(started_ms, created_ms)},"finished_ms":{_since(finished_ms, created_ms)},'
        f'"result":{result or "null"},'
        f'"pairing":"{pairing(kinds.values())}","plies":{plies},"rated":{"true" if rated else "false"},'
        f'"clock":{_compact(clock)},"seats":[{",".join(seats)}],'
        f'"moves":[{",".join(moves)}],"notation":{_compact(notation)}}}'
    )


def _options(stored: str | None) -> dict[str, Any]:
    """The match's game options (backgammon's cube, Jacoby rule, match length); {} for a game without any."""
    return json.loads(stored) if stored else {}


def _clock(stored: str | None) -> dict[str, int] | None:
    """The match's time control, as exported: its two figures and nothing else the column may gain."""
    if not stored:
        return None
    clock = json.loads(stored)
    return {"initial_ms": int(clock["initial_ms"]), "increment_ms": int(clock["increment_ms"])}


def _remaining(
    initial_ms: Any, increment_ms: Any, seats: int, moves: list[tuple[Any, ...]], opening_plies: int = 0
) -> list[list[int] | None]:
    """Each seat's time left after each move (`seats.clocks_after_moves`), from the moves' think times.

    The clock's figures may come as text (PostgreSQL's ``->>``); None for a match without clocks.
    An opening's moves (a measurement's) cost no one anything and start no clock, as chance.
    """
    if initial_ms is None:
        return [None] * len(moves)
    timed = ((CHANCE if ply < opening_plies else seat, think_ms) for _, ply, seat, _, _, think_ms, *_ in moves)
    return clocks_after_moves(int(initial_ms), int(increment_ms or 0), seats, timed)


def _int_list(values: list[int] | None) -> str | None:
    """A list of integers as compact JSON, None for None (json.dumps costs ten times as much, once a move)."""
    return None if values is None else f"[{','.join(map(str, values))}]"


def _rating_change(rows: MatchRows, player_id: int | None) -> str:
    figures = rows.ratings.get(player_id) if player_id is not None else None
    return "null" if figures is None else _compact(rating_change(*figures))


def _positions(game: str, moves: list[tuple[Any, ...]]) -> Sequence[str | None]:
    """The position before each move, or a None for each where the game writes none down (no replay)."""
    positions = positions_before(game, ((seat, move) for _, _, seat, move, *_ in moves))
    return [None] * len(moves) if positions is None else positions


def _since(at_ms: int | None, origin_ms: int) -> str:
    """Milliseconds from the match's creation to `at_ms`, as JSON (null for a time it has not had)."""
    return "null" if at_ms is None else str(at_ms - origin_ms)


def game_records(filters: ExportFilters) -> Iterator[dict[str, Any]]:
    """The export's matches as Python dicts, for code that reads them in-process (tests, notebooks)."""
    names = Pseudonyms()
    for rows in match_rows(filters, order=names.match):
        yield json.loads(game_line(rows, names))


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def jsonl_chunks(matches: Iterable[MatchRows], names: Pseudonyms | None = None) -> Iterator[bytes]:
    names = names or Pseudonyms()
    lines: list[str] = []
    for rows in matches:
        lines.append(game_line(rows, names))
        if len(lines) >= LINES_PER_CHUNK:
            yield ("\n".join(lines) + "\n").encode()
            lines = []
    if lines:
        yield ("\n".join(lines) + "\n").encode()


def move_rows(rows: MatchRows, names: Pseudonyms) -> Iterator[list[Any]]:
    """The CSV rows of one match (read with `MOVE_ROW_COLUMNS`), in `CSV_COLUMNS` order.

    The database has picked the figures out of the stored JSON; the csv module writes
    None as an empty cell.
    """
    match_id, game, source, winner, created_on, created_ms, rated, initial_ms, increment_ms, opening_plies = rows.match
    # index -> (by, player, bot slug, bot level, seat name, rating before, rating after): once a match
    seats: dict[int, tuple[Any, ...]] = {}
    for _, index, kind, player_id, slug, level, snapshot_kind in rows.seats:
        name = seat_name(game, index)
        if kind == Seat.Kind.BOT:
            seats[index] = ("bot", None, slug, level, name, None, None)
            continue
        if snapshot_kind == AGENT:  # a bot account: disclosed as AI, under a pseudonym like a person
            seats[index] = (AGENT, names.player(player_id), None, None, name, None, None)
            continue
        player = names.player(player_id) if player_id is not None else None
        change = rows.ratings.get(player_id) if player_id is not None else None
        ratings = (None, None) if change is None else (coarse_rating(change[0]), coarse_rating(change[2]))
        seats[index] = ("human", player, None, None, name, *ratings)
    head = [SCHEMA_VERSION, names.match(match_id), game, source, pairing(s[0] for s in seats.values()), winner]
    head += [created_on]
    clocks = _remaining(initial_ms, increment_ms, len(seats), rows.moves, opening_plies)
    match_tail = ["true" if rated else "false", initial_ms, increment_ms]
    for stored, position, left in zip(rows.moves, _positions(game, rows.moves), clocks, strict=True):
        _, ply, seat, move, at, think_ms, *figures, fallback, pv, visits, other, queue_wait_ms, notation = stored
        by, player, slug, level, *mover = CHANCE_SEAT if seat == CHANCE else seats[seat]
        at_ms = at - created_ms
        written = [notation or move, position, *match_tail, *mover, _int_list(left)]
        if by not in ("bot", AGENT):  # no search figures: a person's move or a chance event
            yield [*head, ply, seat, by, player, slug, level, move, at_ms, think_ms, *NO_STATS, None, None, *written]
            continue
        other = None if other in (None, "{}") else other
        flag = "true" if fallback else "false"
        row = [*head, ply, seat, by, player, slug, level, move, at_ms, think_ms, *figures, flag, pv, visits, other]
        yield [*row, queue_wait_ms, fallback or None, *written]


def csv_chunks(matches: Iterable[MatchRows], names: Pseudonyms | None = None) -> Iterator[bytes]:
    names = names or Pseudonyms()
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


class Format(NamedTuple):
    write: Callable[[Iterable[MatchRows], Pseudonyms | None], Iterator[bytes]]
    columns: Columns  # what `write` reads of each match
    content_type: str


FORMATS = {
    "jsonl": Format(jsonl_chunks, GAME_COLUMNS, "application/x-ndjson; charset=utf-8"),
    "csv": Format(csv_chunks, MOVE_ROW_COLUMNS, "text/csv; charset=utf-8"),
}

"""A person's plain move on PostgreSQL: two round trips, no model instances.

Most moves of a match between people, or of a person against a bot, are plain: the match is
active, without an offer waiting or hints, the mover's clock (if any) has not run out, and the
move neither ends the game nor hands the turn to chance.  For those, `submit_move`'s work (the
match locked with its seats, the rules, the move and its event stored, the match and its
clocks updated, the frame and the turn's signal after commit) is done here with the same lock
and the same rules, in two round trips: the transaction opened with the locked read, then the
writes with the commit.  Django's transaction block, model instances and field conversions
were most of a move's CPU on its database thread (`benchmarks/move_floor.py` compares the
paths, "locked" being this one).  The statements are prepared once a connection
(`rows.Prepared`), so PostgreSQL no longer parses and plans each text.

Anything else (another database, a match or move that is not plain, any refusal) goes the
general way (`moves._submit`), which reads the match again and gives the error in its order:
this path writes nothing unless the move is plain and legal.  Inside a caller's transaction
(a service, a test) the statements run in it, and the frame waits for its commit, as
`submit_move`'s do.

What the general path does that this one need not, for a plain move: no clock to flag (the
mover's is charged, with the increment, as there; while the mover's or the next seat's time
is still whole, which may mean it has not moved and its clock does not run, the move goes
the general way), no offer to cancel, no chance to roll, no
end of the game.  It sends no `pre_save` or `post_save` for the rows it writes: the only
receiver of those (a hint recorded with the move, `server/analysis/receivers.py`) acts only in
matches with hints, which are not plain; `tests/server/matches/test_plain_moves.py` fails when
a new receiver appears.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections, router, transaction
from django.db.models import Model
from django.utils import timezone

from games import CHANCE, IllegalMove, registry
from server.db import rows
from server.matches import broadcast, frames
from server.matches.models import Match, MatchEvent, Move, Seat
from server.matches.selectors import by_kind_json
from server.matches.services.clocks import charged, out_of_time
from server.matches.signals import turn_started


@dataclass(frozen=True)
class _Locked:
    """The columns of the match a plain move needs, read under its lock."""

    game: str
    status: str
    state: dict[str, Any]
    ply: int
    to_move: int | None
    v: int
    turn_started_at: datetime | None
    plain: bool  # no offer, no hints
    clock: dict[str, int] | None  # the time control, and each seat's time left (clocked matches)
    clock_ms: list[int] | None
    seats: dict[int, tuple[int | None, str]]  # index: (player id, kind)


@dataclass(frozen=True)
class _Played:
    """What a plain move writes, and sends after the commit."""

    move: Move
    match_columns: dict[str, Any]
    event_frame: dict[str, Any]
    next_is_bot: bool


def submit_plain_move(match_id: int, player_id: int | None, move: str, ply: int) -> Move | None:
    """Play `move` for the seat `player_id` holds, if it is a plain move (the module's doc);
    None, with nothing written, when it is not: the caller then takes the general path.
    `move` and `ply` are of the kinds `submit_move` accepts (the caller checked them)."""
    if not settings.PLAIN_MOVES or player_id is None:
        return None
    connection = connections[router.db_for_write(Move)]
    if not rows.several_statements_at_once(connection):  # PostgreSQL's, values bound on the client
        return None
    try:
        if connection.in_atomic_block:  # in the caller's transaction, under a savepoint of its own
            with transaction.atomic(using=connection.alias):
                return _in_transaction(connection, match_id, player_id, move, ply, begin="", commit="")
        return _in_transaction(connection, match_id, player_id, move, ply, begin="BEGIN;\n", commit=";\nCOMMIT")
    except DatabaseError as exc:
        if not rows.unknown_prepared_statement(exc):
            raise
        # The session lost its prepared statements (a pooler between): prepared again next
        # time; this move, rolled back, goes the general way.
        rows.forget_prepared(connection)
        return None


def _in_transaction(
    connection: Any, match_id: int, player_id: int, move: str, ply: int, *, begin: str, commit: str
) -> Move | None:
    """The read under the lock, the move, the writes.  In autocommit, `begin` and `commit`
    open and close the transaction in the same round trips as the read and the writes."""
    cursor = rows.kept_cursor(connection)
    read, *writes = rows.prepared_texts(connection, cursor, _STATEMENTS)
    ended = not begin  # inside the caller's transaction, its own end is the caller's
    try:
        cursor.execute(begin + read, {"match": match_id})
        if begin:
            cursor.nextset()  # past BEGIN's result
        found = cursor.fetchone()
        played = None if found is None else _play(match_id, _locked(found), player_id, move, ply)
        if played is None:
            return None
        _write(cursor, connection, match_id, played, writes, commit)
        ended = True
    finally:
        if not ended:
            _roll_back(cursor)
    _after_commit(connection, match_id, played)
    return played.move


def _locked(row: tuple[Any, ...]) -> _Locked:
    game, status, state, ply, to_move, v, turn_started_at, plain, clock, clock_ms, indexes, players, kinds = row
    seats = {i: (player, kind) for i, player, kind in zip(indexes or [], players or [], kinds or [], strict=True)}
    state, clock, clock_ms = (_json(value) for value in (state, clock, clock_ms))
    return _Locked(game, status, state, ply, to_move, v, turn_started_at, plain, clock, clock_ms, seats)


def _json(value: Any) -> Any:
    """A jsonb column's value: Django's PostgreSQL connections read jsonb as text, for its fields to parse."""
    return json.loads(value) if isinstance(value, str) else value


def _play(match_id: int, match: _Locked, player_id: int, move: str, ply: int) -> _Played | None:
    """The plain move `move` of `player_id` on `match`, or None (not plain, or refused)."""
    if match.status != Match.Status.ACTIVE or not match.plain or ply != match.ply:
        return None
    # The mover's seat as the general path finds it: the first, in index order (as read), they hold.
    seat = next((index for index, (player, _) in match.seats.items() if player == player_id), None)
    if seat is None or seat != match.to_move:
        return None
    game = registry.get(match.game)
    state = game.from_json(match.state)
    try:
        move = game.canonical_move(state, move)
        new_state = game.play(state, move)
    except IllegalMove:
        return None
    if game.is_terminal(new_state) or game.to_move(new_state) == CHANCE:
        return None
    now = timezone.now()
    clocked = match.clock_ms is not None and match.turn_started_at is not None
    if clocked and out_of_time(match.clock_ms, seat, match.turn_started_at, now):  # type: ignore[arg-type]  # `clocked`: both set
        return None  # the general path flags the clock
    to_move = game.to_move(new_state)
    if match.clock_ms is not None and match.clock["initial_ms"] in (match.clock_ms[seat], match.clock_ms[to_move]):  # type: ignore[index]  # clocked: it has its clock
        return None  # the mover or the next seat may be at its first move: the general path asks (`clock_runs`)
    used_ms = int((now - match.turn_started_at).total_seconds() * 1000) if match.turn_started_at else 0
    think_ms = max(0, used_ms)
    notation = game.move_notation(state, move)
    kind = match.seats[seat][1]
    stored = Move(
        match_id=match_id, ply=ply, seat=seat, move=move, notation="" if notation == move else notation,
        created_at=now, think_ms=think_ms, stats=None, fallback="", queue_wait_ms=None,
    )  # fmt: skip
    state_json = game.to_json(new_state)
    clock_ms = None if match.clock_ms is None else charged(match.clock_ms, seat, used_ms, match.clock["increment_ms"])  # type: ignore[index]  # clocked: it has its clock
    frame = frames.move(
        ply=ply, seat=seat, move=move, notation=notation, by=by_kind_json(kind),
        state=state_json, to_move=to_move, legal_moves=game.legal_moves(new_state), think_ms=think_ms,
        fallback=None, bot=kind == Seat.Kind.BOT, clock=_clock_frame(match, clock_ms, to_move),
    )  # fmt: skip
    columns = {
        "state": state_json, "ply": ply + 1, "to_move": to_move, "v": match.v + 1, "turn_started_at": now,
        "clock_ms": clock_ms,
    }  # fmt: skip
    next_kind = match.seats.get(to_move, (None, None))[1]
    return _Played(stored, columns, frame, next_is_bot=next_kind == Seat.Kind.BOT)


def _clock_frame(match: _Locked, clock_ms: list[int] | None, to_move: int) -> dict[str, Any] | None:
    """The frame's clocks as `selectors.clock_json` gives them the moment the turn starts."""
    if clock_ms is None:
        return None
    return {**match.clock, "remaining_ms": list(clock_ms), "running": to_move, "elapsed_ms": 0}  # type: ignore[dict-item]  # clocked: it has its clock


def _write(cursor: Any, connection: Any, match_id: int, played: _Played, writes: list[str], commit: str) -> None:
    """The match updated with the move and its event inserted, in one statement (and the log
    trimmed, as `record` does), then `commit`: one query text, one round trip.  `writes` are
    the texts of the statement and of the trim (`rows.prepared_texts`)."""
    columns, stored = played.match_columns, played.move
    params = {
        "match": match_id, "state": json.dumps(columns["state"]), "ply": columns["ply"], "to_move": columns["to_move"],
        "v": columns["v"], "now": columns["turn_started_at"], "clock_ms": _json_or_null(columns["clock_ms"]),
        "move_ply": stored.ply, "seat": stored.seat, "move": stored.move, "notation": stored.notation,
        "think_ms": stored.think_ms, "frame": json.dumps(played.event_frame),
    }  # fmt: skip
    write, trim = writes
    v, kept = columns["v"], settings.MATCH_EVENTS_KEPT
    if v % 50 == 0 and v > kept:
        write += ";\n" + trim
        params["trim_to"] = v - kept
    cursor.execute(write + commit, params)
    stored.pk = cursor.fetchone()[0]
    stored._state.adding, stored._state.db = False, connection.alias


def _json_or_null(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def _roll_back(cursor: Any) -> None:
    """End the transaction this path opened, after a refusal or a failure (a connection that
    broke meanwhile is Django's to find unusable, and close)."""
    with contextlib.suppress(Exception):  # the failure that brought us here is the one raised
        cursor.execute("ROLLBACK")


def _after_commit(connection: Any, match_id: int, played: _Played) -> None:
    """The move's frame, then the turn's signal, as `record` and `announce_turn` send them."""
    group, frame = broadcast.match_group(match_id), {**played.event_frame, "v": played.match_columns["v"]}
    ply, seat, bot = played.match_columns["ply"], played.match_columns["to_move"], played.next_is_bot

    def send() -> None:
        broadcast.send_to_group(group, frame)
        turn_started.send(sender=Match, match_id=match_id, ply=ply, seat=seat, bot=bot)

    transaction.on_commit(send, using=connection.alias)  # at once in autocommit: committed already


def _table(model: type[Model]) -> str:
    return f'"{model._meta.db_table}"'


_MATCH, _SEAT, _MOVE, _EVENT = _table(Match), _table(Seat), _table(Move), _table(MatchEvent)

# The match's columns a plain move needs, and its seats', under the match's row lock (the
# seats are not locked, as with `events.locked_with_seats`).
_READ = rows.Prepared(
    "plyground_plain_move_read",
    f"""SELECT m.game, m.status, m.state, m.ply, m.to_move, m.v, m.turn_started_at,
 m.offer IS NULL AND NOT m.hints_allowed AND (m.clock IS NULL) = (m.clock_ms IS NULL), m.clock, m.clock_ms,
 (SELECT array_agg(s.index ORDER BY s.index) FROM {_SEAT} s WHERE s.match_id = m.id),
 (SELECT array_agg(s.player_id ORDER BY s.index) FROM {_SEAT} s WHERE s.match_id = m.id),
 (SELECT array_agg(s.kind ORDER BY s.index) FROM {_SEAT} s WHERE s.match_id = m.id)
FROM {_MATCH} m WHERE m.id = %(match)s FOR UPDATE OF m""",
)

# The match updated, the move and its event inserted: one statement (PostgreSQL runs each
# data-modifying WITH once, read or not), so each value is sent once; the move's key returned.
_WRITE = rows.Prepared(
    "plyground_plain_move_write",
    f"""WITH updated AS (
 UPDATE {_MATCH} SET state = %(state)s::jsonb, ply = %(ply)s, to_move = %(to_move)s, v = %(v)s,
 turn_started_at = %(now)s, clock_ms = %(clock_ms)s::jsonb WHERE id = %(match)s
), moved AS (
 INSERT INTO {_MOVE} (match_id, ply, seat, move, notation, created_at, think_ms, stats, fallback, queue_wait_ms)
 VALUES (%(match)s, %(move_ply)s, %(seat)s, %(move)s, %(notation)s, %(now)s, %(think_ms)s, NULL, '', NULL)
 RETURNING id
), logged AS (
 INSERT INTO {_EVENT} (match_id, v, frame) VALUES (%(match)s, %(v)s, %(frame)s::jsonb)
)
SELECT id FROM moved""",
)

_TRIM = rows.Prepared(
    "plyground_plain_move_trim", f"DELETE FROM {_EVENT} WHERE match_id = %(match)s AND v <= %(trim_to)s"
)

_STATEMENTS = (_READ, _WRITE, _TRIM)

"""Who has a socket open: seats (a seated person's match sockets) and people (any socket).

Each socket is served by its own asyncio task (Channels runs one consumer per connection).
What a socket holds is let go when its consumer says it left *or* when its task ends,
whichever comes first: a consumer that crashed (an exception in a handler, a channel-layer
read that failed) never runs `disconnect()`, and its seat must not stay online for ever.

Live presence is kept in the store (`server/matches/presence_store.py`: Redis with expiry,
or this process), refreshed by the heartbeat of `server/matches/watch.py` in one round trip.
The database hears only the transitions, which the lobby's rules read (docs/design.md §4):
`Seat.online` and `Seat.last_seen_at` (when it came or went), and `Player.online_until`
(`ONLINE` while a socket of theirs is open anywhere, the time they went otherwise).  A process
that dies stops refreshing; its seats and people expire after `PRESENCE_STALE_MS` and any
process's sweep takes them offline.

Every way offline writes the database first and then drops the member from the store unless
someone holds it again; a member held after all is written back online.  A process refreshing
a member the store had dropped sees it arrive and writes it online.  So a socket arriving
while another leaves never ends offline while it is open.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import redis
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from server.matches import broadcast, frames
from server.matches.models import Match, Seat
from server.matches.presence_store import live_store, parse, person_member, seat_member
from server.players.models import Player
from server.players.services import SEEN_RESOLUTION

log = logging.getLogger("plyground.matches")


@dataclass
class _Hold:
    """What one socket holds: a seat (match id, seat index) and the person behind it."""

    seat: tuple[int, int] | None = None
    player: int | None = None


_holds: dict[asyncio.Task[Any], _Hold] = {}
_writes: set[asyncio.Task[Any]] = set()  # offline writes started by a socket's end, not awaited by anyone


def _hold() -> _Hold:
    task = asyncio.current_task()
    assert task is not None, "presence is kept from a socket's task"
    hold = _holds.get(task)
    if hold is None:
        hold = _holds[task] = _Hold()
        task.add_done_callback(_ended)
    return hold


def hold(match_id: int, seat: int | None, player_id: int | None) -> None:
    """This socket holds `seat` (if seated) and its person, as `seat_presence` and `person_presence`
    recorded in the same database call that read the socket's match (one call, not three)."""
    current = _hold()
    if seat is not None:
        current.seat = (match_id, seat)
    if player_id is not None:
        current.player = player_id


async def left(match_id: int, seat: int) -> None:
    """The socket's consumer says it left; the seat goes offline when it was its last socket here."""
    hold = _holds.get(asyncio.current_task())  # type: ignore[arg-type]  # a consumer runs in a task
    if hold is not None and hold.seat == (match_id, seat):
        hold.seat = None
    if (match_id, seat) not in here():
        await database_sync_to_async(seat_presence)(match_id, seat, False)


def _ended(task: asyncio.Task[Any]) -> None:
    """A socket's task ended, cleanly or not: let go of whatever it still holds."""
    hold = _holds.pop(task, None)
    if hold is None:
        return
    if hold.seat is not None and hold.seat not in here():
        _write(seat_presence, *hold.seat, False)
    if hold.player is not None and hold.player not in people():
        _write(person_presence, hold.player, False)


def _write(fn: Callable[..., Any], *args: Any) -> None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # the loop is closing: the heartbeat's absence takes them offline
        return
    # A fresh context: the ended socket's own (its database thread, server/db/db_threads.py)
    # is closed by now, so the write goes to Channels' default thread.
    write = loop.create_task(database_sync_to_async(fn)(*args), context=contextvars.Context())
    _writes.add(write)
    write.add_done_callback(_written)


def _written(write: asyncio.Task[Any]) -> None:
    _writes.discard(write)
    if not write.cancelled() and write.exception() is not None:
        log.warning("presence not written", exc_info=write.exception())


async def settled() -> None:
    """Wait for the offline writes of sockets that ended in this event loop (tests, and a clean shutdown).

    A write left by a loop that has closed since (a test's, whose socket was cancelled) can
    never finish: it is forgotten rather than awaited from another loop, which asyncio refuses.
    """
    loop = asyncio.get_running_loop()
    while True:
        for write in [w for w in _writes if w.get_loop() is not loop and w.get_loop().is_closed()]:
            _writes.discard(write)
        mine = [w for w in _writes if w.get_loop() is loop]
        if not mine:
            return
        await asyncio.gather(*mine, return_exceptions=True)


def here() -> set[tuple[int, int]]:
    """The (match id, seat) pairs with a socket open in this process."""
    global _read_at
    _read_at = _read_at or time.monotonic()
    return {hold.seat for task, hold in list(_holds.items()) if hold.seat is not None and not task.done()}


def people() -> set[int]:
    """The players with a socket open in this process (match or lobby)."""
    return {hold.player for task, hold in list(_holds.items()) if hold.player is not None and not task.done()}


# --- the store and the database's transitions (run on database threads) -------------------

# `Player.online_until` while a socket of theirs is open somewhere: until it closes.
ONLINE = datetime(9999, 12, 31, tzinfo=UTC)
LIVE_STATUSES = (Match.Status.WAITING, Match.Status.ACTIVE)
_reconciled_at: float | None = None  # monotonic time of the last reconciliation
# Members this process let go of lately (monotonic time): the watch reads what is held on the
# event loop (`here`, `people`) and refreshes it later on a database thread, so a refresh may
# carry a socket that closed in between, and must not bring its seat back online.
_let_go: dict[str, float] = {}
_let_go_lock = threading.Lock()
_read_at: float | None = None  # the first read of what is held since the last heartbeat


def _ms(now: datetime) -> float:
    return now.timestamp() * 1000


def _ttl() -> float:
    return float(settings.PRESENCE_STALE_MS)


def seat_presence(match_id: int, seat: int, online: bool, now: datetime | None = None) -> bool:
    """This process's first socket for a human seat opened, or its last one here closed.

    Returns True (and a `presence` frame goes out) when the seat's online flag changed: coming
    here always says so; going says so only when no other process still holds the seat.
    """
    now = now or timezone.now()
    member = seat_member(match_id, seat)
    if online:
        _store_call(lambda: live_store().refresh([member], _ms(now), _ttl()), set())
        return _seat_written(match_id, seat, True, now)
    _letting_go(member)
    gone = _store_call(lambda: live_store().release([member], _ms(now)), {member})
    return member in gone and _went([member], now) > 0


def arriving(match_id: int, seat: int | None, player_id: int, now: datetime) -> list[str]:
    """A socket of `player_id` opened, seated at `seat` (or a spectator's: None): the store
    refreshed for the seat and the person in one round trip.  Returns those that arrived in the
    store (no process held them), whose coming the database must hear (`arrived`), as on the
    heartbeat; what some process held was written when it came, so a second tab, or most of a
    reconnect storm after a restart, writes nothing."""
    members = ([seat_member(match_id, seat)] if seat is not None else []) + [person_member(player_id)]
    # With the store unreachable everything counts as arrived: the database is written as before.
    new = _store_call(lambda: live_store().refresh(members, _ms(now), _ttl()), set(members))
    return [m for m in members if m in new]


def arrived(members: Iterable[str], now: datetime) -> None:
    """The database's transitions for what `arriving` found new: a seat online, a person seen and online."""
    seen_before = now - SEEN_RESOLUTION
    for member in members:
        key = parse(member)
        if isinstance(key, tuple):
            _seat_written(*key, True, now)
            continue
        # One write for `player_seen` and the person online, and none when neither changed.
        at, online, before = (_datetime_param(t) for t in (now, ONLINE, seen_before))
        _update(_PERSON_ONLINE_SQL, Player, [online, before, at, key, online, before])


def person_presence(player_id: int, online: bool, now: datetime | None = None) -> None:
    """A person's first socket in this process opened, or their last one here closed."""
    now = now or timezone.now()
    member = person_member(player_id)
    if online:
        _store_call(lambda: live_store().refresh([member], _ms(now), _ttl()), set())
        Player.objects.filter(pk=player_id).exclude(online_until=ONLINE).update(online_until=ONLINE)
        return
    _letting_go(member)
    if member in _store_call(lambda: live_store().release([member], _ms(now)), {member}):
        _went([member], now)


def heartbeat(seats: set[tuple[int, int]], people: Iterable[int] = (), now: datetime | None = None) -> None:
    """This process still holds these seats and people: one round trip to the store, and the
    database only for those the store did not know (it lost them: a restart, a sweep's race)."""
    now = now or timezone.now()
    global _read_at
    read_at, _read_at = _read_at, None
    wanted = [seat_member(*s) for s in seats] + [person_member(p) for p in people]
    members = _not_let_go(wanted, read_at)
    arrived = _store_call(lambda: live_store().refresh(members, _ms(now), _ttl()), set())
    _came(arrived, now)
    # A socket that closed while the refresh was on its way let go of its member on another
    # thread, perhaps just before the refresh reached the store: let go of it again.
    late = set(members) - set(_not_let_go(members, read_at))
    if late:
        gone = _store_call(lambda: live_store().release(sorted(late), _ms(now)), late)
        _went(gone, now)


def _letting_go(member: str) -> None:
    with _let_go_lock:
        _let_go[member] = time.monotonic()


def _not_let_go(members: list[str], read_at: float | None) -> list[str]:
    """`members` without those let go of since the watch read them at `read_at` (unless held here again)."""
    recent = time.monotonic() - 2 * settings.PRESENCE_HEARTBEAT_MS / 1000
    with _let_go_lock:
        for member, at in list(_let_go.items()):
            if at < recent:
                del _let_go[member]
        let_go = {m for m, at in _let_go.items() if read_at is not None and at >= read_at}
    if not let_go.intersection(members):
        return members
    held = {seat_member(*s) for s in here()} | {person_member(p) for p in people()}
    return [m for m in members if m not in let_go or m in held]


def expire_stale(now: datetime | None = None) -> int:
    """Members whose every holder stopped refreshing (its process died) go offline; returns how
    many seats did.  Now and then the database's online seats and people are checked against
    the store too: what the store never held (a store restarted with no copy) goes offline."""
    now = now or timezone.now()
    expired = _store_call(lambda: live_store().expired(_ms(now)), [])
    return _went(expired, now) + _reconcile(now)


def _reconcile(now: datetime) -> int:
    global _reconciled_at
    due = _reconciled_at is None or time.monotonic() - _reconciled_at >= settings.PRESENCE_RECONCILE_MS / 1000
    if not due:
        return 0
    _reconciled_at = time.monotonic()
    seats = Seat.objects.filter(online=True, kind=Seat.Kind.HUMAN, match__status__in=LIVE_STATUSES)
    members = [seat_member(m, s) for m, s in seats.values_list("match_id", "index")]
    members += [person_member(p) for p in Player.objects.filter(online_until__gt=now).values_list("pk", flat=True)]
    held = _store_call(lambda: live_store().live(members, _ms(now)), set(members))
    return _went([m for m in members if m not in held], now)


def _went(members: Iterable[str], now: datetime) -> int:
    """Offline in the database, then out of the store unless held after all (then back online).
    Returns how many seats went offline."""
    members = list(members)
    if not members:
        return 0
    went = 0
    for member in members:
        key = parse(member)
        if isinstance(key, tuple):
            went += _seat_written(*key, False, now)
        else:
            Player.objects.filter(pk=key, online_until__gt=now).update(online_until=now)
    _came(_store_call(lambda: live_store().drop(members, _ms(now)), set()), now)
    return went


def _came(members: Iterable[str], now: datetime) -> None:
    people = []
    for member in members:
        key = parse(member)
        if isinstance(key, tuple):
            _seat_written(*key, True, now)
        else:
            people.append(key)
    if people:
        Player.objects.filter(pk__in=people).exclude(online_until=ONLINE).update(online_until=ONLINE)


def _seat_written(match_id: int, seat: int, online: bool, now: datetime) -> bool:
    """The transition in the database: `online` and since when; True (and a frame) if it changed."""
    params = [online, _datetime_param(now), match_id, seat, Seat.Kind.HUMAN, online]
    if not _update(_SEAT_PRESENCE_SQL, Seat, params):
        return False
    send_presence(match_id, seat, online)
    return True


# The transitions' two writes, in SQL: every arrival of a connect storm makes them, and the
# ORM built each at several times the CPU of the statement itself.  `{t}` is the table, names
# in braces its columns.
_SEAT_PRESENCE_SQL = (
    "UPDATE {t} SET {online} = %s, {last_seen_at} = %s"
    " WHERE {match_id} = %s AND {index} = %s AND {kind} = %s AND NOT ({online} = %s)"
)
_PERSON_ONLINE_SQL = (
    "UPDATE {t} SET {online_until} = %s,"
    " {last_seen_at} = CASE WHEN {last_seen_at} > %s THEN {last_seen_at} ELSE %s END"
    " WHERE {id} = %s AND ({online_until} IS NULL OR {online_until} <> %s"
    " OR {last_seen_at} IS NULL OR {last_seen_at} <= %s)"
)


def _update(template: str, model: type[Model], params: list[Any]) -> int:
    """Run one of the statements above on `model`'s table; the rows it changed."""
    q = connection.ops.quote_name
    columns = {f.attname: q(f.column) for f in model._meta.concrete_fields}  # type: ignore[arg-type]  # concrete fields have columns
    with connection.cursor() as cursor:
        cursor.execute(template.format(t=q(model._meta.db_table), **columns), params)
        changed: int = cursor.rowcount
        return changed


def _datetime_param(value: datetime) -> Any:
    """A datetime as the database takes it (SQLite keeps text in its own form)."""
    return connection.ops.adapt_datetimefield_value(value)


def send_presence(match_id: int, seat: int, online: bool) -> None:
    """The match's sockets hear that a seat came or went (after the transaction, if any)."""
    frame = frames.presence(seat, online, settings.ABANDON_GRACE_MS)
    group = broadcast.match_group(match_id)
    transaction.on_commit(lambda: broadcast.send_to_group(group, frame))


def _store_call(call: Callable[[], Any], fallback: Any) -> Any:
    """The store's answer, or `fallback` while it is unreachable (Redis restarting): the database
    then acts as if nobody else held anything, and the heartbeat puts back what is still held."""
    try:
        return call()
    except redis.RedisError:
        log.warning("presence store unreachable", exc_info=True)
        return fallback

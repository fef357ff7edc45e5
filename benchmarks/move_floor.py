"""What a move's database call costs now, beside two leaner designs of it.

    .venv/bin/python benchmarks/move_floor.py [--moves 3000] [--block 250]

A question for the design, not a feature: how much of a move's CPU on its database thread
goes to Django's models, its transaction block and the round trips, and how much to the row
lock itself?

- **now**: the socket's database call for a move, as the web process runs it (`_move` on one
  of its database threads, between Channels' `close_old_connections()`): the one path every
  move takes (`submit_move`): BEGIN and the match locked with its seats in one query text,
  the rules, the move and its event inserted and the match updated with the COMMIT in
  another, the frame handed to an event loop on another thread.  Two round trips.
- **locked**: the same lock, without Django's models or transaction block: the transaction
  opened and the match read and locked with its seats' people in one query text, the same
  rules, the frame built and encoded once (stored as the event and written to the sockets),
  then the three writes in one statement followed by COMMIT in the same text.  Two round trips.
- **floor**: no read at all: the move made from a copy of the match kept in memory (its
  position, version, ply, turn and seats), written in **one statement** in autocommit: the
  match updated only if its version is still the copy's (compare and swap), the move and its
  event inserted from that update's row (PostgreSQL's data-modifying `WITH`, atomic as one
  statement).  A stale copy (0 rows: another writer changed the match) would fall back to
  the locked path; here nothing else writes, and the run fails if it ever happens.

What the two leaner paths leave out, a real one would need: clocks, offers, chance moves, the
end of a game (these matches never end: moves that would end one are not chosen, and a match
near a full board is replaced), the turn's signal for the bots, the event log's trimming, the
model signals, SQLite.  All three run on the same thread and connection, on Connect Four
matches between two people, alternating in blocks of `--block` moves so that they see the
same machine.  Printed: CPU (of the database thread) and wall time a move, the CPU of the
PostgreSQL backend serving it (it shares the machine's cores with the web), and the ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from benchmarks.move_cost import django_on_a_fresh_database  # noqa: E402

NAME = f"plyground_movefloor_{uuid.uuid4().hex[:8]}"
FULL_SOON = 34  # a match past this many plies is replaced: no move ends the game or fills the board

# The move's three writes in one statement: nothing is written unless the match is still at
# the version the copy was made at.
ONE_STATEMENT = """
WITH m AS (
  UPDATE matches_match SET state = %s::jsonb, ply = %s, to_move = %s, v = %s, turn_started_at = %s
  WHERE id = %s AND v = %s RETURNING id
), mv AS (
  INSERT INTO matches_move (match_id, ply, seat, move, notation, created_at, think_ms, stats, fallback, queue_wait_ms)
  SELECT id, %s, %s, %s, %s, %s, %s, NULL, '', NULL FROM m RETURNING id
), ev AS (
  INSERT INTO matches_matchevent (match_id, v, frame) SELECT id, %s, %s::jsonb FROM m RETURNING id
)
SELECT (SELECT count(*) FROM m), (SELECT id FROM mv)
"""

# The `locked` path's first round trip: the transaction opened and the match read and locked
# with its seats' people, in one query text.
LOCK_AND_READ = """
BEGIN;
SELECT m.state, m.ply, m.to_move, m.v, m.turn_started_at, m.status,
  (SELECT array_agg(s.player_id ORDER BY s.index) FROM matches_seat s WHERE s.match_id = m.id)
FROM matches_match m WHERE m.id = %s FOR UPDATE
"""


@dataclass
class Copy:
    """What the floor keeps of a match between its moves."""

    match_id: int
    players: tuple[int, int]
    state: Any
    ply: int
    to_move: int
    v: int
    turn_started_at: Any


def on_cpu_s(pid: int) -> float:
    """The seconds process `pid` (a PostgreSQL backend on this machine) has run on a CPU, to
    the nanosecond (the scheduler's own count; /proc's stat counts 10 ms ticks)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=3000, help="moves for each path")
    parser.add_argument("--block", type=int, default=250, help="moves of one path before switching")
    args = parser.parse_args()
    with django_on_a_fresh_database(NAME):
        run(args)


def run(args: argparse.Namespace) -> None:
    from django.core.management import call_command
    from django.db import close_old_connections, connection
    from django.utils import timezone

    from benchmarks.move_cost import serve_broadcasts_on_a_loop
    from games import registry
    from server.db.db_threads import PersistentConnectionThread
    from server.matches import broadcast, frames
    from server.matches.consumers import _move
    from server.matches.selectors import match_get
    from server.matches.services import SeatRequest, match_create, match_join
    from server.players.services import player_create_guest

    call_command("migrate", verbosity=0)
    game = registry.get("connect4")
    rng = random.Random(1)
    serve_broadcasts_on_a_loop()
    db_thread = PersistentConnectionThread("db-0")
    human = {"kind": "human", "is_ai": False}

    def new_match() -> Copy:
        a, b = player_create_guest(), player_create_guest()
        match = match_create("connect4", [SeatRequest("human"), SeatRequest("human")], a)
        match_join(match.pk, b)
        m = match_get(match.pk)
        return Copy(m.pk, (a.pk, b.pk), game.from_json(m.state), m.ply, m.to_move, m.v, m.turn_started_at)

    def safe_move(copy: Copy) -> str | None:
        """A move that does not end the game, None if every move does."""
        safe = [m for m in game.legal_moves(copy.state) if not game.is_terminal(game.play(copy.state, m))]
        return rng.choice(safe) if safe else None

    def as_a_socket_calls(move_of: Any) -> Any:
        """`move_of(copy, player_id, move)` between Channels' `close_old_connections()`, as a
        socket's `database_sync_to_async` call runs it."""

        def call(copy: Copy, player_id: int, move: str) -> None:
            close_old_connections()
            try:
                move_of(copy, player_id, move)
            finally:
                close_old_connections()

        return call

    def floor_move(copy: Copy, player_id: int, move: str, commit: Any = None) -> None:
        """The move from `copy`; with `commit` (a cursor inside a transaction) the statement
        goes on it, with the COMMIT in the same query text."""
        seat = copy.players.index(player_id) if player_id in copy.players else None
        if seat is None or seat != copy.to_move:
            raise AssertionError("not this player's turn")
        move = game.canonical_move(copy.state, move)
        new_state = game.play(copy.state, move)
        notation = game.move_notation(copy.state, move)
        now = timezone.now()
        think_ms = max(0, int((now - copy.turn_started_at).total_seconds() * 1000)) if copy.turn_started_at else 0
        state_json = game.to_json(new_state)
        to_move = game.to_move(new_state)
        frame = frames.move(
            ply=copy.ply, seat=seat, move=move, notation=notation, by=human, state=state_json, to_move=to_move,
            legal_moves=game.legal_moves(new_state), think_ms=think_ms, fallback=None, queue_wait_ms=None,
            bot=False, stats=None, clock=None,
        )  # fmt: skip
        v = copy.v + 1
        text = json.dumps({**frame, "v": v})  # once: stored, and written to every socket
        params = [json.dumps(state_json), copy.ply + 1, to_move, v, now, copy.match_id, copy.v,
                  copy.ply, seat, move, "" if notation == move else notation, now, think_ms, v, text]  # fmt: skip
        if commit is not None:
            commit.execute(ONE_STATEMENT + "; COMMIT", params)
            written, _move_id = commit.fetchone()
        else:
            connection.ensure_connection()
            raw = connection.connection  # psycopg's, in autocommit: the statement is its own transaction
            with psycopg.ClientCursor(raw) as cursor:
                cursor.execute(ONE_STATEMENT, params)
                written, _move_id = cursor.fetchone()
        if written != 1:
            raise AssertionError(f"match {copy.match_id} changed under its copy")
        broadcast.send_to_group(broadcast.match_group(copy.match_id), {**frame, "v": v})
        copy.state, copy.ply, copy.to_move, copy.v, copy.turn_started_at = new_state, copy.ply + 1, to_move, v, now

    def locked_move(copy: Copy, player_id: int, move: str) -> None:
        """The floor's move, from the match read under its lock instead of a copy: two round
        trips (the transaction opened with the read; the statement with the commit)."""
        connection.ensure_connection()
        raw = connection.connection
        with psycopg.ClientCursor(raw) as cursor:
            cursor.execute(LOCK_AND_READ, [copy.match_id])
            cursor.nextset()
            state, ply, to_move, v, turn_started_at, status, players = cursor.fetchone()
            try:
                if status != "active" or ply != copy.ply or players[to_move] != player_id:
                    raise AssertionError("not this player's turn")
                state = json.loads(state)  # Django's connections read jsonb as text, for its fields to parse
                read = Copy(copy.match_id, tuple(players), game.from_json(state), ply, to_move, v, turn_started_at)
                floor_move(read, player_id, move, commit=cursor)
            except BaseException:
                raw.rollback() if not raw.autocommit else cursor.execute("ROLLBACK")
                raise
        copy.state, copy.ply, copy.to_move, copy.v = read.state, read.ply, read.to_move, read.v

    def timed(path, copy: Copy, player_id: int, move: str) -> tuple[float, float, float]:
        """Wall time, this thread's CPU and the PostgreSQL backend's CPU of one move."""
        connection.ensure_connection()
        backend = connection.connection.info.backend_pid
        t0, c0, b0 = time.perf_counter(), time.thread_time(), on_cpu_s(backend)
        path(copy, player_id, move)
        return time.perf_counter() - t0, time.thread_time() - c0, on_cpu_s(backend) - b0

    paths = {
        "now": as_a_socket_calls(lambda copy, player_id, move: _move(copy.match_id, player_id, move, copy.ply, None)),
        "locked": as_a_socket_calls(locked_move),
        "floor": as_a_socket_calls(floor_move),
    }
    totals = {name: [0.0, 0.0, 0.0, 0] for name in paths}  # wall, CPU, PostgreSQL's CPU, moves
    copies = {name: new_match() for name in paths}
    done = 0
    while done < args.moves:
        for name, path in paths.items():
            for _ in range(args.block):
                copy = copies[name]
                move = safe_move(copy) if copy.ply < FULL_SOON else None
                if move is None:
                    copy = copies[name] = new_match()
                    move = safe_move(copy)
                wall, cpu, database = db_thread.submit(timed, path, copy, copy.players[copy.to_move], move).result()
                if name == "now":  # the real path keeps no copy: the copy follows it
                    fresh = match_get(copy.match_id)
                    copy.state, copy.ply = game.from_json(fresh.state), fresh.ply
                    copy.to_move, copy.v = fresh.to_move, fresh.v
                totals[name][0] += wall
                totals[name][1] += cpu
                totals[name][2] += database
                totals[name][3] += 1
        done += args.block
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    per = {name: (w / n * 1e6, c / n * 1e6, d / n * 1e6, n) for name, (w, c, d, n) in totals.items()}
    for name, (wall_us, cpu_us, database_us, n) in per.items():
        print(
            f"{name:>6}: {cpu_us:6.0f} µs CPU, {wall_us:6.0f} µs wall a move; PostgreSQL's backend "
            f"{database_us:5.0f} µs CPU ({n} moves)"
        )
    for name in ("locked", "floor"):
        print(
            f"{name} / now: CPU {per[name][1] / per['now'][1]:.2f}, wall {per[name][0] / per['now'][0]:.2f}, "
            f"PostgreSQL's CPU {per[name][2] / per['now'][2]:.2f}"
        )
    print(f"load {load}")
    db_thread.submit(lambda: connection.close()).result()
    db_thread.shutdown()
    connection.close()


if __name__ == "__main__":
    main()

"""The database side of one move: `submit_move` on PostgreSQL, its queries and where its CPU goes.

    .venv/bin/python benchmarks/move_cost.py [--moves 400] [--socket] [--profile] [--show-queries]
    .venv/bin/python benchmarks/move_cost.py --connect [--sockets 400] [--profile] [--show-queries]

Creates a fresh database on 127.0.0.1:5432 (dropped at the end), plays `--moves` Connect
Four moves between two people through `submit_move` on one thread with a kept connection
(as a web process's database thread does), the broadcast going to the in-memory layer, and
prints the mean wall time and CPU time (of that thread) per move, the queries per move
(with the after-commit work: the broadcast and the bots' receiver), and with `--profile`
the top functions by cumulative time (cProfile).

`--socket` makes each move the socket's whole database call for it, as the web process
runs it: on one of its database threads (`server/db/db_threads.py`), between Channels'
`close_old_connections()`, through the consumer's `_move` (the mover's seat found from their
player id, then the move), its broadcast handed to an event loop on another thread as the
web hands it to its loop (before 2026-11-29, evening, it was sent on the calling thread, 0.4-0.5
ms more a move).  Django's health check, when it runs, is not counted as a query
(it bypasses Django's cursor) but is in the times.  `--show-queries` prints the SQL of one move.
Counting the queries makes each move's statements run on Django's debug cursor;
`--uncounted` times the moves without it, as production runs them (no query count then).
`--connect` times instead the database side of a match socket's opening, step by step, as a
web process runs it on a database thread: the token's player (the auth middleware), the
arrival (`socket_arrived`: seat and person online) and the opening frames (the state).
The CPU time is the figure to compare on a loaded machine: the wall time includes waiting for
the cores.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from tests.faults.stack import POSTGRES_URL  # noqa: E402

NAME = f"plyground_movecost_{uuid.uuid4().hex[:8]}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--socket", action="store_true", help="the socket's database call, on a database thread")
    parser.add_argument("--show-queries", action="store_true", help="print the SQL of one move (the 10th)")
    parser.add_argument("--connect", action="store_true", help="a socket's opening instead of moves")
    parser.add_argument("--sockets", type=int, default=400)
    parser.add_argument("--uncounted", action="store_true", help="moves: no query recorded, as production runs")
    args = parser.parse_args()
    with django_on_a_fresh_database(NAME):
        run_connect(args) if args.connect else run(args)


@contextmanager
def django_on_a_fresh_database(name: str) -> Iterator[None]:
    """Django set up on a new PostgreSQL database `name` (dropped at the end), without Redis."""
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        os.environ["DATABASE_URL"] = POSTGRES_URL.rsplit("/", 1)[0] + "/" + name
        os.environ["DJANGO_SETTINGS_MODULE"] = "server.config.settings.dev"
        os.environ.setdefault("DEBUG", "0")  # as production runs (Django's debug cursor records every query)
        os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        yield
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def serve_broadcasts_on_a_loop() -> None:
    """An event loop on a thread of its own takes the broadcasts, as the web's loop does: a
    database thread hands each one over (`call_soon_threadsafe`) and goes on.  Without it each
    was sent on the calling thread through `async_to_sync`, which starts a thread and a loop:
    0.4-0.5 ms of the call's CPU that the web never spends there."""
    import asyncio
    import threading

    from server.matches import broadcast

    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="server-loop", daemon=True).start()

    async def remember() -> None:
        broadcast.remember_server_loop()

    asyncio.run_coroutine_threadsafe(remember(), loop).result()


NOT_COUNTED = SimpleNamespace(captured_queries=[])


def run(args: argparse.Namespace) -> None:
    from django.core.management import call_command
    from django.db import close_old_connections, connection
    from django.test.utils import CaptureQueriesContext

    from games import registry
    from server.db.db_threads import PersistentConnectionThread
    from server.matches.consumers import _move
    from server.matches.services import SeatRequest, match_create, match_join, submit_move
    from server.players.services import player_create_guest

    call_command("migrate", verbosity=0)
    connection.close_at = None
    game = registry.get("connect4")
    rng = random.Random(1)
    profiler = cProfile.Profile() if args.profile else None
    db_thread = PersistentConnectionThread("db-0")
    if args.socket:
        serve_broadcasts_on_a_loop()

    def new_match():
        a, b = player_create_guest(), player_create_guest()
        match = match_create("connect4", [SeatRequest("human"), SeatRequest("human")], a)
        match_join(match.pk, b)
        return match.pk, (a.pk, b.pk), game.initial_state(), 0

    def timed(call, *call_args) -> tuple[list[dict], float, float]:
        """Run `call` on this thread: its queries, wall and CPU seconds."""
        with nullcontext(NOT_COUNTED) if args.uncounted else CaptureQueriesContext(connection) as captured:
            t0, c0 = time.perf_counter(), time.thread_time()
            if profiler:
                profiler.enable()
            call(*call_args)
            if profiler:
                profiler.disable()
            wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
        return captured.captured_queries, wall, cpu

    def socket_call(match_id: int, player_id: int, move: str, ply: int):
        close_old_connections()  # as Channels' database_sync_to_async does around each call
        try:
            return timed(_move, match_id, player_id, move, ply, None)
        finally:
            close_old_connections()

    match_id, players, state, ply = new_match()
    queries, wall, cpu, shown = 0, 0.0, 0.0, False
    for _ in range(args.moves):
        if game.is_terminal(state):
            match_id, players, state, ply = new_match()
        move = rng.choice(game.legal_moves(state))
        if args.socket:
            sql, w, c = db_thread.submit(socket_call, match_id, players[ply % 2], move, ply).result()
        else:
            sql, w, c = timed(submit_move, match_id, ply % 2, move, ply)
        queries, wall, cpu = queries + len(sql), wall + w, cpu + c
        if args.show_queries and ply == 9 and not shown:
            shown = True
            for q in sql:
                print(f"  {q['time']}s  {q['sql'][:160]}")
        state, ply = game.play(state, move), ply + 1
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    what = "a socket's move" if args.socket else "submit_move"
    print(
        f"{what} on PostgreSQL: {wall / args.moves * 1000:.2f} ms wall, {cpu / args.moves * 1000:.2f} ms CPU a move, "
        f"{queries / args.moves:.1f} queries a move ({args.moves} moves)  load {load}"
    )
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    db_thread.submit(lambda: connection.close()).result()  # the thread's own connection
    db_thread.shutdown()
    connection.close()


def run_connect(args: argparse.Namespace) -> None:
    """The database side of `--sockets` match sockets opening (both seats of half as many matches)."""
    from django.core.management import call_command
    from django.db import close_old_connections, connection
    from django.test.utils import CaptureQueriesContext

    from server.chat.selectors import PLAYERS
    from server.db.db_threads import PersistentConnectionThread
    from server.matches.consumers import _opening_frames
    from server.matches.services import SeatRequest, match_create, match_join, socket_arrived
    from server.players.services import player_create_guest_with_token
    from server.players.ws_auth import _resolve

    call_command("migrate", verbosity=0)
    sockets = []
    for _ in range(args.sockets // 2):
        (a, ta), (b, tb) = player_create_guest_with_token(), player_create_guest_with_token()
        match = match_create("connect4", [SeatRequest("human"), SeatRequest("human")], a)
        match_join(match.pk, b)
        sockets += [(match.pk, ta), (match.pk, tb)]
    connection.close()
    steps = {
        "token": lambda m, t, p: _resolve.func(t, None),
        "arrival": lambda m, t, p: socket_arrived(m, p.pk),
        "state": lambda m, t, p: _opening_frames(m, p.pk, None, PLAYERS),
    }
    totals = {name: [0, 0.0, 0.0] for name in steps}  # queries, wall, CPU
    profiler = cProfile.Profile() if args.profile else None

    def open_socket(match_id: int, token: str) -> dict[str, list]:
        player, sql_of = None, {}
        for name, step in steps.items():
            close_old_connections()
            with CaptureQueriesContext(connection) as captured:
                t0, c0 = time.perf_counter(), time.thread_time()
                if profiler:
                    profiler.enable()
                result = step(match_id, token, player)
                if profiler:
                    profiler.disable()
                totals[name][1] += time.perf_counter() - t0
                totals[name][2] += time.thread_time() - c0
            close_old_connections()
            player = result if name == "token" else player
            totals[name][0] += len(captured.captured_queries)
            sql_of[name] = captured.captured_queries
        return sql_of

    db_thread = PersistentConnectionThread("db-0")
    for i, (match_id, token) in enumerate(sockets):
        sql_of = db_thread.submit(open_socket, match_id, token).result()
        if args.show_queries and i == 10:
            for name, sql in sql_of.items():
                print(f"  {name}:")
                for q in sql:
                    print(f"    {q['time']}s  {q['sql'][:150]}")
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    n = len(sockets)
    for name, (queries, wall, cpu) in totals.items():
        print(f"  {name:8s} {queries / n:4.1f} queries  {wall / n * 1000:6.2f} ms wall  {cpu / n * 1000:6.2f} ms CPU")
    queries, wall, cpu = (sum(t[i] for t in totals.values()) for i in range(3))
    print(
        f"a socket's opening on PostgreSQL: {wall / n * 1000:.2f} ms wall, {cpu / n * 1000:.2f} ms CPU, "
        f"{queries / n:.1f} queries ({n} sockets)  load {load}"
    )
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    db_thread.submit(lambda: connection.close()).result()
    db_thread.shutdown()
    connection.close()


if __name__ == "__main__":
    main()

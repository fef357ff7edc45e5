"""The database side of one move: `submit_move` on PostgreSQL, its queries and where its CPU goes.

    .venv/bin/python benchmarks/move_cost.py [--moves 400] [--profile]

Creates a fresh database on 127.0.0.1:5432 (dropped at the end), plays `--moves` Connect
Four moves between two people through `submit_move` on one thread with a kept connection
(as a web process's database thread does), the broadcast going to the in-memory layer, and
prints the mean time per move, the queries per move, and with `--profile` the top
functions by cumulative time (cProfile).
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from tests.faults.stack import POSTGRES_URL  # noqa: E402

NAME = f"plyground_movecost_{uuid.uuid4().hex[:8]}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{NAME}"')
    try:
        os.environ["DATABASE_URL"] = POSTGRES_URL.rsplit("/", 1)[0] + "/" + NAME
        os.environ["DJANGO_SETTINGS_MODULE"] = "server.config.settings.dev"
        os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from games import registry
        from server.matches.services import SeatRequest, match_create, match_join, submit_move
        from server.players.services import player_create_guest

        call_command("migrate", verbosity=0)
        connection.close_at = None
        game = registry.get("connect4")
        rng = random.Random(1)

        def new_match():
            a, b = player_create_guest(), player_create_guest()
            match = match_create("connect4", [SeatRequest("human"), SeatRequest("human")], a)
            match_join(match.pk, b)
            return match.pk, game.initial_state(), 0

        match_id, state, ply = new_match()
        queries, elapsed = 0, 0.0
        profiler = cProfile.Profile() if args.profile else None
        for _ in range(args.moves):
            if game.is_terminal(state):
                match_id, state, ply = new_match()
            move = rng.choice(game.legal_moves(state))
            with CaptureQueriesContext(connection) as captured:
                t0 = time.perf_counter()
                if profiler:
                    profiler.enable()
                submit_move(match_id, ply % 2, move, ply)
                if profiler:
                    profiler.disable()
                elapsed += time.perf_counter() - t0
            queries += len(captured)
            state, ply = game.play(state, move), ply + 1
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        print(
            f"submit_move on PostgreSQL: {elapsed / args.moves * 1000:.2f} ms a move, "
            f"{queries / args.moves:.1f} queries a move ({args.moves} moves)  load {load}"
        )
        if profiler:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        connection.close()
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{NAME}" WITH (FORCE)')


if __name__ == "__main__":
    main()

"""Reading PostgreSQL timestamps: Django's loader against `server/db/timestamps.py`, in one run.

    .venv/bin/python benchmarks/timestamps.py [--values 8] [--queries 3000] [--rounds 3]

On a connection to 127.0.0.1:5432 (database `test`, nothing written) in UTC, as Django sets
it: one query returning `--values` timestamps (a move reads about five: the match's and its seats'),
read `--queries` times with each loader, alternating for `--rounds`.  Prints the CPU time a
query and the difference a value.  The query's own round trip is in both figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.dev")

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402

from server.db.timestamps import UtcTimestampLoader, _DjangosLoader  # noqa: E402
from tests.faults.stack import POSTGRES_URL  # noqa: E402


def cpu_a_query(conn: psycopg.Connection, loader: type, sql: str, queries: int) -> float:
    conn.adapters.register_loader("timestamptz", loader)
    cursor = conn.cursor()
    start = time.process_time()
    for _ in range(queries):
        cursor.execute(sql)
        cursor.fetchall()
    return (time.process_time() - start) / queries


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--values", type=int, default=8)
    parser.add_argument("--queries", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sql = "SELECT " + ", ".join(f"now() - interval '{i} minutes {i} microseconds'" for i in range(args.values))
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        figures: dict[str, list[float]] = {"Django's loader": [], "this loader": []}
        for _ in range(args.rounds):
            figures["Django's loader"].append(cpu_a_query(conn, _DjangosLoader, sql, args.queries))
            figures["this loader"].append(cpu_a_query(conn, UtcTimestampLoader, sql, args.queries))
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"a query of {args.values} timestamps, {args.queries} queries a run, {args.rounds} runs each; load {load}")
    for name, runs in figures.items():
        each = ", ".join(f"{r * 1e6:.1f}" for r in runs)
        print(f"  {name:16} {min(runs) * 1e6:6.1f} µs of CPU a query (runs {each})")
    saved = (min(figures["Django's loader"]) - min(figures["this loader"])) / args.values
    print(f"  saved a value: {saved * 1e6:.1f} µs")


if __name__ == "__main__":
    main()

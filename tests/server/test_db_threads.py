"""The web process's database threads keep their connections and replace one the server
hung up on, checked on its socket rather than with a query (server/db/db_threads.py)."""

from __future__ import annotations

import time

import psycopg

from server.db.db_threads import hung_up
from tests.faults.stack import POSTGRES_URL


def test_an_idle_connection_is_kept_and_one_the_server_ended_is_not(postgres):
    with psycopg.connect(POSTGRES_URL, autocommit=True) as kept:
        kept.execute("SELECT 1").fetchone()
        assert not hung_up(kept)
        pid = kept.execute("SELECT pg_backend_pid()").fetchone()[0]
        postgres.execute("SELECT pg_terminate_backend(%s)", (pid,))
        deadline = time.monotonic() + 5
        while not hung_up(kept) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert hung_up(kept)


def test_a_closed_connection_is_hung_up(postgres):
    conn = psycopg.connect(POSTGRES_URL, autocommit=True)
    conn.close()
    assert hung_up(conn)

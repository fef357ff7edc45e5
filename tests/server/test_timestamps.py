"""PostgreSQL timestamps read by Python's C parser (server/db/timestamps.py) are the
values Django's own loader reads, and every connection of Django's in UTC takes it."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from server.db.timestamps import UtcTimestampLoader, _DjangosLoader

VALUES = [
    "now()",
    "'2026-12-06 01:17:07.301278+00'",
    "'2026-01-01 00:00:00+00'",  # PostgreSQL leaves out a fraction of zero
    "'2026-06-01 12:00:00.5+05:30'",  # written back in the session's zone
    "'0001-01-01 00:00:00+00'",
    "'9999-12-31 23:59:59.999999+00'",
    "'10000-01-01 00:00:00+00'",  # past Python's datetime: an error either way
    "'0044-03-15 12:00:00+00 BC'",
    "'infinity'",
    "'-infinity'",
]


def _read(conn: psycopg.Connection, loader: type, value: str) -> object:
    conn.adapters.register_loader("timestamptz", loader)
    try:
        return conn.execute(f"SELECT {value}::timestamptz").fetchone()[0]
    except (psycopg.DataError, NotImplementedError) as error:  # out of range; a date style psycopg cannot read
        return type(error)


@pytest.mark.parametrize("zone", ["UTC", "Asia/Kolkata"])
def test_each_value_is_read_as_djangos_loader_reads_it(postgres, zone):
    """In UTC (as Django sets the session) and in another zone (the fast path does not apply)."""
    postgres.execute(f"SET TimeZone = '{zone}'")
    postgres.execute("SET datestyle = 'ISO'")
    for value in VALUES:
        if value == "now()":
            postgres.execute("BEGIN")  # one transaction: now() is the same for both reads
        ours, djangos = _read(postgres, UtcTimestampLoader, value), _read(postgres, _DjangosLoader, value)
        if value == "now()":
            postgres.execute("COMMIT")
        assert ours == djangos, value
        assert getattr(ours, "tzinfo", None) is getattr(djangos, "tzinfo", None), value


@pytest.mark.parametrize("style", ["SQL", "Postgres", "German"])
def test_another_date_style_is_read_by_djangos_loader(postgres, style):
    postgres.execute("SET TimeZone = 'UTC'")
    postgres.execute(f"SET datestyle = '{style}'")
    assert _read(postgres, UtcTimestampLoader, VALUES[1]) == _read(postgres, _DjangosLoader, VALUES[1])


@pytest.mark.django_db
def test_djangos_connections_to_postgresql_read_with_it():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite stores timestamps as text: Django reads them itself")
    with connection.cursor() as cursor:
        cursor.execute("SELECT '2026-12-06 01:17:07.301278+00'::timestamptz")
        read = cursor.fetchone()[0]
        assert cursor.cursor.adapters.get_loader(1184, psycopg.pq.Format.TEXT) is UtcTimestampLoader
    assert read.isoformat() == "2026-12-06T01:17:07.301278+00:00"

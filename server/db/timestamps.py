"""PostgreSQL timestamps parsed by Python's C parser instead of Django's loader in Python.

Django registers, on each PostgreSQL connection, a `timestamptz` loader of its own: a Python
subclass of psycopg's pure-Python loader (psycopg's C one cannot be subclassed), there only
to set the time zone.  So each timestamp a query returns was parsed by a regular expression
in Python, and each result's loaders built with a look at the connection's date style: CPU
on every value (`benchmarks/timestamps.py` measures it).  A move reads about five (the match's
and its seats'), a socket's opening one for each move played.  With the session in UTC, as
Django sets it when USE_TZ is on, PostgreSQL writes `2026-12-06 01:17:07.301278+00`, which
`datetime.fromisoformat` reads in well under a microsecond, already in UTC.  Anything else
(another zone's offset, BC dates, years past 9999, infinity, another date style) goes to
Django's loader, as before.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg.adapt import Buffer, Loader

UTC = datetime.UTC


class _DjangosLoader(BaseTzLoader):  # type: ignore[misc]  # psycopg's loader, untyped as Django re-exports it
    timezone = UTC


class UtcTimestampLoader(Loader):
    """Django's `timestamptz` loader for a connection in UTC, with a fast path for the usual text."""

    timezone = UTC  # Django's cursor registers its own loader when this differs from the connection's
    _django: _DjangosLoader | None = None  # made for the first value off the fast path

    def load(self, data: Buffer) -> datetime.datetime:
        text = bytes(data)
        if text.endswith(b"+00"):
            try:
                return datetime.datetime.fromisoformat(text.decode())
            except ValueError:
                pass
        if self._django is None:
            self._django = _DjangosLoader(self.oid, self.connection)
        loaded: datetime.datetime = self._django.load(data)
        return loaded


def read_timestamps_in_c(sender: Any, connection: Any, **kwargs: Any) -> None:
    """On `connection_created`: PostgreSQL connections whose Django time zone is UTC take the loader."""
    if connection.vendor == "postgresql" and connection.timezone == UTC:
        connection.connection.adapters.register_loader("timestamptz", UtcTimestampLoader)

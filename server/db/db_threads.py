"""The web process's database work runs on a few threads, each with a connection it keeps.

Channels runs every ``database_sync_to_async`` call on one thread per process (asgiref's
thread-sensitive executor), and with ``CONN_MAX_AGE = 0`` each call opened and closed its
own PostgreSQL connection.  So one process did one database call at a time, each paying a
new connection, and a burst of connects queued for seconds.

Here each socket is given one of `DB_THREADS` threads for its whole life, round robin,
through asgiref's ``ThreadSensitiveContext(executor=...)``:

- a socket's calls still run one at a time and always on the same thread, as Channels and
  Django expect (Django's connections are thread-local, and thread-sensitive code stays on
  one thread), but up to `DB_THREADS` sockets reach the database at once;
- each thread keeps its database connection between calls, so a process holds
  `DB_THREADS` + 1 connections, however many sockets it serves.  Background loops (watch,
  heartbeat, bot watchdog) keep Channels' default thread, and HTTP requests Django's thread
  per request (a streamed export may take minutes: it must not hold the sockets' threads);
- a kept connection the server hung up on (a restart, a terminated backend) is replaced
  before the call, checked on its socket without a round trip: Django's health check (a
  `SELECT 1` before the first query of every call) cost one more query on every move and
  every socket's open.

SQLite takes one writer at a time whatever the threads, so it keeps one thread by default.
"""

from __future__ import annotations

import itertools
import os
import select
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from channels.consumer import get_handler_name
from django.conf import settings
from django.db import connections


def thread_count() -> int:
    default = "1" if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") else "4"
    return max(1, int(os.environ.get("DB_THREADS", default)))


class PersistentConnectionThread(ThreadPoolExecutor):
    """One thread whose database connections outlive each call (they are closed only when broken)."""

    def __init__(self, name: str) -> None:
        super().__init__(max_workers=1, thread_name_prefix=name)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return super().submit(_keeping_connections, fn, *args, **kwargs)

    def close_connections(self) -> None:
        """Close the thread's connections now (they are otherwise kept for the process's life):
        a test run's database cannot be dropped while they are open."""
        super().submit(connections.close_all).result()


def _keeping_connections(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Open the thread's connection if needed and mark it as never too old (`close_at` None):
    Channels' `close_old_connections()` around each call then keeps it unless it broke.

    A PostgreSQL connection the server hung up on is replaced first; the health check Django
    would make with a query is then not needed for this call (a connection that breaks during
    the call fails it, and Django closes it after: the next call opens a new one).
    """
    for conn in connections.all(initialized_only=False):
        if conn.connection is not None and conn.vendor == "postgresql" and hung_up(conn.connection):
            conn.close()
        if conn.connection is None:
            conn.ensure_connection()
        conn.close_at = None
        if conn.vendor == "postgresql":
            conn.health_check_enabled = False  # type: ignore[attr-defined]  # checked just above, without a round trip; Django's, not in the stubs
    return fn(*args, **kwargs)


def hung_up(raw: Any) -> bool:
    """Whether an idle PostgreSQL connection has something to read: between calls nothing is
    owed to it, so that is the server closing it (or its last words before closing)."""
    if raw.closed or raw.broken:
        return True
    poller = select.poll()  # not select(): a process with 1,000 sockets has descriptors past 1024
    try:
        poller.register(raw.fileno(), select.POLLIN)
    except (OSError, ValueError):
        return True
    return bool(poller.poll(0))


class DatabaseThreads:
    """ASGI middleware: each socket's thread-sensitive calls go to one of a few threads."""

    def __init__(self, app: Callable[..., Any], threads: int | None = None) -> None:
        self.app = app
        self.executors = [PersistentConnectionThread(f"db-{i}") for i in range(threads or thread_count())]
        self._next = itertools.cycle(self.executors)
        self._lock = threading.Lock()

    def close_connections(self) -> None:
        for executor in self.executors:
            executor.close_connections()

    async def __call__(self, scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> Any:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        with self._lock:
            executor = next(self._next)
        async with ThreadSensitiveContext(executor=executor):
            return await self.app(scope, receive, send)


class NoDatabaseHopPerMessage:
    """A consumer mixin: handle each message without a hop to the socket's database thread first.

    Channels (4.2 and later) runs ``close_old_connections()`` on the socket's thread-sensitive
    thread -- here its database thread -- before *every* message a consumer handles, the frames
    relayed to it from its groups included.  So each socket that should hear a move first
    queued behind other sockets' database calls on that thread, and paid a thread hop, for a
    frame that needs no database at all.  Our consumers reach the database only through
    ``database_sync_to_async``, which closes old connections around each call on its own
    thread, so the hop is skipped.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

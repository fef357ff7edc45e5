"""The web process's database work runs on a few threads, each with a connection it keeps.

Channels runs every ``database_sync_to_async`` call on one thread per process (asgiref's
thread-sensitive executor), and with ``CONN_MAX_AGE = 0`` each call opened and closed its
own PostgreSQL connection (~5 ms on loopback).  So one process did one database call at a
time, each paying a connection: ~30 moves/s, and a burst of connects queued for seconds.

Here each socket is given one of `DB_THREADS` threads for its whole life, round robin,
through asgiref's ``ThreadSensitiveContext(executor=...)``:

- a socket's calls still run one at a time and always on the same thread, as Channels and
  Django expect (Django's connections are thread-local, and thread-sensitive code stays on
  one thread), but up to `DB_THREADS` sockets reach the database at once;
- each thread keeps its database connection between calls (Django's health checks still
  replace one that broke), so a process holds `DB_THREADS` + 1 connections, however many
  sockets it serves.  Background loops (watch, heartbeat, bot watchdog) keep Channels'
  default thread, and HTTP requests Django's thread per request (a streamed export may take
  minutes: it must not hold the sockets' threads).

SQLite takes one writer at a time whatever the threads, so it keeps one thread by default.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from django.db import connections


def thread_count() -> int:
    default = "1" if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") else "4"
    return max(1, int(os.environ.get("DB_THREADS", default)))


class PersistentConnectionThread(ThreadPoolExecutor):
    """One thread whose database connections outlive each call (they are closed only when broken)."""

    def __init__(self, name: str) -> None:
        super().__init__(max_workers=1, thread_name_prefix=name)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        return super().submit(_keeping_connections, fn, *args, **kwargs)


def _keeping_connections(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Open the thread's connection if needed and mark it as never too old (`close_at` None):
    Channels' `close_old_connections()` around each call then keeps it unless it broke."""
    for conn in connections.all(initialized_only=False):
        if conn.connection is None:
            conn.ensure_connection()
        conn.close_at = None
    return fn(*args, **kwargs)


class DatabaseThreads:
    """ASGI middleware: each socket's thread-sensitive calls go to one of a few threads."""

    def __init__(self, app: Callable[..., Any], threads: int | None = None) -> None:
        self.app = app
        self.executors = [PersistentConnectionThread(f"db-{i}") for i in range(threads or thread_count())]
        self._next = itertools.cycle(self.executors)
        self._lock = threading.Lock()

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> Any:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        with self._lock:
            executor = next(self._next)
        async with ThreadSensitiveContext(executor=executor):
            return await self.app(scope, receive, send)

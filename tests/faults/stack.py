"""A full stack whose parts a test can kill and restart one by one, on loopback.

Unlike `tests.support.LiveStack` (one `python -m server.run`), each part is its own
process here: a private redis-server (so restarting it touches nobody else), daphne,
and Celery workers, on a fresh SQLite file or a fresh PostgreSQL database.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import psycopg
import redis

from tests.support import ONE_ADDRESS_FOR_MANY, ROOT, StackClient, free_port

POSTGRES_URL = os.environ.get("FAULTS_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
CELERY = str(Path(sys.executable).with_name("celery"))


def postgres_reachable() -> bool:
    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
    except psycopg.Error:
        return False
    return True


class FaultStack(StackClient):
    """Redis, daphne and workers as separate processes; `kill`, `start_*` and `restart_redis` between moves."""

    def __init__(self, database: str = "sqlite") -> None:
        self.database = database
        self.tmp = tempfile.TemporaryDirectory(prefix="plyground-faults-")
        self.dir = Path(self.tmp.name)
        self.redis_port, self.port = free_port(), free_port()
        self.url, self.ws_url = f"http://127.0.0.1:{self.port}", f"ws://127.0.0.1:{self.port}"
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.db_name = f"plyground_faults_{uuid.uuid4().hex[:10]}"
        self.procs: dict[str, subprocess.Popen] = {}
        self.web_ports: dict[str, int] = {"web": self.port}  # web process name -> its port
        self.workers = 0
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "server.config.settings.dev",
            "DATABASE_URL": self._database_url(),
            "REDIS_URL": self.redis_url,
            "CHANNEL_PREFIX": f"faults-{self.port}",
            "CELERY_QUEUE": f"faults-{self.port}",
            "PYTHONUNBUFFERED": "1",
            **ONE_ADDRESS_FOR_MANY,
        }

    # --- the whole stack -------------------------------------------------------------

    def __enter__(self) -> FaultStack:
        if self.database == "postgres":
            with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.db_name}"')
        self.manage("migrate", "--noinput", "-v0")
        self.manage("seed_bots")
        self.start_redis()
        self.start_web()
        self.start_worker()
        return self

    def __exit__(self, *exc: object) -> None:
        for name in list(self.procs):
            self.kill(name, signal.SIGKILL)
        if self.database == "postgres":
            with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        self.tmp.cleanup()

    def _database_url(self) -> str:
        if self.database == "postgres":
            return POSTGRES_URL.rsplit("/", 1)[0] + "/" + self.db_name
        return f"sqlite:///{self.dir}/db.sqlite3"

    def manage(self, *args: str) -> str:
        out = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, check=True
        )
        return out.stdout

    def sql(self, query: str, *params: Any) -> list[tuple]:
        """Read the stack's database directly (what is stored, whatever the server says)."""
        if self.database == "postgres":
            with psycopg.connect(self.env["DATABASE_URL"]) as conn:
                return conn.execute(query.replace("?", "%s"), params).fetchall()
        import sqlite3

        with sqlite3.connect(self.dir / "db.sqlite3") as conn:
            return conn.execute(query, params).fetchall()

    # --- the parts -------------------------------------------------------------------

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = open(self.dir / f"{name}.log", "a")  # noqa: SIM115 - the child holds it
        proc = subprocess.Popen(
            argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        path = self.dir / f"{name}.log"
        return path.read_text() if path.exists() else ""

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text()[-6000:]}" for p in sorted(self.dir.glob("*.log")))

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Signal a part's whole process group (a worker's pool children too) and wait for it."""
        proc = self.procs.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        proc.wait(20)

    def start_redis(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        argv = [binary, "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self._spawn("redis", argv)
        self._until(lambda: redis.Redis(port=self.redis_port, socket_connect_timeout=0.2).ping(), "redis")

    def restart_redis(self, down_s: float = 1.0) -> None:
        """Redis goes away (its queues and groups with it, as an unpersisted Redis does) and comes back."""
        self.kill("redis", signal.SIGTERM)
        time.sleep(down_s)
        self.start_redis()

    def cut_database(self) -> None:
        """PostgreSQL refuses the stack's database and ends its open connections, as a restart or
        a failover does to the web and worker processes (the rest of the server runs on)."""
        assert self.database == "postgres", "only a PostgreSQL database can be cut"
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{self.db_name}" WITH ALLOW_CONNECTIONS false')
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (self.db_name,))

    def restore_database(self) -> None:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{self.db_name}" WITH ALLOW_CONNECTIONS true')

    def start_web(self, name: str = "web") -> str:
        """A daphne process; `web` serves `self.url`, any other name its own port (a second replica).

        Every web process of the stack shares its database, Redis and channel prefix, as replicas
        behind a proxy do.  Returns the WebSocket base URL of that process.
        """
        port = self.web_ports.setdefault(name, self.port if name == "web" else free_port())
        argv = [sys.executable, "-m", "server.asgi_server", "-b", "127.0.0.1", "-p", str(port)]
        self._spawn(name, [*argv, "server.config.asgi:application"])
        self._until(lambda: self._get(f"http://127.0.0.1:{port}/api/games/"), name)
        return self.ws_url_of(name)

    def ws_url_of(self, name: str) -> str:
        return f"ws://127.0.0.1:{self.web_ports[name]}"

    @staticmethod
    def _get(url: str) -> bool:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status == 200

    def start_worker(self) -> str:
        self.workers += 1
        name = f"worker{self.workers}"
        start = len(self.log(name))
        argv = [CELERY, "-A", "server.config", "worker", "--loglevel", "INFO", "--concurrency", "1"]
        self._spawn(name, [*argv, "-n", f"{name}-{self.port}@%h"])
        self._until(lambda: " ready." in self.log(name)[start:], name)
        return name

    def _until(self, ready, what: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if ready():
                    return
            except (OSError, redis.RedisError, urllib.error.URLError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{what} not ready after {timeout}s:\n{self.logs()}")

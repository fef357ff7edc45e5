"""A real Plyground stack in subprocesses, on loopback, for full-stack, browser and load tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/9")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveStack:
    """``python -m server.run`` against a fresh SQLite file: daphne + Celery + Redis, or embedded.

    >>> with LiveStack() as stack:  # doctest: +SKIP
    ...     stack.api("GET", "/api/games/")
    """

    def __init__(self, embedded: bool = False, extra_env: dict[str, str] | None = None) -> None:
        self.embedded = embedded
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.tmp = tempfile.TemporaryDirectory(prefix="plyground-live-")
        self.log_path = Path(self.tmp.name) / "server.log"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "server.config.settings.dev",
            "DATABASE_URL": f"sqlite:///{self.tmp.name}/db.sqlite3",
            "PYTHONUNBUFFERED": "1",
            **(extra_env or {}),
        }
        if embedded:
            # Nothing listens on port 1, and no redis-server is found: embedded mode.
            self.env.update(REDIS_URL="redis://127.0.0.1:1/0", PATH=os.path.dirname(sys.executable))
        else:
            # Its own channel prefix and task queue: stacks sharing a Redis never cross.
            self.env.update(
                REDIS_URL=REDIS_TEST_URL,
                CHANNEL_PREFIX=f"plyground-test-{self.port}",
                CELERY_QUEUE=f"plyground-test-{self.port}",
            )
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> LiveStack:
        self.manage("migrate", "--noinput", "-v0")
        self.log = open(self.log_path, "w")  # noqa: SIM115 - closed in __exit__
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self.log.close()
        self.tmp.cleanup()

    def start(self) -> None:
        """Start the server (again: same port, database and queue) and wait until it serves."""
        self.log.flush()
        self.started_at_log = self.log_path.stat().st_size  # readiness is read from this start's lines
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server.run", "--port", str(self.port)],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_ready()

    def stop(self) -> None:
        """Stop every process of the stack, as Ctrl-C does."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)

    def manage(self, *args: str) -> str:
        out = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, check=True
        )
        return out.stdout

    def server_log(self) -> str:
        return self.log_path.read_text()

    def _wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.server_log()}")
            try:
                self.api("GET", "/api/games/")
                if self.embedded or "ready" in self.server_log()[self.started_at_log :]:  # the worker consumes
                    return
            except (urllib.error.URLError, ConnectionError):
                pass
            time.sleep(0.3)
        raise RuntimeError(f"server not ready after {timeout}s:\n{self.server_log()}")

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")

    def guest(self) -> tuple[dict[str, Any], str]:
        made = self.api("POST", "/api/players/guest/", {})
        return made["player"], made["token"]

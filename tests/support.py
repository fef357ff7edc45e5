"""A real Plyground stack in subprocesses, on loopback, for full-stack, browser and load tests."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from server.run import die_with_parent

ROOT = Path(__file__).resolve().parents[1]
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, ... on a pytest-xdist worker


def redis_url_plus(url: str, databases: int) -> str:
    """The database `databases` further on, on the same Redis server.

    >>> redis_url_plus("redis://127.0.0.1:6379/9", 4)
    'redis://127.0.0.1:6379/13'
    >>> redis_url_plus("redis://127.0.0.1:6379", 1)
    'redis://127.0.0.1:6379/1'
    """
    parts = urllib.parse.urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{base + databases}"))


def worker_redis_url(url: str, worker: str | None) -> str:
    """The Redis database of one pytest-xdist worker: the run's own plus the worker's index
    (gw0 keeps it, gw1 the next), so the two workers of a pass never share one.

    >>> worker_redis_url("redis://127.0.0.1:6379/11", "gw1")
    'redis://127.0.0.1:6379/12'
    >>> worker_redis_url("redis://127.0.0.1:6379", None)
    'redis://127.0.0.1:6379'
    """
    if worker is None:
        return url
    return redis_url_plus(url, int(worker.removeprefix("gw")))


REDIS_TEST_URL = worker_redis_url(os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/9"), XDIST_WORKER)
os.environ["REDIS_TEST_URL"] = REDIS_TEST_URL  # and the processes a test starts
STACK_ID_ENV = "PLYGROUND_STACK_ID"
# Every process of every LiveStack of this test run carries PLYGROUND_STACK_ID=<this>-<port>,
# so the run can find what it started (and only that: other runs share the machine).  A
# pytest-xdist worker extends its controller's prefix (passed down in RUN_PREFIX_ENV) with its
# own name: it finds its own stacks, never the other worker's, and the controller finds all.
RUN_PREFIX_ENV = "PLYGROUND_TEST_RUN"
_controller_prefix = os.environ.get(RUN_PREFIX_ENV) if XDIST_WORKER else None
SESSION_STACK_PREFIX = (
    f"{_controller_prefix}{XDIST_WORKER}-" if _controller_prefix else f"pytest-{os.getpid()}-{uuid.uuid4().hex[:8]}-"
)
os.environ[RUN_PREFIX_ENV] = SESSION_STACK_PREFIX
# The full-stack and load tests open hundreds of sockets from 127.0.0.1, standing for as many
# clients: the per-address socket cap is off there unless a test sets it (extra_env), and so,
# in effect, is the address's cap on matches against bots (a player's stays as in production).
ONE_ADDRESS_FOR_MANY = {"SOCKETS_PER_ADDRESS": "0", "FAIR_SHARE_MATCHES_VS_BOTS": "5,0"}


def stack_processes(stack_id: str, prefix: bool = False) -> list[int]:
    """Pids of live processes whose PLYGROUND_STACK_ID is `stack_id`, or starts with it (Linux /proc)."""
    marker = f"{STACK_ID_ENV}={stack_id}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        variables = environ.split(b"\0")
        if state != "Z" and (any(v.startswith(marker) for v in variables) if prefix else marker in variables):
            found.append(int(entry.name))
    return found


def kill_stack_processes(stack_id: str, prefix: bool = False) -> list[int]:
    """SIGKILL every live process of the stack (or stacks, by prefix); returns the pids it found."""
    pids = stack_processes(stack_id, prefix)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return pids


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StackClient:
    """The HTTP API of a stack served at `self.url`."""

    url: str

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


class LiveStack(StackClient):
    """``python -m server.run`` against a fresh SQLite file: daphne + Celery + Redis, or embedded.

    >>> with LiveStack() as stack:  # doctest: +SKIP
    ...     stack.api("GET", "/api/games/")
    """

    def __init__(self, embedded: bool = False, extra_env: dict[str, str] | None = None, own_names: bool = True) -> None:
        """`own_names=False` leaves the channel prefix and task queue to the installation's defaults."""
        self.embedded = embedded
        self.port = free_port()
        self.stack_id = f"{SESSION_STACK_PREFIX}{self.port}"
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.tmp = tempfile.TemporaryDirectory(prefix="plyground-live-")
        self.log_path = Path(self.tmp.name) / "server.log"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "server.config.settings.dev",
            "DATABASE_URL": f"sqlite:///{self.tmp.name}/db.sqlite3",
            "PYTHONUNBUFFERED": "1",
            STACK_ID_ENV: self.stack_id,
            **ONE_ADDRESS_FOR_MANY,
            **(extra_env or {}),
        }
        for name in ("CHANNEL_PREFIX", "CELERY_QUEUE", "PLYGROUND_INSTALLATION"):
            if name not in (extra_env or {}):
                self.env.pop(name, None)  # never the caller's own installation's names
        if embedded:
            # Nothing listens on port 1, and no redis-server is found: embedded mode.
            self.env.update(REDIS_URL="redis://127.0.0.1:1/0", PATH=os.path.dirname(sys.executable))
        else:
            self.env["REDIS_URL"] = REDIS_TEST_URL
            if own_names:  # explicit names; without them the fresh database gives fresh ones
                self.env.setdefault("CHANNEL_PREFIX", f"plyground-test-{self.port}")
                self.env.setdefault("CELERY_QUEUE", f"plyground-test-{self.port}")
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> LiveStack:
        self.manage("migrate", "--noinput", "-v0")
        self.log = open(self.log_path, "w")  # noqa: SIM115 - closed in __exit__
        try:
            self.start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        finally:
            kill_stack_processes(self.stack_id)  # anything that outlived the stop
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
            # A killed test run takes its stacks with it.  The signal follows the thread that
            # started the child, so only the main thread (which lives as long as the run) arms it.
            preexec_fn=die_with_parent if threading.current_thread() is threading.main_thread() else None,
        )
        self._wait_ready()

    def stop(self) -> None:
        """Stop every process of the stack, as Ctrl-C does, and wait until none is left."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        deadline = time.monotonic() + 10
        while stack_processes(self.stack_id) and time.monotonic() < deadline:
            time.sleep(0.1)

    def processes(self) -> list[int]:
        """Pids of this stack's live processes: server.run, daphne, the worker and its pool."""
        return stack_processes(self.stack_id)

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


def race(calls, workers: int, join_s: float = 60) -> list:
    """Run `calls(i)` for i in range(workers) at once, from as many threads; their results or exceptions.

    Each thread closes its database connection when done (Django opens one per thread).
    """
    from django.db import connection

    barrier = threading.Barrier(workers)
    results: list = [None] * workers

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls(i)
        except Exception as exc:  # returned to the test, which asserts on it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(join_s)
    return results

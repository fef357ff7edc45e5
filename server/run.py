"""Start Plyground: ``python -m server.run [--port 8000]`` (what ``make run`` calls).

With Redis reachable at ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``), or a
``redis-server`` binary on the PATH to start one, it runs the full stack: daphne, a
Celery worker, Celery beat (the tournament tick) and the Redis channel layer.  Otherwise it runs the embedded mode of
docs/design.md §4 and says so.

It supervises what it starts: a child that exits is started again, with a growing pause
and a log line (a child that exits early at each of its first three starts stops the stack:
that is a configuration error, such as a port in use, not a crash).  Ctrl-C, SIGTERM or SIGHUP stop
every process it started; so does its own death, SIGKILL included: each child gets a
parent-death signal (Linux ``PR_SET_PDEATHSIG``, a watchdog thread elsewhere), and the
Celery worker's pool processes too (``server.worker``).  Every child carries
``PLYGROUND_STACK_ID`` in its environment, so a stack's processes can be found.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlparse

import redis

log = logging.getLogger("plyground.run")
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
STACK_ID_ENV = "PLYGROUND_STACK_ID"
PR_SET_PDEATHSIG = 1
STABLE_AFTER_S = 10.0  # a child that ran this long has started; an exit before is an early exit
RESTART_PAUSES_S = (1.0, 2.0, 4.0, 8.0, 15.0)  # between restarts while a child keeps exiting early
FIRST_START_TRIES = 3  # a child that never started after this many early exits is misconfigured: stop
STOP_GRACE_S = 10.0  # SIGTERM, then SIGKILL: a worker finishes the searches it is running
WORKER_MAX_MEMORY_KB = 300_000  # a pool process that grew past this is replaced after its task


LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Have the kernel send `sig` to this process when its parent exits, however it exits.

    Linux only (``prctl(PR_SET_PDEATHSIG)``); elsewhere a thread polls the parent's pid.
    Called in a child between fork and exec (``preexec_fn``), or at the start of a process.
    """
    parent = os.getppid()
    if LIBC is not None:
        if LIBC.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    else:  # pragma: no cover - not Linux

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1)
            os.kill(os.getpid(), sig)

        threading.Thread(target=watch, name="die-with-parent", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the signal was armed
        os.kill(os.getpid(), sig)


def redis_reachable(url: str, timeout: float = 0.5) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout).ping())
    except (redis.RedisError, OSError, ValueError):
        return False


def redis_server_argv(url: str) -> list[str] | None:
    """How to start a throwaway redis-server on the URL's port, or None when there is no binary."""
    binary = shutil.which("redis-server")
    parsed = urlparse(url)
    if binary is None or parsed.hostname not in ("127.0.0.1", "localhost"):
        return None
    port = str(parsed.port or 6379)
    return [binary, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]


@dataclass
class Child:
    """One supervised process: started again when it exits, until the stack stops."""

    name: str
    argv: list[str]
    env: dict[str, str]
    quiet: bool = False
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    ever_stable: bool = False
    quick_exits: int = 0
    restart_at: float | None = None
    restarts: int = field(default=0)

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.argv,
            env=self.env,
            # A session of its own: a terminal's Ctrl-C reaches only us, and we stop the
            # child's whole process group (the worker's pool processes with it).
            start_new_session=True,
            preexec_fn=die_with_parent,
            stdout=subprocess.DEVNULL if self.quiet else None,
        )
        self.started_at = time.monotonic()
        self.restart_at = None

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal_group(self, sig: int) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)


class Stack:
    """The child processes: supervised while running, stopped together."""

    def __init__(self) -> None:
        self.children: list[Child] = []
        self.stopping = threading.Event()

    def spawn(self, name: str, argv: list[str], env: dict[str, str], quiet: bool = False) -> Child:
        child = Child(name, argv, env, quiet=quiet)
        child.start()
        self.children.append(child)
        return child

    def supervise(self, poll_s: float = 0.3) -> int:
        """Restart children that exit, until told to stop (0) or a child cannot start (its code)."""
        while not self.stopping.wait(poll_s):
            now = time.monotonic()
            for child in self.children:
                if child.restart_at is not None:
                    if now >= child.restart_at:
                        log.warning("%s: starting again (restart %d)", child.name, child.restarts)
                        child.start()
                    continue
                if child.running():
                    if now - child.started_at >= STABLE_AFTER_S:
                        child.ever_stable, child.quick_exits = True, 0
                    continue
                assert child.proc is not None  # not running and not waiting to restart: it ran, and exited
                code = child.proc.returncode
                ran = now - child.started_at
                pause = RESTART_PAUSES_S[min(child.quick_exits, len(RESTART_PAUSES_S) - 1)]
                child.quick_exits += ran < STABLE_AFTER_S
                if not child.ever_stable and child.quick_exits >= FIRST_START_TRIES:
                    log.error("%s exited with code %s at each of its first starts: stopping", child.name, code)
                    return code or 1
                child.restarts += 1
                child.restart_at = now + pause
                log.error("%s exited with code %s after %.0f s: restarting in %.0f s", child.name, code, ran, pause)
        return 0

    def stop(self) -> None:
        """SIGTERM to every child's process group, newest first; SIGKILL to what is left after the grace."""
        for child in reversed(self.children):
            if child.running():
                child.signal_group(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        for child in self.children:
            if child.proc is None:
                continue
            try:
                child.proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("%s still running after %.0f s: killing it", child.name, STOP_GRACE_S)
            child.signal_group(signal.SIGKILL)  # its pool processes too, should any have lingered
            child.proc.wait()


def worker_argv(env: dict[str, str]) -> list[str]:
    """The Celery worker: all of the installation's queues, pool processes replaced when they grow."""
    return [
        sys.executable,
        "-m",
        "server.worker",
        "--loglevel",
        "INFO",
        "--concurrency",
        env.get("WORKER_CONCURRENCY", "2"),
        "--max-memory-per-child",
        env.get("WORKER_MAX_MEMORY_KB", str(WORKER_MAX_MEMORY_KB)),
    ]


def reserved_worker_argv(env: dict[str, str]) -> list[str] | None:
    """The reserved worker: only people's bot turns and hints (``server.worker --reserved``).

    However many long bot-vs-bot searches or analyses keep the other worker busy, one of
    its processes comes free within a hint's budget for a person's bot turn.  None when
    ``WORKER_RESERVED_CONCURRENCY`` is 0 or ``BOT_FAIR_SHARE`` is off.
    """
    concurrency = env.get("WORKER_RESERVED_CONCURRENCY", "1")
    if concurrency == "0" or env.get("BOT_FAIR_SHARE", "1") == "0":
        return None
    argv = worker_argv({**env, "WORKER_CONCURRENCY": concurrency})
    return [*argv[:3], "--reserved", *argv[3:]]


def beat_argv() -> list[str]:
    """Celery beat: sends the periodic tasks of settings' ``CELERY_BEAT_SCHEDULE`` (the tournament tick).

    Its schedule lives in memory (``celery.beat:Scheduler``): nothing to write or clean up, and a
    tick missed while it restarts is simply the next one.  One beat per installation: two would
    only tick twice as often, which the tick allows (it is idempotent under row locks).
    """
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "server.config",
        "beat",
        "--loglevel",
        "WARNING",  # at INFO it writes a line for every tick it sends
        "--scheduler",
        "celery.beat:Scheduler",
    ]


def install_stop_handlers(stop: Callable[[], None]) -> None:
    """Ctrl-C, SIGTERM and SIGHUP stop the stack (set explicitly: a background start may ignore SIGINT)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: stop())


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    args = parser.parse_args(argv)

    if os.environ.get("MAKELEVEL"):  # `make run`: stop when make stops, SIGKILLed included
        die_with_parent(signal.SIGTERM)
    env = dict(os.environ)
    env.pop("MAKELEVEL", None)
    env.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.dev")
    env.setdefault(STACK_ID_ENV, f"run-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    redis_url = env.get("REDIS_URL") or DEFAULT_REDIS_URL
    stack = Stack()
    install_stop_handlers(stack.stopping.set)
    try:
        full = redis_reachable(redis_url)
        if not full and (redis_argv := redis_server_argv(redis_url)) is not None:
            own_redis = stack.spawn("redis-server", redis_argv, env, quiet=True)
            for _ in range(50):
                if full := redis_reachable(redis_url):
                    log.info("started redis-server for %s", redis_url)
                    own_redis.ever_stable = True  # restart it should it die: the stack needs it
                    break
                time.sleep(0.1)
            else:
                stack.stop()
                stack.children.clear()
        daphne = [sys.executable, "-m", "server.asgi_server", "-b", args.host, "-p", str(args.port)]
        if full:
            env["REDIS_URL"] = redis_url
            log.info("full stack: daphne, the Celery workers and beat, and the Redis channel layer at %s", redis_url)
            stack.spawn("celery worker", worker_argv(env), env)
            if (reserved := reserved_worker_argv(env)) is not None:
                stack.spawn("reserved celery worker", reserved, env)
            stack.spawn("celery beat", beat_argv(), env)
        else:
            env.pop("REDIS_URL", None)
            log.warning(
                "embedded mode: no Redis at %s and no redis-server on the PATH; "
                "SQLite, in-memory channel layer, bot searches in a local process pool",
                redis_url,
            )
        stack.spawn("daphne", [*daphne, "server.config.asgi:application"], env)
        log.info("Plyground is on http://%s:%s/ (Ctrl-C stops it)", args.host, args.port)
        code = stack.supervise()
        log.info("stopping")
        return code
    finally:
        stack.stop()


if __name__ == "__main__":
    sys.exit(main())

"""Start Plyground: ``python -m server.run [--port 8000]`` (what ``make run`` calls).

With Redis reachable at ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``), or a
``redis-server`` binary on the PATH to start one, it runs the full stack: daphne, a
Celery worker and the Redis channel layer.  Otherwise it runs the embedded mode of
DESIGN §4 and says so.  Ctrl-C stops every process it started.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from urllib.parse import urlparse

import redis

log = logging.getLogger("plyground.run")
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_reachable(url: str, timeout: float = 0.5) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout).ping())
    except (redis.RedisError, OSError, ValueError):
        return False


def start_redis(url: str) -> subprocess.Popen | None:
    """Start a throwaway redis-server on the URL's port, or None when there is no binary."""
    binary = shutil.which("redis-server")
    parsed = urlparse(url)
    if binary is None or parsed.hostname not in ("127.0.0.1", "localhost"):
        return None
    port = str(parsed.port or 6379)
    proc = subprocess.Popen(
        [binary, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    for _ in range(50):
        if redis_reachable(url):
            return proc
        time.sleep(0.1)
    proc.terminate()
    return None


class Stack:
    """The child processes, stopped together."""

    def __init__(self) -> None:
        self.procs: list[tuple[str, subprocess.Popen]] = []

    def add(self, name: str, proc: subprocess.Popen) -> None:
        self.procs.append((name, proc))

    def spawn(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        self.add(name, subprocess.Popen(argv, env=env, start_new_session=True))

    def wait(self) -> int:
        """Until a child exits (then stop the rest) or we are told to stop."""
        while True:
            for name, proc in self.procs:
                code = proc.poll()
                if code is not None:
                    log.error("%s exited with code %s: stopping", name, code)
                    return code or 1
            time.sleep(0.3)

    def stop(self) -> None:
        for _, proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for _, proc in self.procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    args = parser.parse_args(argv)

    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.dev")
    redis_url = env.get("REDIS_URL") or DEFAULT_REDIS_URL
    stack = Stack()

    def stop_on_signal(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_on_signal)
    try:
        full = redis_reachable(redis_url)
        if not full and (own_redis := start_redis(redis_url)) is not None:
            stack.add("redis-server", own_redis)
            log.info("started redis-server for %s", redis_url)
            full = True
        bin_dir = os.path.dirname(sys.executable)
        daphne = [sys.executable, "-m", "server.asgi_server", "-b", args.host, "-p", str(args.port)]
        if full:
            env["REDIS_URL"] = redis_url
            log.info("full stack: daphne, a Celery worker and the Redis channel layer at %s", redis_url)
            celery = [os.path.join(bin_dir, "celery"), "-A", "server.config", "worker", "--loglevel", "INFO"]
            stack.spawn("celery worker", [*celery, "--concurrency", env.get("WORKER_CONCURRENCY", "2")], env)
        else:
            env.pop("REDIS_URL", None)
            log.warning(
                "embedded mode: no Redis at %s and no redis-server on the PATH; "
                "SQLite, in-memory channel layer, bot searches in a local process pool",
                redis_url,
            )
        stack.spawn("daphne", [*daphne, "server.config.asgi:application"], env)
        log.info("Plyground is on http://%s:%s/ (Ctrl-C stops it)", args.host, args.port)
        return stack.wait()
    except KeyboardInterrupt:
        log.info("stopping")
        return 0
    finally:
        stack.stop()


if __name__ == "__main__":
    sys.exit(main())

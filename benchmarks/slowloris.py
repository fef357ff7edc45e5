"""Slowloris against the real web process: how many trickling connections it still holds, second by second.

    .venv/bin/python benchmarks/slowloris.py [--connections 400] [--seconds 25] [--drip 2]
                                             [--header-timeouts 0,10]

For each header bound in ``--header-timeouts`` (``HTTP_HEADER_TIMEOUT_S``; 0 turns the bound
off, as before it existed) it starts ``server.asgi_server`` on a loopback port (embedded mode,
a fresh SQLite file), opens ``--connections`` connections that send a request line and then one
header line every ``--drip`` seconds, never the blank line that ends the headers, and prints
each second how many of them the server still holds open, and how long a normal
``GET /api/games/`` took meanwhile.  It stops after ``--seconds``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support import free_port  # noqa: E402


def start(header_timeout: float, tmp: str) -> tuple[subprocess.Popen, int]:
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")},
        "DJANGO_SETTINGS_MODULE": "server.config.settings.dev",
        "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3",
        "HTTP_HEADER_TIMEOUT_S": str(header_timeout),
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    argv = [sys.executable, "-m", "server.asgi_server", "-b", "127.0.0.1", "-p", str(port), "-v", "0"]
    proc = subprocess.Popen([*argv, "server.config.asgi:application"], cwd=ROOT, env=env)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/", timeout=2).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def held(sock: socket.socket) -> bool:
    """Whether the server still holds the connection: nothing to read yet (no 408, no close)."""
    try:
        sock.recv(4096, socket.MSG_DONTWAIT | socket.MSG_PEEK)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False  # a 408, or the end of the stream


def run(header_timeout: float, connections: int, seconds: float, drip: float) -> None:
    with tempfile.TemporaryDirectory(prefix="plyground-slowloris-") as tmp:
        proc, port = start(header_timeout, tmp)
        socks = []
        try:
            for _ in range(connections):
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                sock.sendall(b"GET /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                sock.setblocking(False)
                socks.append(sock)
            print(f"HTTP_HEADER_TIMEOUT_S={header_timeout:g}: {connections} slow connections opened")
            started = last_drip = time.monotonic()
            while (elapsed := time.monotonic() - started) < seconds:
                if time.monotonic() - last_drip >= drip:
                    last_drip = time.monotonic()
                    for sock in socks:
                        if held(sock):
                            with contextlib.suppress(OSError):  # reset meanwhile
                                sock.sendall(b"X-Slow: a\r\n")
                t0 = time.monotonic()
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/", timeout=10).close()
                normal_ms = (time.monotonic() - t0) * 1000
                holding = sum(held(sock) for sock in socks)
                print(f"  t={elapsed:5.1f} s  held {holding:4d}/{connections}  normal GET {normal_ms:6.1f} ms")
                if holding == 0:
                    break
                time.sleep(max(0.0, 1.0 - (time.monotonic() - t0)))
        finally:
            for sock in socks:
                sock.close()
            proc.terminate()
            proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=25)
    parser.add_argument("--drip", type=float, default=2)
    parser.add_argument("--header-timeouts", default="0,10")
    args = parser.parse_args()
    for bound in args.header_timeouts.split(","):
        run(float(bound), args.connections, args.seconds, args.drip)


if __name__ == "__main__":
    main()

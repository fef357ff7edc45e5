"""Slow clients (slowloris) cannot hold the server: against the real server process
(`server.asgi_server` on a loopback port), and through deploy/Caddyfile run by Debian's caddy.

Each test opens connections that trickle their headers (or body) a line at a time, as a
slowloris does, and asserts they are closed once the bound has passed while a normal request
still succeeds and an upgraded WebSocket stays open.  The bounds are set small (1-2 s) so the
tests are quick; the trickling goes on for a fixed number of rounds well past them.  Without
the bounds, Twisted's idle timeout (reset by every byte) held all of them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from websockets.sync.client import connect as websocket_connect

from tests.support import ROOT, free_port

pytestmark = pytest.mark.fullstack

SLOW_CLIENTS = 40
ROUNDS = 30  # trickle rounds: ROUNDS * PAUSE_S is several times every bound below
PAUSE_S = 0.25
HEADER_TIMEOUT_S = 1
BODY_TIMEOUT_S = 1
IDLE_TIMEOUT_S = 2


def wait_until_serving(url: str, proc: subprocess.Popen, log: Path, tries: int = 600) -> None:
    for _ in range(tries):
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited early:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer:\n{log.read_text()}")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


@pytest.fixture(scope="module")
def web() -> Iterator[int]:
    """The web process as `make run` starts it (embedded mode), with small bounds; its port."""
    with tempfile.TemporaryDirectory(prefix="plyground-slow-") as tmp:
        env = {
            **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")},
            "DJANGO_SETTINGS_MODULE": "server.config.settings.dev",
            "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3",
            "HTTP_HEADER_TIMEOUT_S": str(HEADER_TIMEOUT_S),
            "HTTP_BODY_TIMEOUT_S": str(BODY_TIMEOUT_S),
            "HTTP_IDLE_TIMEOUT_S": str(IDLE_TIMEOUT_S),
        }
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        port, log = free_port(), Path(tmp) / "web.log"
        argv = [sys.executable, "-m", "server.asgi_server", "-b", "127.0.0.1", "-p", str(port)]
        argv.append("server.config.asgi:application")
        with open(log, "w") as out:
            proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=out)
        try:
            wait_until_serving(f"http://127.0.0.1:{port}/api/games/", proc, log)
            yield port
        finally:
            stop(proc)


@pytest.fixture(scope="module")
def proxy(web: int) -> Iterator[int]:
    """deploy/Caddyfile run by caddy in front of `web`, its upstream and bounds made local and small."""
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.fail("caddy is not installed: `apt-get install caddy` (tests/run.sh installs it when it can)")
    text = (ROOT / "deploy/Caddyfile").read_text()
    local = {
        "name web": "name localhost",
        "port 8000": f"port {web}",
        "read_header 10s": f"read_header {HEADER_TIMEOUT_S}s",
        "read_body 30s": f"read_body {BODY_TIMEOUT_S + 1}s",
        "idle 2m": f"idle {IDLE_TIMEOUT_S}s",
        # Loopback only, plain HTTP, no admin endpoint on the port 2019 other runs share.
        "\tservers {": "\tadmin off\n\tdefault_bind 127.0.0.1\n\tservers {",
    }
    for production, here in local.items():
        assert production in text, f"deploy/Caddyfile no longer says {production!r}: update this test"
        text = text.replace(production, here, 1)
    with tempfile.TemporaryDirectory(prefix="plyground-caddy-") as tmp:
        port, log = free_port(), Path(tmp) / "caddy.log"
        (Path(tmp) / "Caddyfile").write_text(text)
        env = {**os.environ, "SITE_ADDRESS": f"http://127.0.0.1:{port}", "HOME": tmp, "XDG_DATA_HOME": tmp}
        argv = [caddy, "run", "--config", f"{tmp}/Caddyfile", "--adapter", "caddyfile"]
        with open(log, "w") as out:
            proc = subprocess.Popen(argv, cwd=tmp, env=env, stdout=out, stderr=out)
        try:
            wait_until_serving(f"http://127.0.0.1:{port}/api/games/", proc, log)
            yield port
        finally:
            stop(proc)


@dataclass
class SlowClient:
    sock: socket.socket
    heard: bytes = b""
    closed: bool = False
    sent: list[bytes] = field(default_factory=list)

    def send(self, data: bytes) -> None:
        try:
            self.sock.sendall(data)
        except OSError:  # reset by the server
            self.closed = True

    def listen(self) -> None:
        try:
            while chunk := self.sock.recv(4096):
                self.heard += chunk
            self.closed = True  # an orderly close
        except BlockingIOError:
            pass
        except OSError:  # reset
            self.closed = True


def trickle(port: int, opening: bytes, drip: bytes, count: int = SLOW_CLIENTS) -> tuple[list[SlowClient], int]:
    """`count` connections sending `opening`, then `drip` each every PAUSE_S for ROUNDS rounds
    (until closed); after the first round, while they are all connected, a normal request.  The
    clients, and the normal request's status."""
    clients = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.setblocking(False)
        clients.append(SlowClient(sock))
        clients[-1].send(opening)
    status = 0
    try:
        for round_ in range(ROUNDS):
            time.sleep(PAUSE_S)
            for client in clients:
                client.listen()
                if not client.closed:
                    client.send(drip)
            if round_ == 0:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/", timeout=5) as answer:
                    status = answer.status
            if all(c.closed for c in clients):
                break
    finally:
        for client in clients:
            client.sock.close()
    return clients, status


HEADERS_OPENING = b"GET /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
HEADER_DRIP = b"X-Slow: a\r\n"
BODY_OPENING = (
    b"POST /api/players/guest/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"
)


def test_connections_trickling_headers_are_closed_and_others_are_served(web):
    clients, status = trickle(web, HEADERS_OPENING, HEADER_DRIP)
    assert status == 200
    assert [c.closed for c in clients] == [True] * SLOW_CLIENTS
    assert all(c.heard.startswith(b"HTTP/1.1 408 Request Timeout") for c in clients)


def test_connections_trickling_a_body_are_closed(web):
    clients, status = trickle(web, BODY_OPENING, b" ")
    assert status == 200
    assert [c.closed for c in clients] == [True] * SLOW_CLIENTS
    assert all(c.heard.startswith(b"HTTP/1.1 408 Request Timeout") for c in clients)


def test_a_connection_that_sends_nothing_is_closed(web):
    clients, status = trickle(web, b"", b"")
    assert status == 200 and [c.closed for c in clients] == [True] * SLOW_CLIENTS


def test_a_kept_alive_connection_serves_its_next_request_and_then_a_slow_one_is_closed(web):
    [client], _ = trickle(web, HEADERS_OPENING + b"\r\n" + HEADERS_OPENING, HEADER_DRIP, count=1)
    answers = re.findall(rb"HTTP/1.1 (\d{3})", client.heard)
    assert client.closed and answers == [b"200", b"408"]


def lobby_stays_open(url: str) -> bool:
    """A lobby socket, quiet for longer than every bound, then asked for the lobby: whether it answers."""
    origin = re.sub(r"^ws", "http", url.split("/ws/")[0])
    with websocket_connect(url, origin=origin, open_timeout=10) as ws:
        assert until_lobby(ws)
        time.sleep(HEADER_TIMEOUT_S + BODY_TIMEOUT_S + IDLE_TIMEOUT_S + 1)
        ws.send(json.dumps({"type": "sync"}))
        return until_lobby(ws)


def until_lobby(ws) -> bool:
    """Whether a `lobby` frame comes (after any others, such as the online count) before the socket closes."""
    return any(json.loads(ws.recv(timeout=10))["type"] == "lobby" for _ in range(20))


def test_a_websocket_outlives_every_bound(web):
    assert lobby_stays_open(f"ws://127.0.0.1:{web}/ws/lobby/")


def test_through_the_proxy_slow_headers_are_closed_and_others_served(proxy):
    clients, status = trickle(proxy, HEADERS_OPENING, HEADER_DRIP)
    assert status == 200
    assert [c.closed for c in clients] == [True] * SLOW_CLIENTS


def test_through_the_proxy_a_slow_body_is_cut_off(proxy):
    clients, status = trickle(proxy, BODY_OPENING, b" ")
    assert status == 200
    assert [c.closed for c in clients] == [True] * SLOW_CLIENTS


def test_through_the_proxy_a_websocket_outlives_every_bound(proxy):
    assert lobby_stays_open(f"ws://127.0.0.1:{proxy}/ws/lobby/")

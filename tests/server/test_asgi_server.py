"""The server's send waits for a slow client instead of buffering for it (server/asgi_server.py);
the application leaves what it loaded out of the garbage collector (server/config/asgi.py).

The end-to-end figure (a 256 KB/s reader of a streamed export: the server's memory stays
flat) is `benchmarks/exports.py`; here the waiting itself, against a stand-in connection.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

from autobahn.exception import Disconnected

from server.asgi_server import BackpressureServer
from tests.support import ROOT

BODY = {"type": "http.response.body", "body": b"x" * 10, "more_body": True}


class Transport:
    """A connection whose send buffer stays full for `full_for` looks."""

    def __init__(self, full_for: int) -> None:
        self.full_for = full_for
        self.looks = 0

    def _isSendBufferFull(self) -> bool:  # noqa: N802 - Twisted's name
        self.looks += 1
        return self.looks <= self.full_for


class Protocol:
    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.sent: list[dict] = []

    def handle_reply(self, message: dict) -> None:
        self.sent.append(message)


def test_send_returns_only_once_the_client_has_taken_the_data():
    server = BackpressureServer(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    protocol = Protocol(Transport(full_for=3))
    server.connections = {protocol: {}}  # set by run(), which a test does not start
    asyncio.run(server.handle_reply(protocol, BODY))
    assert protocol.sent == [BODY]
    assert protocol.transport.looks == 4  # waited while full, returned when it drained


def test_a_client_that_went_away_does_not_hold_the_application():
    server = BackpressureServer(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    protocol = Protocol(Transport(full_for=10**9))
    server.connections = {protocol: {}}  # set by run(), which a test does not start

    async def send_then_hang_up() -> None:
        sending = asyncio.ensure_future(server.handle_reply(protocol, BODY))
        await asyncio.sleep(0.02)
        assert not sending.done()  # still waiting for the client
        server.connections[protocol]["disconnected"] = True
        await asyncio.wait_for(sending, 1)

    asyncio.run(send_then_hang_up())


class ClosingWebSocket(Protocol):
    """A WebSocket whose client has sent its close: autobahn refuses to send on it."""

    def handle_reply(self, message: dict) -> None:
        raise Disconnected("Attempt to send on a closed protocol")


def test_a_frame_for_a_websocket_closing_meanwhile_is_dropped_not_raised_into_the_consumer():
    server = BackpressureServer(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    protocol = ClosingWebSocket(Transport(full_for=0))
    server.connections = {protocol: {}}  # daphne has not yet heard of the close
    asyncio.run(server.handle_reply(protocol, {"type": "websocket.send", "text": "{}"}))


def test_the_application_module_leaves_what_it_loaded_out_of_the_collector():
    """A full collection walks only what serving created (server/config/asgi.py): loading the
    application freezes Django, the apps and the games, tens of thousands of objects."""
    assert int(_after_loading_the_application("print(gc.get_freeze_count())")) > 20_000


def test_the_application_module_collects_young_objects_in_large_batches():
    """Serving's short-lived objects are freed by reference counting: the collector is not run
    after every 700 of them (server/config/asgi.py), and the older generations keep their ratios."""
    young, middle, old = map(int, _after_loading_the_application("print(*gc.get_threshold())").split())
    assert young >= 10_000
    assert (middle, old) == (10, 10)


def _after_loading_the_application(code: str) -> str:
    """What `code` prints in a fresh interpreter that has loaded the application module."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "server.config.settings.test"}
    script = f"import gc, server.config.asgi; {code}"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()

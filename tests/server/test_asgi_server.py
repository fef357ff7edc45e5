"""The server's send waits for a slow client instead of buffering for it, writes a WebSocket
frame to its socket when it is sent, and offers a socket's application a synchronous send of a
text frame (server/asgi_server.py); the application leaves what it
loaded out of the garbage collector (server/config/asgi.py).

The end-to-end figure (a 256 KB/s reader of a streamed export: the server's memory stays
flat) is `benchmarks/exports.py`; here the waiting itself, against a stand-in connection.
"""

from __future__ import annotations

import asyncio
import os
import socket
import struct
import subprocess
import sys
from collections.abc import Iterator

import pytest
from autobahn.exception import Disconnected
from daphne.ws_protocol import WebSocketFactory
from twisted.internet import tcp

from server.asgi_server import BackpressureServer, ImmediateWebSocketProtocol, written_now
from server.realtime.frames_at_once import SEND_TEXT_NOW
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


class Reactor:
    """Twisted's reactor as a connection sees it: the sockets it was asked to watch for writing."""

    def __init__(self) -> None:
        self.writers: set = set()

    def addWriter(self, writer) -> None:  # noqa: N802 - Twisted's name
        self.writers.add(writer)

    def removeWriter(self, writer) -> None:  # noqa: N802
        self.writers.discard(writer)


@pytest.fixture
def connection() -> Iterator[tuple[tcp.Connection, socket.socket]]:
    """A Twisted TCP connection on loopback (its reactor a `Reactor`), and the client's socket."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        served, _ = listener.accept()
    transport = tcp.Connection(served, protocol=None, reactor=Reactor())
    transport.connected = True
    client.settimeout(2)
    yield transport, client
    client.close()
    served.close()


def test_a_frame_goes_to_the_socket_when_it_is_sent(connection):
    transport, client = connection
    assert written_now(transport, b"frame") == b""
    assert client.recv(100) == b"frame"
    assert transport.reactor.writers == set()  # nothing left for the next turn


def test_a_frame_waits_behind_what_twisted_still_holds_for_the_socket(connection):
    transport, client = connection
    transport.write(b"first ")  # held for the loop's next turn
    assert written_now(transport, b"second") == b"second"
    transport.write(b"second")
    transport.doWrite()  # the next turn
    assert client.recv(100) == b"first second"


def test_what_the_socket_cannot_take_is_left_for_twisted_in_order(connection):
    transport, client = connection
    data = bytes(range(256)) * 40_000  # 10 MB: more than loopback's buffers hold
    rest = written_now(transport, data)
    assert 0 < len(rest) < len(data)
    transport.write(rest)
    received = bytearray()
    while len(received) < len(data):
        received += client.recv(1 << 20)
        transport.doWrite()
    assert received == data


def test_a_socket_that_failed_is_left_for_twisted_to_find_and_close(connection):
    transport, client = connection
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()  # a reset, not a goodbye
    # The first send may go out before the reset lands; then the socket fails, and the frame is
    # handed back (no exception here: Twisted's doWrite finds the failure and closes).
    results = [written_now(transport, b"frame") for _ in range(3)]
    assert results[-1] == b"frame"


def test_a_closing_connection_or_another_transport_is_left_to_twisted(connection):
    transport, client = connection
    transport.disconnecting = True
    assert written_now(transport, b"frame") == b"frame"
    assert written_now(object(), b"frame") == b"frame"  # TLS wraps the socket in a protocol


def test_daphne_builds_the_websocket_protocol_that_writes_frames_at_once():
    factory = WebSocketFactory(server_class=None)
    assert isinstance(factory.buildProtocol(("127.0.0.1", 1)), ImmediateWebSocketProtocol)


class OpenWebSocket:
    """A WebSocket as autobahn keeps it: its state, and the messages it was asked to send."""

    STATE_OPEN = 3

    def __init__(self, state: int = STATE_OPEN, closed_meanwhile: bool = False) -> None:
        self.state, self.closed_meanwhile = state, closed_meanwhile
        self.sent: list[tuple[bytes, bool]] = []

    def sendMessage(self, payload: bytes, is_binary: bool = False) -> None:  # noqa: N802 - autobahn's name
        if self.closed_meanwhile:
            raise Disconnected("Attempt to send on a closed protocol")
        self.sent.append((payload, is_binary))


def test_a_frame_sent_now_is_a_text_frame_on_an_open_websocket_only():
    """The synchronous send a socket's frames are written through (server/realtime/frames_at_once.py):
    a text frame of the UTF-8 text while the WebSocket is open; nothing, and False, once daphne
    knows it closed, while it closes, or when autobahn finds it closed."""
    server = BackpressureServer(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    open_, gone, closing, closed_meanwhile = (
        OpenWebSocket(),
        OpenWebSocket(),
        OpenWebSocket(state=4),
        OpenWebSocket(closed_meanwhile=True),
    )
    server.connections = {open_: {}, gone: {"disconnected": True}, closing: {}, closed_meanwhile: {}}
    assert server.send_text_now(open_, '{"ply": "é"}')
    assert open_.sent == [('{"ply": "é"}'.encode(), False)]
    for protocol in (gone, closing, closed_meanwhile):
        assert not server.send_text_now(protocol, "{}")
        assert protocol.sent == []
    assert not server.send_text_now(OpenWebSocket(), "{}")  # a connection daphne no longer has


def test_a_websocket_application_is_given_the_send_now_and_an_http_one_is_not():
    scopes: dict[str, dict] = {}

    def application(scope, receive, send):
        scopes[scope["type"]] = scope

        async def run() -> None:
            pass

        return run()

    server = BackpressureServer(application=application, endpoints=["tcp:port=0:interface=127.0.0.1"])
    websocket, http = OpenWebSocket(), OpenWebSocket()
    server.connections = {websocket: {}, http: {}}

    async def create() -> None:
        server.create_application(websocket, {"type": "websocket", "extensions": {"websocket.http.response": {}}})
        server.create_application(http, {"type": "http"})
        await asyncio.sleep(0)

    asyncio.run(create())
    extensions = scopes["websocket"]["extensions"]
    assert "websocket.http.response" in extensions  # what daphne offered is kept
    assert extensions[SEND_TEXT_NOW]('{"v": 1}') and websocket.sent == [(b'{"v": 1}', False)]
    assert SEND_TEXT_NOW not in (scopes["http"].get("extensions") or {})

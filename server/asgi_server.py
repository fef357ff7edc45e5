"""daphne with back-pressure, and WebSocket frames written as they are sent.

    python -m server.asgi_server -b 127.0.0.1 -p 8000 server.config.asgi:application

(the same arguments as ``daphne``).  Daphne hands each chunk an application sends to
Twisted, which keeps whatever the socket cannot take yet, and returns at once; so a
client reading a streamed research export slowly made the server hold the rest of the
export in memory (hundreds of MB).  Here the application's ``send`` returns only once the
connection's send buffer is below Twisted's own limit (``bufferSize``, 64 KiB): a slow
reader slows the export down instead of filling the server.

Twisted also keeps every write for the event loop's next turn, even when the socket could
take it at once: it registers the socket for writing, writes on the next turn, and
unregisters it (two changes to the loop's selector and a callback a write).  A relayed move
is one WebSocket frame to each of its match's sockets, so that was a large share of the
loop's work; a frame now goes to the socket when it is sent, unless something is still
waiting before it (`written_now`).

Slow clients: Twisted's HTTP channel times a connection out only after a minute with no byte
at all, so a client trickling its headers a byte at a time (slowloris) held its connection for
good, and a few hundred such held the server.  Here a request's headers must be complete
within ``HTTP_HEADER_TIMEOUT_S`` and its body within ``HTTP_BODY_TIMEOUT_S``, however slowly
bytes keep coming (`ReadDeadlineChannel`); a kept-alive connection idle between requests is
closed after ``HTTP_IDLE_TIMEOUT_S`` (Twisted's own idle timeout).  An upgraded WebSocket is
past its headers and left alone.
"""

from __future__ import annotations

import asyncio
import pprint
from functools import partial
from typing import Any, Final

import autobahn.websocket.protocol
import daphne.server
from autobahn.exception import Disconnected
from daphne.cli import CommandLineInterface
from daphne.http_protocol import HTTPFactory
from daphne.server import Server
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from django.conf import settings
from twisted.internet.base import DelayedCall
from twisted.internet.protocol import connectionDone
from twisted.python.failure import Failure
from twisted.web import http

from server.realtime.frames_at_once import SEND_TEXT_NOW

POLL_SECONDS: Final = 0.005


class _FormattedWhenLogged:
    """`pprint.pformat(obj)`, done only if a log line is written with it."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __format__(self, spec: str) -> str:
        return format(pprint.pformat(self.obj), spec)

    def __str__(self) -> str:
        return pprint.pformat(self.obj)

    __repr__ = __str__


# autobahn pretty-prints its whole configuration (some forty options) for a debug line on every
# WebSocket handshake, whether or not debug lines are logged: about a twentieth of a socket's
# opening in a connect storm.  Formatted lazily, the line is the same when it is logged.
autobahn.websocket.protocol.pformat = _FormattedWhenLogged  # type: ignore[attr-defined,assignment]  # a module global autobahn imported; a stand-in that formats later


class BackpressureServer(Server):  # type: ignore[misc]  # daphne is untyped
    def create_application(self, protocol: Any, scope: dict[str, Any]) -> Any:
        if scope.get("type") == "websocket":  # the socket's frames written without a coroutine
            send_now = partial(self.send_text_now, protocol)
            scope["extensions"] = {**(scope.get("extensions") or {}), SEND_TEXT_NOW: send_now}
        return super().create_application(protocol, scope)

    def send_text_now(self, protocol: Any, text: str) -> bool:
        """Send `text` as one WebSocket text frame on `protocol` now, as `handle_reply` does for a
        ``websocket.send``, but without a coroutine; False (nothing sent) once it is closed or closing.

        No waiting for a slow reader here: what its socket does not take stays with Twisted.  A
        match's frames are small and few; a client that stops reading is closed by daphne's
        ping timeout.
        """
        if not self._connected(protocol) or protocol.state != protocol.STATE_OPEN:
            return False
        try:
            protocol.sendMessage(text.encode(), False)
        except Disconnected:
            return False
        return True

    async def handle_reply(self, protocol: Any, message: dict[str, Any]) -> None:
        try:
            await super().handle_reply(protocol, message)
        except Disconnected:
            # The client closed its WebSocket while a frame for it was on its way (a move relayed
            # as 300 sockets close): dropped, as daphne drops a reply to a connection it already
            # knows is gone.  Raised into the consumer, it ended the consumer before its
            # `disconnect`, leaving its channel in the match's group.  The disconnect follows.
            return
        send_buffer_full = getattr(getattr(protocol, "transport", None), "_isSendBufferFull", None)
        if send_buffer_full is None:
            return
        while send_buffer_full() and self._connected(protocol):
            await asyncio.sleep(POLL_SECONDS)

    def _connected(self, protocol: Any) -> bool:
        details = self.connections.get(protocol)
        return details is not None and not details.get("disconnected")


def written_now(transport: Any, data: bytes) -> bytes:
    """Write `data` to `transport`'s socket now, if nothing waits to be written before it; the
    part it did not take (all of `data` when it was not tried), for Twisted to write in turn.

    Only a plain TCP connection is written to (TLS is written through its own buffer).  A
    socket that cannot take the data, or failed, is left to Twisted's own write, which keeps
    the data or finds the same failure and closes the connection.
    """
    write_some = getattr(transport, "writeSomeData", None)
    if (
        write_some is None
        or getattr(transport, "TLS", True)
        or not transport.connected
        or transport.disconnecting
        or transport._writeDisconnected
        or transport._tempDataBuffer  # written after what waits, in order
        or len(transport.dataBuffer) > transport.offset
    ):
        return data
    sent = write_some(data)
    return data if isinstance(sent, Exception) else data[sent:]


class ImmediateWebSocketProtocol(WebSocketProtocol):  # type: ignore[misc]  # daphne is untyped
    """daphne's WebSocket protocol, its frames written to the socket when they are sent.

    WebSocket connections have Nagle's delay off (autobahn's `tcpNoDelay`), so a frame written
    at once leaves at once.  autobahn's paced sends (`sync`, `chopsize`, its send queue) go
    its own way.  Bytes written here are not in autobahn's `trafficStats`, which nothing reads.
    """

    def handle_reply(self, message: dict[str, Any]) -> None:
        """daphne's, but a close keeps its reason (daphne 4.2 drops it): a page shows why it was
        closed (a token revoked, too many sockets), and the reason stays within the 123 bytes a
        close frame holds."""
        reason = message.get("reason")
        if message.get("type") != "websocket.close" or not reason or self.state == self.STATE_CONNECTING:
            super().handle_reply(message)
            return
        self.sendClose(code=message.get("code") or 1000, reason=reason.encode()[:123].decode(errors="ignore"))

    def sendData(self, data: bytes, sync: bool = False, chopsize: int | None = None) -> None:  # noqa: N802
        if sync or chopsize or self.send_queue:
            super().sendData(data, sync, chopsize)
            return
        rest = written_now(self.transport, data)
        if rest:
            super().sendData(rest)


# daphne builds its WebSocket factory in `Server.run`; the factory builds this protocol.
WebSocketFactory.protocol = ImmediateWebSocketProtocol


REQUEST_TIMEOUT_RESPONSE: Final = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class ReadDeadlineChannel(http.HTTPChannel):
    """An HTTP/1.1 channel that gives each request a deadline to arrive, not just to go quiet.

    The headers' deadline starts when the connection opens, or with the first byte of the next
    request on a kept-alive one; the body's when the headers are in.  Bytes arriving do not
    move it (Twisted's idle timeout, which they do reset, still closes a silent connection).
    Past it, the client hears 408 and the connection closes, aborted if it does not go.
    """

    header_timeout: float | None = None
    body_timeout: float | None = None
    _deadline: DelayedCall | None = None
    _between_requests = False

    def connectionMade(self) -> None:  # noqa: N802
        super().connectionMade()  # type: ignore[no-untyped-call]  # Twisted's HTTPChannel is unannotated
        self._set_deadline(self.header_timeout)

    def dataReceived(self, data: bytes) -> None:  # noqa: N802
        if self._between_requests and data:  # the next request's first byte: its headers' time starts
            self._between_requests = False
            self._set_deadline(self.header_timeout)
        super().dataReceived(data)  # type: ignore[no-untyped-call]  # Twisted's HTTPChannel is unannotated

    def allHeadersReceived(self) -> None:  # noqa: N802
        super().allHeadersReceived()  # type: ignore[no-untyped-call]  # Twisted's HTTPChannel is unannotated
        self._set_deadline(self.body_timeout)

    def allContentReceived(self) -> None:  # noqa: N802
        self._set_deadline(None)  # the request is in: how long it takes to answer is the application's
        super().allContentReceived()  # type: ignore[no-untyped-call]  # Twisted's HTTPChannel is unannotated

    def requestDone(self, request: http.Request) -> None:  # noqa: N802
        pipelined = bool(self._dataBuffer)  # the next request began arriving during this one
        super().requestDone(request)  # type: ignore[no-untyped-call]  # Twisted's HTTPChannel is unannotated
        if self.persistent and self.transport is not None and not self._deadline:
            self._between_requests = not pipelined
            if pipelined:
                self._set_deadline(self.header_timeout)

    def connectionLost(self, reason: Failure = connectionDone) -> None:  # noqa: N802
        self._set_deadline(None)
        super().connectionLost(reason)  # type: ignore[no-untyped-call]  # Twisted's HTTPChannel is unannotated

    def _set_deadline(self, seconds: float | None) -> None:
        if self._deadline is not None and self._deadline.active():
            self._deadline.cancel()
        self._deadline = self.callLater(seconds, self._too_slow) if seconds else None  # type: ignore[no-untyped-call]  # Twisted's TimeoutMixin is unannotated

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport is None or self.transport.disconnecting:
            return
        self.transport.write(REQUEST_TIMEOUT_RESPONSE)  # type: ignore[call-arg,misc]  # zope's interface methods are declared without `self`
        self.timeoutConnection()  # type: ignore[no-untyped-call]  # unannotated in Twisted; closes it, and aborts it after `abortTimeout` if the client holds on


class ReadDeadlineHTTPFactory(HTTPFactory):  # type: ignore[misc]  # daphne is untyped
    """daphne's HTTP factory with `ReadDeadlineChannel`s and the settings' idle timeout."""

    def __init__(self, server: Any) -> None:
        super().__init__(server)
        self.timeOut = settings.HTTP_IDLE_TIMEOUT_S or None  # 0: none (Twisted would time out at once)
        header_timeout, body_timeout = settings.HTTP_HEADER_TIMEOUT_S, settings.HTTP_BODY_TIMEOUT_S

        def channel() -> Any:
            inner = ReadDeadlineChannel()  # type: ignore[no-untyped-call]  # Twisted's HTTPChannel is unannotated
            inner.header_timeout, inner.body_timeout = header_timeout, body_timeout
            # Twisted's HTTP/1.1-or-HTTP/2 switch, as `http.HTTPFactory.protocol` builds it.
            return http._GenericHTTPChannelProtocol(inner)

        self.protocol = channel


# daphne builds its HTTP factory in `Server.run`, by this name.
daphne.server.HTTPFactory = ReadDeadlineHTTPFactory


class BackpressureCommandLine(CommandLineInterface):  # type: ignore[misc]  # daphne is untyped
    server_class = BackpressureServer


if __name__ == "__main__":
    BackpressureCommandLine.entrypoint()

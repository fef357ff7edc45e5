"""daphne with back-pressure: a response is produced no faster than its client reads it.

    python -m server.asgi_server -b 127.0.0.1 -p 8000 server.config.asgi:application

(the same arguments as ``daphne``).  Daphne hands each chunk an application sends to
Twisted, which keeps whatever the socket cannot take yet, and returns at once; so a
client reading a streamed research export slowly made the server hold the rest of the
export in memory (hundreds of MB).  Here the application's ``send`` returns only once the
connection's send buffer is below Twisted's own limit (``bufferSize``, 64 KiB): a slow
reader slows the export down instead of filling the server.
"""

from __future__ import annotations

import asyncio
import pprint
from typing import Any, Final

import autobahn.websocket.protocol
from autobahn.exception import Disconnected
from daphne.cli import CommandLineInterface
from daphne.server import Server

POLL_SECONDS: Final = 0.005


class _FormattedWhenLogged:
    """`pprint.pformat(obj)`, done only if a log line is written with it."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __format__(self, spec: str) -> str:
        return format(pprint.pformat(self.obj), spec)

    __str__ = __repr__ = lambda self: pprint.pformat(self.obj)


# autobahn pretty-prints its whole configuration (some forty options) for a debug line on every
# WebSocket handshake, whether or not debug lines are logged: about a twentieth of a socket's
# opening in a connect storm.  Formatted lazily, the line is the same when it is logged.
autobahn.websocket.protocol.pformat = _FormattedWhenLogged


class BackpressureServer(Server):
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


class BackpressureCommandLine(CommandLineInterface):
    server_class = BackpressureServer


if __name__ == "__main__":
    BackpressureCommandLine.entrypoint()

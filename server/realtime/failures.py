"""When a part fails: a socket still leaves what it joined, and a database outage is one line a pass."""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, WebSocketDisconnectEvent
from django.db import InterfaceError, OperationalError

if TYPE_CHECKING:
    from channels.consumer import _ChannelScope

log = logging.getLogger("plyground.sockets")


def log_failure(logger: logging.Logger, what: str) -> None:
    """Log the exception being handled: one line when the database is unreachable (a restart or
    a failover repeats it every pass of every loop for as long as it lasts), else its traceback."""
    exc = sys.exc_info()[1]
    if isinstance(exc, (OperationalError, InterfaceError)):
        logger.warning("%s: database unavailable (%s)", what, str(exc).strip().splitlines()[0][:200])
    else:
        logger.exception(what)


CLOSE_SERVER_ERROR = 1011  # what daphne closes the socket with when its application raised


class DisconnectsWhenItFails:
    """A consumer mixin: `disconnect` runs when a handler raises, not only when the client closes.

    Channels calls `disconnect` for the client's close alone.  A handler that raised (the
    database gone in the middle of a move) ended the consumer's task; daphne closed the socket
    with 1011 and the page reconnected, but the old channel stayed in its groups until the
    groups expired (a day): every frame of the match was queued for a channel nobody reads,
    and a seek it had placed stayed in the pool.  The error still propagates, so daphne
    logs it and closes the socket as before.
    """

    async def __call__(self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]  # a mixin: the consumer's base has it
        except Exception:
            if not getattr(self, "disconnecting", False):
                self.disconnecting = True
                try:
                    await self.disconnect(CLOSE_SERVER_ERROR)  # type: ignore[attr-defined]  # a mixin: the consumer has `disconnect`
                except Exception:
                    log_failure(log, "a failed socket's clean-up failed too")
            raise

    async def websocket_disconnect(self, message: WebSocketDisconnectEvent) -> None:
        self.disconnecting = True  # a failure inside `disconnect` is not cleaned up twice
        await super().websocket_disconnect(message)  # type: ignore[misc]  # a mixin: the consumer's base has it

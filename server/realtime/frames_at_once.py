"""The frames of a socket's groups written to it as they are handed over, not in its consumer's turn.

A relayed frame used to reach each of its sockets through that socket's own task: the inbox's
waiter woken, the task's receive ended and a new one started, Channels' `asyncio.wait` and
dispatch, the handler, Channels' send through the session wrapper and daphne's reply coroutine.
Five sockets a move, that was most of what the event loop did for a move after its commit.
Here the channel layer offers each frame to the socket as it hands it over (its reader, or a
send of this process), and the socket writes it at once through the server's synchronous send
(`server/asgi_server.py`, `SEND_TEXT_NOW`).

Order is kept: while the consumer handles anything (its opening, a client's frame, its
closing), the frames offered are held and written when the handler ends.  A handler may send
what it read before a frame was committed (a `sync`'s state); that is written before the frame,
as when the frame waited in the inbox.
"""

from __future__ import annotations

import json
from typing import Any

FRAME_SEND = "frame.send"  # the channel messages that carry a frame to a socket

# The scope extension through which the server writes a text frame now, synchronously
# (`server/asgi_server.py`, `BackpressureServer.send_text_now`).
SEND_TEXT_NOW = "plyground.send_text_now"


class FramesWrittenAtOnce:
    """A consumer mixin: `take_frames_at_once()` before joining its groups, `stop_taking_frames()`
    as it leaves them; `frame_written(frame)` is told of each frame written this way.  What this
    process itself sends a socket outside the layer (a heartbeat) goes the same way through
    `take_frame`.

    Without the server's synchronous send (Channels' test communicator) or the Redis layer (the
    in-memory one of embedded mode), frames go through the consumer's task as before.
    """

    _dispatching = False
    _held: list[dict[str, Any]] | None = None

    def take_frames_at_once(self) -> None:
        send_now = (self.scope.get("extensions") or {}).get(SEND_TEXT_NOW)  # type: ignore[attr-defined]  # a mixin: the consumer has it
        take = getattr(self.channel_layer, "take_at_once", None)  # type: ignore[attr-defined]  # a mixin: the consumer has it
        if send_now is None or take is None:
            return
        self._send_text_now = send_now
        self._held = []
        take(self.channel_name, self.take_frame)  # type: ignore[attr-defined]  # a mixin: the consumer has it

    def stop_taking_frames(self) -> None:
        stop = getattr(self.channel_layer, "stop_taking", None)  # type: ignore[attr-defined]  # a mixin: the consumer has it
        if stop is not None:
            stop(self.channel_name)  # type: ignore[attr-defined]  # a mixin: the consumer has it

    def frame_written(self, frame: dict[str, Any]) -> None:
        """Called for each frame written as it came (a consumer's own bookkeeping)."""

    def take_frame(self, message: dict[str, Any]) -> bool:
        """Write a ``frame.send`` message's frame now, or after the handler under way; False when
        this socket does not take frames at once (the caller sends it through the task)."""
        if message.get("type") != FRAME_SEND or self._held is None:
            return False
        if self._dispatching:
            self._held.append(message)
        else:
            self._write(message)
        return True

    def _write(self, message: dict[str, Any]) -> None:
        self.frame_written(message["frame"])
        self._send_text_now(frame_text(message))

    async def dispatch(self, message: dict[str, Any]) -> None:
        self._dispatching = True
        try:
            await super().dispatch(message)  # type: ignore[misc]  # a mixin: the consumer's base dispatches
        finally:
            self._dispatching = False
            if self._held:  # offered while the handler ran: after what it sent, in order
                held, self._held = self._held, []
                for frame_message in held:
                    self._write(frame_message)


def frame_text(message: dict[str, Any]) -> str:
    """The JSON text of a ``frame.send`` message's frame, encoded by the first of the process's
    recipients and kept in the message (one dict for all of them) for the others."""
    text = message.get("text")
    if text is None:
        text = message["text"] = encode(message["frame"])
    return text


def encode(frame: dict[str, Any]) -> str:
    """A frame's JSON text, as Channels' `encode_json` writes it."""
    return json.dumps(frame)

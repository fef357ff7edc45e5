"""What a client sends on a socket, read the same way on every socket (the match, the lobby, the
tournament, the Bot API's event stream; docs/wire.md).

Each frame, whatever it holds, counts against the socket's rate limit (frames that are not JSON, or
too large, cost as much as good ones) and is read as JSON within `MAX_FRAME_BYTES` and the nesting
bound.  A frame over the limit is answered ``rate_limited``, one that is not such JSON
``bad_message``, and goes no further; the socket stays open.  `ReadsClientFrames.receive` does this
before a consumer's `receive_json` sees the frame.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from server.http.parsers import MAX_FRAME_BYTES, BadJSON, loads_bounded

Frame = dict[str, Any]


def error(code: str, message: str) -> Frame:
    """A refused frame's answer: the shape of every socket's error frame (`server.matches.frames.error`)."""
    return {"type": "error", "code": code, "message": message}


RATE_LIMITED = error("rate_limited", "too many frames: slow down")


class RateLimiter:
    """At most `limit` frames in any `window` seconds."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self.times: deque[float] = deque()

    def allow(self) -> bool:
        now = time.monotonic()
        while self.times and now - self.times[0] > self.window:
            self.times.popleft()
        if len(self.times) >= self.limit:
            return False
        self.times.append(now)
        return True


class BadFrame(ValueError):
    """A client's frame that is not a JSON text within bounds; its message says what a frame is."""


def parse_frame(text_data: str | None, bytes_data: bytes | None) -> Any:
    """A client's frame as JSON, within `MAX_FRAME_BYTES` and the nesting bound; BadFrame otherwise."""
    if text_data is None:
        raise BadFrame('frames are text: JSON objects such as {"type": "sync"}')
    try:
        return loads_bounded(text_data, max_bytes=MAX_FRAME_BYTES)
    except BadJSON as exc:
        raise BadFrame(f'frames are JSON objects such as {{"type": "sync"}}: {exc}'[:200]) from None


class ReadsClientFrames:
    """A consumer mixin (before Channels' consumer): `receive` counts and reads each client frame,
    answers a refused one, and hands the others to `receive_json`.

    The consumer sets `limiter` when it connects; it may give some frames a budget of their own
    (`limiter_for`: the match socket's moves) and do more when it refuses one (`frame_refused`: a bot
    account's refused frames are strikes).  A socket whose credential ended (`signed_out`,
    `server.players.ws_auth.CredentialWatch`) reads nothing more: it is closing.
    """

    limiter: RateLimiter

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if getattr(self, "signed_out", False):
            return
        # Read first (within its bounds), so the frame's kind can choose the budget it draws on.
        try:
            content, refusal = parse_frame(text_data, bytes_data), None
        except BadFrame as exc:
            content, refusal = None, error("bad_message", str(exc))
        if not self.limiter_for(content).allow():
            await self.frame_refused(RATE_LIMITED)
            return
        if refusal is not None:
            await self.frame_refused(refusal)
            return
        await self.receive_json(content)  # type: ignore[attr-defined]  # a mixin: the consumer has it

    def limiter_for(self, content: Any) -> RateLimiter:
        """The budget `content` draws on (None for a frame that was not JSON): the socket's one."""
        return self.limiter

    async def frame_refused(self, frame: Frame) -> None:
        """Answer a frame refused before it was handled (over the rate limit, not JSON)."""
        await self.send_json(frame)  # type: ignore[attr-defined]  # a mixin: the consumer has it

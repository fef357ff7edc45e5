"""Sending frames to a match's sockets and to the lobby, from any thread or process."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("plyground.broadcast")

LOBBY_GROUP = "lobby"
_server_loop: asyncio.AbstractEventLoop | None = None


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def remember_server_loop() -> None:
    """Called on the server's event loop: the in-memory layer must be used from that loop.

    In embedded mode bot moves are submitted from pool threads that asgiref did not
    start; their broadcasts are handed to this loop instead of a private one.
    """
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def send_to_group(group: str, frame: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "frame.send", "frame": frame}
    try:
        loop = _server_loop
        if loop is not None and loop.is_running() and not _running_on(loop):
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(timeout=5)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost frame is recovered by the client's sync; the move is already stored
        log.exception("broadcast to %s failed", group)


def _running_on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False

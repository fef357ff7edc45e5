"""Sending frames to a match's sockets and to the lobby, from any thread or process."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer

from server.realtime.channel_layer import PooledRedisChannelLayer
from server.realtime.frames_at_once import FRAME_SEND

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
    """Send `frame` to every socket of `group`, in the order of the calls for that group.

    From a thread of the web process (a socket's database thread, after its commit) the send
    is handed to the server's loop and not waited for: the thread goes on to the next
    socket's call instead of waiting for a busy loop to reach its turn (under load that wait
    was most of a move's time on its thread).  Elsewhere (a worker, a management command)
    it is sent before returning.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": FRAME_SEND, "frame": frame}
    loop = _server_loop
    try:
        if loop is not None and loop.is_running() and not _running_on(loop):
            loop.call_soon_threadsafe(_send_in_order, layer, group, message)
        else:
            _send_from_own_loop(layer, group, message)
    except Exception:  # a lost frame is recovered by the client's sync; the move is already stored
        log.exception("broadcast to %s failed", group)


# A process without a server loop (a Celery worker, a command) sends to Redis from one loop
# of its own, run by a thread.  asgiref's async_to_sync would make an event loop per frame,
# and channels_redis a connection pool and a connection to Redis on it: a connect per frame,
# each loop left in a reference cycle (channels_redis wraps its close()) that a searching
# worker never collected (ai/budget.py).  Per process: a forked pool process makes its own.
_own_loop: tuple[int, asyncio.AbstractEventLoop] | None = None
_own_loop_lock = threading.Lock()
OWN_LOOP_SEND_TIMEOUT_S = 30.0  # the layer's own socket timeouts end a send to a Redis that is away sooner


def _send_from_own_loop(layer: Any, group: str, message: dict[str, Any]) -> None:
    """Send on this process's sending loop (a Redis layer), or on a loop made for it (in-memory)."""
    if not isinstance(layer, RedisChannelLayer):
        async_to_sync(layer.group_send)(group, message)  # the in-memory layer lives on its caller's loop
        return
    global _own_loop
    with _own_loop_lock:
        if _own_loop is None or _own_loop[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="broadcast-sender", daemon=True).start()
            _own_loop = (os.getpid(), loop)
        loop = _own_loop[1]
    asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(OWN_LOOP_SEND_TIMEOUT_S)


# The last send handed to the server loop for each group: the next one waits for it, so a
# group hears its frames in the order they were sent (a move, then the end of the game).
_last_send: dict[str, asyncio.Task[Any]] = {}


def _send_in_order(layer: Any, group: str, message: dict[str, Any]) -> None:
    """On the server loop: send `message` to `group` after the sends handed over before it.

    This process's own sockets get it now (the Redis layer knows them), in the order of the
    hand-overs; only the send to other processes waits for the one before it.  Had they waited
    too, the peers here could answer a move before its send through Redis came back, and
    under load their next move's frame queued behind that round trip (seconds at saturation).
    """
    here = None
    if isinstance(layer, PooledRedisChannelLayer):
        try:
            here = layer.group_send_here(group, message)
        except Exception:
            log.exception("broadcast to %s failed", group)
            return
    task = asyncio.get_running_loop().create_task(_send_after(_last_send.get(group), layer, group, message, here))
    _last_send[group] = task
    task.add_done_callback(lambda done: _last_send.pop(group) if _last_send.get(group) is done else None)


async def _send_after(
    previous: asyncio.Task[Any] | None, layer: Any, group: str, message: dict[str, Any], here: str | None
) -> None:
    if previous is not None:
        await asyncio.wait([previous])
    try:
        if here is None:
            await layer.group_send(group, message)
        else:
            await layer.group_send_elsewhere(group, message, here)
    except Exception:  # as above: the client's sync recovers a lost frame
        log.exception("broadcast to %s failed", group)


async def sent(group: str) -> None:
    """Wait until what was handed to this loop for `group` so far has been sent."""
    last = _last_send.get(group)
    if last is not None:
        await asyncio.wait([last])


def _running_on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False

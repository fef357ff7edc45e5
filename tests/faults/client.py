"""A match-socket client that behaves as the page does: keeps `v`, reconnects with `?v=`, resends once.

It records every versioned frame it is handed, so a test can check that each event
arrived exactly once, in order, across drops and restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import websockets

RECONNECT_S = 0.3


class SeatClient:
    def __init__(self, ws_url: str, match_id: int, token: str | None) -> None:
        self.base = f"{ws_url}/ws/matches/{match_id}/"
        self.token = token
        self.v: int | None = None
        self.seat: int | None = None
        self.match: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []  # versioned frames, in the order handed on
        self.frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reconnects = 0
        self.opened_at: list[float] = []  # when each connection opened
        self.pending: tuple[str, int] | None = None  # a move sent and not yet seen played
        self.ws = None
        self._reader: asyncio.Task | None = None

    async def start(self) -> None:
        await self._connect()
        self._reader = asyncio.create_task(self._read_forever())

    async def close(self) -> None:
        if self._reader:
            self._reader.cancel()
        if self.ws is not None:
            await self.ws.close()

    def url(self) -> str:
        query = [f"token={self.token}"] if self.token else []
        if self.v is not None:
            query.append(f"v={self.v}")
        return self.base + ("?" + "&".join(query) if query else "")

    async def _connect(self) -> None:
        replaying = self.v is not None
        self.ws = await websockets.connect(self.url(), open_timeout=5)
        self.opened_at.append(time.monotonic())
        if not replaying:  # a first connection starts with the state; a replay may be empty
            await self._handle(json.loads(await asyncio.wait_for(self.ws.recv(), timeout=10)))

    async def _read_forever(self) -> None:
        while True:
            try:
                async for raw in self.ws:
                    await self._handle(json.loads(raw))
            except websockets.ConnectionClosed:
                pass
            await self._reconnect()

    async def _reconnect(self) -> None:
        while True:
            await asyncio.sleep(RECONNECT_S)
            try:
                await self._connect()
            except (TimeoutError, OSError, websockets.WebSocketException):
                continue
            self.reconnects += 1
            await self._resend_if_lost()
            return

    async def _handle(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "state":
            self.match, self.v = frame["match"], frame["v"]
            self.seat = frame["you"]["seat"]
        elif isinstance(frame.get("v"), int) and frame["type"] != "heartbeat":
            assert self.v is None or frame["v"] == self.v + 1, f"event v{frame['v']} after v{self.v}: {frame}"
            self.v = frame["v"]
            self.events.append(frame)
            if frame["type"] == "move" and self.pending and frame["ply"] == self.pending[1]:
                self.pending = None
        elif frame["type"] == "heartbeat" and self.v is not None and frame["v"] > self.v:
            await self.send({"type": "sync"})  # a frame went missing without a gap: ask for the state
        await self.frames.put(frame)

    async def send(self, frame: dict[str, Any]) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):  # the reconnect resends a pending move
            await self.ws.send(json.dumps(frame))

    async def move(self, move: str, ply: int) -> None:
        self.pending = (move, ply)
        await self.send({"type": "move", "move": move, "ply": ply})

    async def _resend_if_lost(self) -> None:
        """After a reconnect: a move never seen played is sent once more (the ply check makes it safe)."""
        if self.pending is None:
            return
        move, ply = self.pending
        await self.send({"type": "move", "move": move, "ply": ply})

    async def until(self, done, timeout: float = 30) -> dict[str, Any]:
        """The first frame from now on for which `done(frame)` holds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such frame in time")
            frame = await asyncio.wait_for(self.frames.get(), timeout=left)
            assert frame["type"] != "error" or frame["code"] == "stale_ply", frame
            if done(frame):
                return frame

    def moves_seen(self) -> list[tuple[int, int, str]]:
        return [(f["ply"], f["seat"], f["move"]) for f in self.events if f["type"] == "move"]

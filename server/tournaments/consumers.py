"""The tournament socket ``/ws/tournaments/{id}/``: the whole tournament on connect and after every change.

Read-only: anyone may watch (a page, a bot's program); the only frame a client sends is `sync`.
Entering and leaving go through the HTTP API, where the person or the bot token is checked.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from server.matches import broadcast
from server.matches.consumers import CLOSE_NOT_FOUND
from server.realtime.channel_layer import join_groups, leave_groups
from server.realtime.client_frames import RateLimiter, ReadsClientFrames
from server.realtime.failures import DisconnectsWhenItFails
from server.realtime.frames_at_once import frame_text
from server.tournaments import frames
from server.tournaments.announce import tournament_group
from server.tournaments.selectors import tournament_json


class TournamentConsumer(DisconnectsWhenItFails, ReadsClientFrames, AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        broadcast.remember_server_loop()
        self.limiter = RateLimiter(*settings.SOCKET_RATE_LIMIT)
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.joined = False
        await self.accept()
        detail = await database_sync_to_async(tournament_json)(self.tournament_id)
        if detail is None:
            await self.close(code=CLOSE_NOT_FOUND, reason=f"no tournament {self.tournament_id}")
            return
        await join_groups(self.channel_layer, [tournament_group(self.tournament_id)], self.channel_name)
        self.joined = True
        await self.send_json(frames.tournament(detail))

    async def disconnect(self, code: int) -> None:
        if getattr(self, "joined", False):
            await leave_groups(self.channel_layer, [tournament_group(self.tournament_id)], self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """One parsed frame (`receive` counted it against the rate limit): `sync` is the only one."""
        if not isinstance(content, dict) or content.get("type") not in frames.CLIENT_FRAMES:
            await self.send_json(frames.error("bad_message", 'the tournament socket takes {"type": "sync"} only'))
            return
        detail = await database_sync_to_async(tournament_json)(self.tournament_id)
        if detail is not None:
            await self.send_json(frames.tournament(detail))

    async def frame_send(self, event: dict[str, Any]) -> None:
        """A frame of the tournament's group (`broadcast.send_to_group`)."""
        await self.send(text_data=frame_text(event))

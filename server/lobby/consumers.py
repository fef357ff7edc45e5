"""The lobby socket ``/ws/lobby/``: the list on connect, then every change as it happens.

A person with a lobby socket counts as online (`server/matches/presence.py`) until the socket's
task ends, whether its consumer disconnected cleanly or crashed.  The others hear the new
count at most once a second (`server/lobby/online.py`).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from server.lobby import online
from server.lobby.selectors import lobby_json
from server.matches import broadcast, frames, presence
from server.matches.consumers import RATE_LIMITED, RateLimiter, parse_frame
from server.matches.errors import BadMessage
from server.players.services import player_seen


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        broadcast.remember_server_loop()
        self.limiter = RateLimiter(*settings.SOCKET_RATE_LIMIT)
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.accept()
        player = self.scope.get("player")
        # One database call: the person is seen and online (until this socket's task ends), and the list.
        lobby = await database_sync_to_async(_arrive)(player.pk if player is not None else None)
        presence.hold(0, None, player.pk if player is not None else None)
        await self.send_json(lobby)
        online.count_changed()  # everyone in the lobby hears the new count, once for a burst of arrivals

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "sync":
            await self.send_json(await database_sync_to_async(lobby_json)())
        else:
            await self.send_json(frames.error("bad_message", "the lobby only takes sync"))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Every frame counts against the rate limit, then is parsed within bounds (as on the match socket)."""
        if not self.limiter.allow():
            await self.send_json(RATE_LIMITED)
            return
        try:
            content = parse_frame(text_data, bytes_data)
        except BadMessage as exc:
            await self.send_json(frames.error(exc.code, exc.message))
            return
        await self.receive_json(content)

    async def frame_send(self, event: dict[str, Any]) -> None:
        await self.send_json(event["frame"])


def _arrive(player_id: int | None) -> dict[str, Any]:
    if player_id is not None:
        player_seen(player_id)
        presence.person_presence(player_id, True)
    return lobby_json()

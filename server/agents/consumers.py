"""The Bot API's event stream ``/ws/agents/?token=``: challenges and game starts, answers back.

Thin, as the match socket: one service call per client frame, errors with stable codes
(docs/bots.md).  Only a bot account's token opens it.  Games are played on the match socket
``/ws/matches/{id}/`` with the same token, by the same frames and checks as a browser's.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from server.agents import frames, measuring, selectors, services
from server.agents.errors import NotABot
from server.agents.events import events_group
from server.db.db_threads import NoDatabaseHopPerMessage
from server.http.converters import MAX_ID
from server.matches import frames as match_frames
from server.matches.errors import BadMessage, MatchError
from server.players.conduct import BotConduct
from server.players.models import Player
from server.players.selectors import player_json
from server.players.ws_auth import CredentialWatch, scope_player
from server.realtime.channel_layer import join_groups, leave_groups
from server.realtime.client_frames import RateLimiter, ReadsClientFrames
from server.realtime.failures import DisconnectsWhenItFails

CLOSE_NOT_A_BOT = 4403
FRAME_TYPES = ", ".join(frames.CLIENT_FRAMES)


class AgentEventsConsumer(
    DisconnectsWhenItFails,
    CredentialWatch,
    BotConduct,
    NoDatabaseHopPerMessage,
    ReadsClientFrames,
    AsyncJsonWebsocketConsumer,
):
    async def connect(self) -> None:
        self.limiter = RateLimiter(*settings.SOCKET_RATE_LIMIT)
        player = scope_player(self.scope)
        await self.accept()  # then close with a code: a close before accepting reaches a client as 1006
        if player is None or not player.is_bot:
            await self.close(code=CLOSE_NOT_A_BOT, reason=NotABot.__doc__ or "")
            return
        if await self.refused_while_blocked():
            return
        self.bot: Player = player
        self.joined = [events_group(player.pk), *self.credential_groups()]
        await join_groups(self.channel_layer, self.joined, self.channel_name)
        await self.send_opening()
        self.watch_expiry()

    async def send_opening(self) -> None:
        """Who this is, then every challenge waiting and every game not over (a reconnect loses none)."""
        for frame in await database_sync_to_async(_opening_frames)(self.bot):
            await self.send_json(frame)

    async def disconnect(self, code: int) -> None:
        self.stop_watching()
        if hasattr(self, "joined"):
            await leave_groups(self.channel_layer, self.joined, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if hasattr(self, "bot"):  # not a bot's socket: it is closing, nothing is read
            await super().receive(text_data, bytes_data, **kwargs)

    async def frame_refused(self, frame: dict[str, Any]) -> None:
        await self.send_json(frame)
        await self.bot_refused()  # refused frames are strikes (server/players/conduct.py)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """One parsed frame (`receive` counted it against the rate limit)."""
        try:
            await self.handle(content)
        except MatchError as exc:
            await self.frame_refused(match_frames.error(exc.code, exc.message))

    async def handle(self, content: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "sync":
            await self.send_opening()
        elif kind == "accept":
            await database_sync_to_async(services.challenge_accept)(self.bot, _challenge_id(content))
        elif kind == "decline":
            reason = content.get("reason", "generic")
            if not isinstance(reason, str):
                raise BadMessage("a decline's reason is a string")
            await database_sync_to_async(services.challenge_decline)(self.bot, _challenge_id(content), reason)
        else:
            raise BadMessage(f"the event stream takes {FRAME_TYPES}, as JSON objects with a 'type'")

    async def agent_event(self, event: dict[str, Any]) -> None:
        """A frame for this bot, told by a service after its commit (server/agents/events.py)."""
        await self.send_json(event["frame"])


def _challenge_id(content: dict[str, Any]) -> int:
    value = content.get("challenge")
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_ID:
        raise BadMessage(f'{content["type"]} names the challenge: {{"type": "{content["type"]}", "challenge": 12}}')
    return value


def _limits() -> dict[str, Any]:
    frames_, seconds = settings.SOCKET_RATE_LIMIT
    moves, move_seconds = settings.SOCKET_MOVE_RATE_LIMIT
    return {
        "games_per_bot": settings.BOT_GAMES_PER_BOT,
        "games_per_owner": settings.BOT_GAMES_PER_OWNER,
        "frames": {"count": frames_, "seconds": seconds},
        "moves": {"count": moves, "seconds": move_seconds},
        "strikes": {"count": settings.BOT_STRIKES, "seconds": settings.BOT_STRIKE_WINDOW_S},
        "block_seconds": settings.BOT_BLOCK_S,
    }


def _opening_frames(bot: Player) -> list[dict[str, Any]]:
    bot = Player.objects.select_related("bot_owner").get(pk=bot.pk)
    measuring.resume(bot.pk)  # a run a crash left between two games starts its next one
    opening = [frames.hello(player_json(bot), _limits())]
    opening += [frames.challenge(selectors.challenge_json(c)) for c in selectors.open_challenges_to(bot.pk)]
    opening += [frames.game_start(s["match"], s["game"], s["seat"]) for s in selectors.bot_seats(bot.pk)]
    return opening

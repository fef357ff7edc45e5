"""The lobby socket ``/ws/lobby/``: the list on connect, then every change as it happens.

A person with a lobby socket counts as online (`server/matches/presence.py`) until the socket's
task ends, whether its consumer disconnected cleanly or crashed.  The others hear the new
count at most once a second (`server/lobby/online.py`).

Quick pairing happens here too (`server/pairing/`): a seek belongs to the socket that placed
it and goes when that socket closes; `paired` reaches the person's every lobby socket.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from server.db.db_threads import NoDatabaseHopPerMessage
from server.lobby import online
from server.lobby.selectors import lobby_json
from server.matches import broadcast, frames, presence
from server.matches.errors import BadMessage, MatchError
from server.pairing import services as pairing
from server.pairing.selectors import seeks_json
from server.players.models import Player
from server.players.services import player_seen
from server.players.ws_auth import CredentialWatch, scope_player
from server.realtime.channel_layer import join_groups, leave_groups
from server.realtime.client_frames import RateLimiter, ReadsClientFrames
from server.realtime.failures import DisconnectsWhenItFails
from server.realtime.frames_at_once import FramesWrittenAtOnce, frame_text

FRAME_TYPES = ", ".join(frames.LOBBY_CLIENT_FRAMES)
SEEK_SHAPE = 'a seek is {"type": "seek", "game": "connect4", "clock": "5+3" or null, "rated": true, "range": 200}'


class LobbyConsumer(
    DisconnectsWhenItFails,
    CredentialWatch,
    FramesWrittenAtOnce,
    NoDatabaseHopPerMessage,
    ReadsClientFrames,
    AsyncJsonWebsocketConsumer,
):
    # Each frame a client sends (`frames.LOBBY_CLIENT_FRAMES`), by the method that handles it.
    HANDLERS = {"sync": "on_sync", "seek": "on_seek", "seek_cancel": "on_seek_cancel", "seek_accept": "on_seek_accept"}

    async def connect(self) -> None:
        broadcast.remember_server_loop()
        self.limiter = RateLimiter(*settings.SOCKET_RATE_LIMIT)
        player = scope_player(self.scope)
        self.take_frames_at_once()  # held until this opening ends, then written as they come
        await join_groups(self.channel_layer, self.own_groups(), self.channel_name)
        await self.accept()
        # One database call: the person is seen and online (until this socket's task ends), and the list.
        lobby = await database_sync_to_async(_arrive)(player.pk if player is not None else None)
        presence.hold(0, None, player.pk if player is not None else None)
        await self.send_json(lobby)
        await self.send_seeks()
        self.watch_expiry()
        online.count_changed()  # everyone in the lobby hears the new count, once for a burst of arrivals

    def own_groups(self) -> list[str]:
        """The lobby's group, and the person's own (a seek paired is told there) and their
        credentials'.  Not `groups`, which Channels joins and leaves one by one itself."""
        player = scope_player(self.scope)
        person = [pairing.person_group(player.pk)] if player is not None else []
        return [broadcast.LOBBY_GROUP, *person, *self.credential_groups()]

    async def disconnect(self, code: int) -> None:
        self.stop_watching()
        self.stop_taking_frames()
        await leave_groups(self.channel_layer, self.own_groups(), self.channel_name)
        if getattr(self, "seeked", False):  # only a socket that placed a seek costs a query on leaving
            await database_sync_to_async(pairing.seek_left)(self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """One parsed frame (`receive` counted it against the rate limit)."""
        kind = content.get("type") if isinstance(content, dict) else None
        name = self.HANDLERS.get(kind) if isinstance(kind, str) else None
        if name is None:
            await self.send_json(frames.error("bad_message", f"the lobby takes {FRAME_TYPES}"))
            return
        try:
            await getattr(self, name)(content)
        except MatchError as exc:
            await self.send_json(frames.error(exc.code, exc.message))

    async def on_sync(self, content: dict[str, Any]) -> None:
        await self.send_json(await database_sync_to_async(lobby_json)())
        await self.send_seeks()

    async def send_seeks(self) -> None:
        """The open seeks after the `lobby` frame, only when there are some: `lobby` empties the page's list."""
        seeks = await database_sync_to_async(seeks_json)()
        if seeks:
            await self.send_json(frames.seeks(seeks))

    async def on_seek(self, content: dict[str, Any]) -> None:
        request = _seek_request(content)
        self.seeked = True
        await database_sync_to_async(pairing.seek_place)(self._person(), self.channel_name, request)

    async def on_seek_cancel(self, content: dict[str, Any]) -> None:
        await database_sync_to_async(pairing.seek_cancel)(self._person().pk)

    async def on_seek_accept(self, content: dict[str, Any]) -> None:
        seek_id = content.get("id")
        if not isinstance(seek_id, int) or isinstance(seek_id, bool) or seek_id < 1:
            raise BadMessage('seek_accept names the seek: {"type": "seek_accept", "id": 12}')
        await database_sync_to_async(pairing.seek_accept)(seek_id, self._person())

    def _person(self) -> Player:
        player = scope_player(self.scope)
        if player is None:
            raise BadMessage("open the site in a browser first: seeks are made by a person")
        return player

    async def frame_send(self, event: dict[str, Any]) -> None:
        """A frame of the lobby's groups, when it was not written as it came (`FramesWrittenAtOnce`)."""
        await self.send(text_data=frame_text(event))


def _seek_request(content: dict[str, Any]) -> pairing.SeekRequest:
    """The seek a `seek` frame asks for; BadMessage for a field of the wrong kind."""
    game, clock, rated, rating_range = (content.get(k) for k in ("game", "clock", "rated", "range"))
    if not isinstance(game, str) or not isinstance(clock, str | None) or not isinstance(rated, bool):
        raise BadMessage(SEEK_SHAPE)
    if rating_range is not None and (not isinstance(rating_range, int) or isinstance(rating_range, bool)):
        raise BadMessage("a seek's range is a whole number of rating points, or null for anyone")
    options = content.get("options") or {}
    if not isinstance(options, dict):
        raise BadMessage("a seek's options are an object of the game's option names and values")
    return pairing.SeekRequest(
        game=game[:40], clock=(clock or "")[:12], rated=rated, rating_range=rating_range, options=options
    )


def _arrive(player_id: int | None) -> dict[str, Any]:
    if player_id is not None:
        player_seen(player_id)
        presence.person_presence(player_id, True)
    return lobby_json()

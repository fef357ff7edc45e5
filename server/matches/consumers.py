"""The match socket ``/ws/matches/{id}/``: thin, one service call per client frame."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from server.chat import selectors as chat_selectors
from server.chat.services import chat_post
from server.db.db_threads import NoDatabaseHopPerMessage
from server.http.converters import MAX_ID
from server.matches import broadcast, frames, heartbeat, presence, selectors, services
from server.matches.errors import BadMessage, MatchError, NotFound
from server.matches.move_stats import checked_stats
from server.matches.services import rematch
from server.players.conduct import BotConduct
from server.players.ws_auth import CredentialWatch, scope_player
from server.realtime.channel_layer import join_groups, leave_groups
from server.realtime.client_frames import RateLimiter, ReadsClientFrames
from server.realtime.failures import DisconnectsWhenItFails
from server.realtime.frames_at_once import FramesWrittenAtOnce, frame_text

CLOSE_NOT_FOUND = 4404
FRAME_TYPES = ", ".join(frames.CLIENT_FRAMES)


class MatchConsumer(
    DisconnectsWhenItFails,
    CredentialWatch,
    BotConduct,
    FramesWrittenAtOnce,
    NoDatabaseHopPerMessage,
    ReadsClientFrames,
    AsyncJsonWebsocketConsumer,
):
    # Each frame a client sends (`frames.CLIENT_FRAMES`), by the method that handles it.
    HANDLERS: Mapping[str, str] = {
        "move": "on_move",
        "resign": "on_resign",
        "resign_offer": "on_resign_offer",
        "sync": "on_sync",
        "takeback_request": "on_takeback_request",
        "draw_offer": "on_draw_offer",
        "claim_draw": "on_claim_draw",
        "accept": "on_answer",
        "decline": "on_answer",
        "rematch_offer": "on_rematch",
        "rematch_accept": "on_rematch",
        "rematch_decline": "on_rematch",
        "chat": "on_chat",
    }

    async def connect(self) -> None:
        broadcast.remember_server_loop()
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        if self.match_id > MAX_ID:  # no row has it, and the database would overflow looking
            await self.refuse(CLOSE_NOT_FOUND)
            return
        self.player = scope_player(self.scope)
        self.limiter = RateLimiter(*settings.SOCKET_RATE_LIMIT)
        self.move_limiter = RateLimiter(*settings.SOCKET_MOVE_RATE_LIMIT)
        self.group = broadcast.match_group(self.match_id)
        # The match's group, then its chat room's, the person's and their credentials' (not
        # `groups`, which Channels joins and leaves one by one itself).
        self.joined = [self.group, *self.credential_groups()]
        # Accepted before any database call: daphne drops a handshake not accepted within 5 s,
        # and in a connect storm (a restart reconnects everyone) sockets queued for the database
        # would time out and retry, each retry queued again behind the others.
        await self.accept()
        if await self.refused_while_blocked():  # a bot account blocked for its conduct
            return
        # Two database calls before the first frame, on this socket's database thread
        # (server/db/db_threads.py).  First, before joining the group (the others hear that
        # this seat is here, and this socket's state says so): the match exists, the seat, and
        # every presence write of an arrival.
        found, self.seat = await database_sync_to_async(services.socket_arrived)(self.match_id, self.player_id)
        if not found:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        presence.hold(self.match_id, self.seat, self.player_id)  # let go when this socket's task ends
        # The arrival's own `presence` frame went to the others before this socket joins.
        await broadcast.sent(self.group)
        # One chat room per socket: a seated person's socket hears the players, any other the
        # spectators (until its person takes a seat: `frame_written`).
        room = chat_selectors.PLAYERS if self.seat is not None else chat_selectors.SPECTATORS
        self.room_group = chat_selectors.chat_group(self.match_id, room)
        self.joined.append(self.room_group)
        if self.player_id is not None:  # staff muting or unmuting this person is told here live
            self.joined.append(chat_selectors.person_group(self.player_id))
        self.take_frames_at_once()  # held until this opening ends, then written as they come
        await join_groups(self.channel_layer, self.joined, self.channel_name)
        # Then, in the group: the state or the events since ?v=, so no frame falls between the two.
        since = _since_version(self.scope)
        opening = database_sync_to_async(_opening_frames)
        for frame in await opening(self.match_id, self.player_id, since, room):
            await self.send_frame(frame)
        heartbeat.register(self.match_id, self)
        self.watch_expiry()

    async def refuse(self, code: int) -> None:
        """Accept, then close with `code`: a close before accepting reaches a browser as 1006,
        which it retries for ever, while 4400-4499 tell the page to stop (socket.js)."""
        await self.accept()
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        self.stop_watching()
        if hasattr(self, "match_id"):
            heartbeat.unregister(self.match_id, self)
        if hasattr(self, "joined"):
            if getattr(self, "_room_move", None) is not None:  # the new room joined before all is left
                await asyncio.wait([self._room_move])
            self.stop_taking_frames()
            await leave_groups(self.channel_layer, self.joined, self.channel_name)
        seat: int | None = getattr(self, "seat", None)
        if seat is not None:
            await presence.left(self.match_id, seat)
            if getattr(self, "rematch_pending", False) and (self.match_id, seat) not in presence.here():
                rematch.rematch_leaving(self.match_id, seat)  # off after a grace, unless a reload

    def limiter_for(self, content: Any) -> RateLimiter:
        """Moves have a budget of their own, so a player's moves at any human speed (premoves
        included) never wait behind their syncs and offers, nor are eaten by them
        (docs/design.md §6.2).  Every other frame, good or bad, shares one."""
        return self.move_limiter if _is_move(content) else self.limiter

    async def frame_refused(self, frame: dict[str, Any]) -> None:
        await self.send_json(frame)
        await self.bot_refused()  # a bot account's refused frames are strikes (server/players/conduct.py)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """One parsed frame (`receive` counted it against the rate limit)."""
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self.send_error(BadMessage("a frame is a JSON object with a string 'type'"))
            return
        name = self.HANDLERS.get(content["type"])
        if name is None:
            await self.send_error(BadMessage(f"unknown frame type {content['type'][:40]!r}: use one of {FRAME_TYPES}"))
            return
        try:
            await getattr(self, name)(content)
        except MatchError as exc:
            await self.send_error(exc)

    async def on_move(self, content: dict[str, Any]) -> None:
        player_id = self.player.pk if self.player else None
        stats = None if content.get("stats") is None else checked_stats(content["stats"], self.player)
        await _move_on_its_thread(self.match_id, player_id, content.get("move"), content.get("ply"), stats)

    async def on_resign(self, content: dict[str, Any]) -> None:
        player_id = self.player.pk if self.player else None
        await database_sync_to_async(_resign)(self.match_id, player_id)

    async def on_resign_offer(self, content: dict[str, Any]) -> None:
        extra = sorted(k for k in content if k not in ("type", "level"))
        if extra:
            raise BadMessage(f"a resign_offer frame has only a level (got {', '.join(extra)[:80]})")
        await database_sync_to_async(_resign_offer)(self.match_id, self.player_id, content.get("level"))

    async def on_takeback_request(self, content: dict[str, Any]) -> None:
        _no_fields(content)
        await database_sync_to_async(_offer)(self.match_id, self.player_id, "takeback")

    async def on_draw_offer(self, content: dict[str, Any]) -> None:
        _no_fields(content)
        await database_sync_to_async(_offer)(self.match_id, self.player_id, "draw")

    async def on_claim_draw(self, content: dict[str, Any]) -> None:
        _no_fields(content)
        await database_sync_to_async(_claim_draw)(self.match_id, self.player_id)

    async def on_answer(self, content: dict[str, Any]) -> None:
        _no_fields(content)
        await database_sync_to_async(_answer)(self.match_id, self.player_id, content["type"] == "accept")

    async def on_rematch(self, content: dict[str, Any]) -> None:
        _no_fields(content)
        await database_sync_to_async(_rematch)(self.match_id, self.player_id, content["type"])

    async def on_chat(self, content: dict[str, Any]) -> None:
        extra = sorted(k for k in content if k not in ("type", "text"))
        if extra:
            raise BadMessage(f"a chat frame has only a text (got {', '.join(extra)[:80]})")
        await database_sync_to_async(chat_post)(self.match_id, self.player_id, content.get("text"))

    @property
    def player_id(self) -> int | None:
        return self.player.pk if self.player else None

    async def on_sync(self, content: dict[str, Any]) -> None:
        await self.send_state()

    async def send_state(self) -> None:
        frame = await database_sync_to_async(_state_frame)(self.match_id, self.player.pk if self.player else None)
        await self.send_frame(frame)

    async def send_error(self, exc: MatchError) -> None:
        await self.frame_refused(frames.error(exc.code, exc.message))

    async def frame_send(self, event: dict[str, Any]) -> None:
        """A frame broadcast to the match's groups (after a commit), when it was not written as
        it came (`FramesWrittenAtOnce`): one text for all of this process's sockets."""
        await self.send_frame(event["frame"], frame_text(event))

    async def send_frame(self, frame: dict[str, Any], text: str | None = None) -> None:
        """Send a frame of the match (`text`: it encoded already)."""
        self.frame_written(frame)
        await self.send(text_data=text if text is not None else await self.encode_json(frame))

    def frame_written(self, frame: dict[str, Any]) -> None:
        """Note whether a rematch offer waits (leaving then withdraws it), and whether this
        socket's person just took a seat (its chat moves to the players' room)."""
        self.rematch_pending = rematch.pending_after(frame, getattr(self, "rematch_pending", False))
        if frame.get("type") == "seat" and self.player_id is not None and _seated_player(frame) == self.player_id:
            self.move_to_room(chat_selectors.PLAYERS)

    def move_to_room(self, room: str) -> None:
        """Hear `room` of the match's chat instead of the one this socket hears now: a spectator
        who takes a seat leaves the spectators' room (players never read it, docs/wire.md)."""
        group = chat_selectors.chat_group(self.match_id, room)
        if getattr(self, "room_group", group) == group:
            return
        old, self.room_group = self.room_group, group
        self.joined = [group if g == old else g for g in self.joined]
        # Left before this returns, as far as this process's sockets go: the next frame of the
        # spectators' room relayed here no longer reaches this socket.
        self._room_move = asyncio.ensure_future(self._switch_groups(old, group))

    async def _switch_groups(self, old: str, new: str) -> None:
        await leave_groups(self.channel_layer, [old], self.channel_name)
        await join_groups(self.channel_layer, [new], self.channel_name)


def _seated_player(frame: dict[str, Any]) -> int | None:
    """The person a `seat` frame seats (None for a bot)."""
    player = (frame.get("seat") or {}).get("player") or {}
    return player.get("id") if player.get("kind") == "human" else None


def _is_move(content: Any) -> bool:
    return isinstance(content, dict) and content.get("type") == "move"


def _no_fields(content: dict[str, Any]) -> None:
    extra = sorted(k for k in content if k != "type")
    if extra:
        raise BadMessage(f"a {content['type']} frame has no other fields (got {', '.join(extra)[:80]})")


def _since_version(scope: Mapping[str, Any]) -> int | None:
    """``?v=N``: the version the client has seen, or None (send the state) for anything but a plain number."""
    raw = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [None])[0]
    if raw is None or not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(MAX_ID)):
        return None  # "²" and "٣" are digits to str.isdigit, but no version
    since = int(raw)
    return since if since <= MAX_ID else None


def _opening_frames(match_id: int, player_id: int | None, since: int | None, room: str) -> list[dict[str, Any]]:
    """What a socket hears first: the events after `since`, or the state when they are not kept.

    A replay ends with a heartbeat carrying the version it reached, so a page that was up to
    date (most of a reconnect storm) hears at once that it still is.
    """
    replay = None if since is None else selectors.events_after(match_id, since)
    if replay is None:
        return [_state_frame(match_id, player_id)]
    # The chat is not in the event log (each room has its own): its recent lines come again.
    chat = chat_selectors.chat_to_resume(match_id, player_id, room)
    reached = replay[-1]["v"] if replay else since
    return [
        *replay,
        *([frames.chat_history(chat)] if chat is not None else []),
        frames.heartbeat(reached, heartbeat.interval_ms()),  # type: ignore[arg-type]  # a replay: `since` was given
    ]


def _state_frame(match_id: int, player_id: int | None) -> dict[str, Any]:
    match = selectors.match_get(match_id)
    if match is None:
        raise NotFound(f"no match {match_id}")
    chat = chat_selectors.chat_json(match, player_id)
    return frames.state(selectors.match_json(match), selectors.seat_of(match, player_id), chat)


def _seat_for(match_id: int, player_id: int | None) -> int:
    match = selectors.match_get(match_id)
    if match is None:
        raise NotFound(f"no match {match_id}")
    return services.require_seat(match, player_id)


def _move(match_id: int, player_id: int | None, move: Any, ply: Any, stats: dict[str, Any] | None) -> None:
    services.submit_player_move(match_id, player_id, move, ply, stats)


# Wrapped once rather than on every move: asgiref's wrapper is work the event loop need not do
# again for each move.  (It runs on the calling socket's thread.)
_move_on_its_thread = database_sync_to_async(_move)


def _resign(match_id: int, player_id: int | None) -> None:
    services.match_resign(match_id, _seat_for(match_id, player_id))


def _resign_offer(match_id: int, player_id: int | None, level: Any) -> None:
    services.match_resign_offer(match_id, _seat_for(match_id, player_id), level)


def _offer(match_id: int, player_id: int | None, kind: str) -> None:
    services.match_offer(match_id, _seat_for(match_id, player_id), kind)


def _claim_draw(match_id: int, player_id: int | None) -> None:
    services.match_claim_draw(match_id, _seat_for(match_id, player_id))


def _answer(match_id: int, player_id: int | None, accept: bool) -> None:
    services.match_answer(match_id, _seat_for(match_id, player_id), accept)


def _rematch(match_id: int, player_id: int | None, kind: str) -> None:
    seat = _seat_for(match_id, player_id)
    if kind == "rematch_offer":
        rematch.rematch_offer(match_id, seat)
    else:
        rematch.rematch_answer(match_id, seat, kind == "rematch_accept")

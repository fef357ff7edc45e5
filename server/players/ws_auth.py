"""Which player a WebSocket is: ``?token=`` or the browser session (docs/design.md §5), for
as long as that credential holds (`CredentialWatch`)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from importlib import import_module
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.utils import timezone

from server.players.models import Player
from server.players.revocation import credentials_group, session_digest
from server.players.selectors import player_by_session, token_by_secret

# A token that authenticates nobody (unknown, revoked, expired): the socket is refused, as
# HTTP answers 401, rather than served as an anonymous spectator.  The client treats close
# codes 4400-4499 as final (frontend/static/frontend/js/socket.js): it does not retry.
CLOSE_BAD_TOKEN = 4401
# The same code for an open socket whose credential ended: the token revoked, rotated or
# expired, the session logged out (or ended by a password change), the account deactivated.
CLOSE_SIGNED_OUT = CLOSE_BAD_TOKEN
SIGNED_OUT_REASON = "signed out: your token or login ended; sign in again and reopen the page"


@dataclass(frozen=True)
class Credential:
    """What opened a socket: a bearer token, or a browser session (by its key); `expires_at` a token's end."""

    token: str = ""
    session_key: str | None = None
    expires_at: datetime | None = None


def scope_player(scope: Mapping[str, Any]) -> Player | None:
    """The player `PlayerWebSocketMiddleware` put in a socket's scope (None: nobody)."""
    player: Player | None = scope.get("player")
    return player


class PlayerWebSocketMiddleware:
    """Sets ``scope["player"]`` (a Player or None) and ``scope["credential"]`` (what named
    it, asked again when it may have ended) after the session middleware ran.

    A socket with ``?token=`` is that token's player or nobody: an unknown token is closed
    with `CLOSE_BAD_TOKEN`, never served without one.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [""])[0]
        session = scope.get("session")
        player, credential = await _resolve(token, session)
        if token and player is None:
            return await _refuse_bad_token(scope, receive, send)  # type: ignore[arg-type]  # a Channels scope is a plain dict
        return await self.inner(dict(scope, player=player, credential=credential), receive, send)


class BadTokenRefusal(AsyncWebsocketConsumer):
    """Accepts, then closes with `CLOSE_BAD_TOKEN`: a close before accepting reaches a browser as 1006."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_BAD_TOKEN)


_refuse_bad_token = BadTokenRefusal.as_asgi()


@database_sync_to_async
def _resolve(token: str, session: SessionBase | None) -> tuple[Player | None, Credential]:
    if token:
        found = token_by_secret(token)
        return (found.player, Credential(token=token, expires_at=found.expires_at)) if found else (None, Credential())
    if session is not None:
        return player_by_session(session), Credential(session_key=session.session_key)
    return None, Credential()


def still_signed_in(credential: Credential, player_id: int) -> bool:
    """Whether `credential` still names `player_id`: the token live, the session still logged in to it."""
    if credential.token:
        found = token_by_secret(credential.token)
        return found is not None and found.player_id == player_id
    if credential.session_key is None:
        return False
    # Read afresh from the session store: the socket's own copy is as it was at the opening.
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=credential.session_key)
    player = player_by_session(session)
    return player is not None and player.pk == player_id


class CredentialWatch:
    """A consumer mixin: the socket of a player is closed with `CLOSE_SIGNED_OUT` when the
    credential that opened it ends (server/players/revocation.py), and reads no frame after.

    The consumer joins `credential_groups()` with its other groups, calls `watch_expiry()` once
    accepted and `stop_watching()` on disconnect, and drops client frames while `signed_out`.
    """

    signed_out = False
    _expiry: asyncio.TimerHandle | None = None

    def credential_groups(self) -> list[str]:
        player = self.scope.get("player")  # type: ignore[attr-defined]  # a mixin: the consumer has `scope`
        return [credentials_group(player.pk)] if player is not None else []

    def watch_expiry(self) -> None:
        """A token's sockets close when it expires (nothing else tells them: no row changes)."""
        credential = self.scope.get("credential")  # type: ignore[attr-defined]  # a mixin: the consumer has `scope`
        if credential is None or credential.expires_at is None:
            return
        delay = max(0.0, (credential.expires_at - timezone.now()).total_seconds())
        self._expiry = asyncio.get_running_loop().call_later(delay, self._expired)

    def _expired(self) -> None:
        self._expiry = None
        asyncio.ensure_future(self.sign_out())

    def stop_watching(self) -> None:
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None

    async def credentials_changed(self, event: dict[str, Any]) -> None:
        """A credential of this socket's player changed: close unless this socket's still holds."""
        if self.signed_out:
            return
        player = self.scope.get("player")  # type: ignore[attr-defined]  # a mixin: the consumer has `scope`
        credential = self.scope.get("credential")  # type: ignore[attr-defined]  # a mixin: the consumer has `scope`
        if player is None or credential is None:
            return
        ended = event.get("ended_session")
        ended_here = ended is not None and ended == session_digest(credential.session_key)
        if ended_here or not await database_sync_to_async(still_signed_in)(credential, player.pk):
            await self.sign_out()

    async def sign_out(self) -> None:
        if self.signed_out:
            return
        self.signed_out = True
        await self.close(code=CLOSE_SIGNED_OUT, reason=SIGNED_OUT_REASON)  # type: ignore[attr-defined]  # a mixin: the consumer has `close`

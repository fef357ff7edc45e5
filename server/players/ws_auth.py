"""Which player a WebSocket is: ``?token=`` or the browser session (docs/design.md §5)."""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from server.players.selectors import player_by_session, player_by_token

# A token that authenticates nobody (unknown, revoked, expired): the socket is refused, as
# HTTP answers 401, rather than served as an anonymous spectator.  The client treats close
# codes 4400-4499 as final (frontend/static/frontend/js/socket.js): it does not retry.
CLOSE_BAD_TOKEN = 4401


class PlayerWebSocketMiddleware:
    """Sets ``scope["player"]`` (a Player or None) after the session middleware ran.

    A socket with ``?token=`` is that token's player or nobody: an unknown token is closed
    with `CLOSE_BAD_TOKEN`, never served without one.
    """

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [""])[0]
        session = scope.get("session")
        player = await _resolve(token, session)
        if token and player is None:
            return await _refuse_bad_token(scope, receive, send)
        return await self.inner(dict(scope, player=player), receive, send)


class BadTokenRefusal(AsyncWebsocketConsumer):
    """Accepts, then closes with `CLOSE_BAD_TOKEN`: a close before accepting reaches a browser as 1006."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_BAD_TOKEN)


_refuse_bad_token = BadTokenRefusal.as_asgi()


@database_sync_to_async
def _resolve(token: str, session):
    if token:
        return player_by_token(token)
    if session is not None:
        return player_by_session(session)
    return None

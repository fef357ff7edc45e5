"""Which player a WebSocket is: ``?token=`` or the browser session (DESIGN §5)."""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from server.players.selectors import player_by_session, player_by_token


class PlayerWebSocketMiddleware:
    """Sets ``scope["player"]`` (a Player or None) after the session middleware ran."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [""])[0]
        session = scope.get("session")
        scope = dict(scope, player=await _resolve(token, session))
        return await self.inner(scope, receive, send)


@database_sync_to_async
def _resolve(token: str, session):
    if token:
        return player_by_token(token)
    if session is not None:
        return player_by_session(session)
    return None

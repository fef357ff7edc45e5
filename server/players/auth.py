"""How a request says which player it is: a bearer token, or the browser session."""

from __future__ import annotations

from rest_framework import authentication, exceptions

from server.players.selectors import player_by_token


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <token>``, as issued by ``POST /api/players/guest/``."""

    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1").split()
        if not header or header[0] != self.keyword:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("the Authorization header is 'Bearer <token>'")
        player = player_by_token(header[1])
        if player is None:
            raise exceptions.AuthenticationFailed("unknown or revoked token")
        return player, header[1]

    def authenticate_header(self, request):
        return self.keyword


class SessionPlayerAuthentication(authentication.SessionAuthentication):
    """The guest or account player of a browser session, with Django's CSRF check."""

    def authenticate(self, request):
        player = getattr(request._request, "player", None)
        if player is None:
            return None
        self.enforce_csrf(request)
        return player, None

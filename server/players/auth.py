"""How a request says which player it is: a bearer token, or the browser session."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from server.players.models import Player
from server.players.selectors import player_by_token
from server.players.services import player_create_for_session
from server.players.throttles import SessionGuestThrottle


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <token>``, as issued by ``POST /api/players/guest/``."""

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Player, str] | None:
        header = authentication.get_authorization_header(request).decode("latin-1").split()
        if not header or header[0] != self.keyword:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("the Authorization header is 'Bearer <token>'")
        player = player_by_token(header[1])
        if player is None:
            raise exceptions.AuthenticationFailed("unknown, expired or revoked token")
        return player, header[1]

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class SessionPlayerAuthentication(authentication.SessionAuthentication):
    """The guest or account player of a browser session, with Django's CSRF check.

    A browser without a player gets a guest on its first unsafe request (POST, PUT, PATCH,
    DELETE) that passes the CSRF check: only a page of the site sets the CSRF cookie, so
    this is a person who clicked something, not a crawler.  Guests made this way are
    throttled per client address (scope ``guest_session``).  Without the CSRF cookie the
    request is simply not signed in (401 where a player is needed).
    """

    def authenticate(self, request: Request) -> tuple[Player, None] | None:
        player = getattr(request._request, "player", None)
        if player is None:
            if request.method in SAFE_METHODS or settings.CSRF_COOKIE_NAME not in request.COOKIES:
                return None
            self.enforce_csrf(request)
            player = self._new_guest(request)
            request._request.player = player  # type: ignore[attr-defined]  # the site's own attribute (PlayerMiddleware)
            return player, None
        self.enforce_csrf(request)
        return player, None

    @staticmethod
    def _new_guest(request: Request) -> Player:
        throttle = SessionGuestThrottle()
        if not throttle.allow_request(request, None):  # type: ignore[arg-type]  # by address: no view is read
            raise exceptions.Throttled(throttle.wait())
        return player_create_for_session(request._request.session)


# --- OpenAPI: how /api/schema/ describes the two ways in ------------------------------


class BearerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # drf-spectacular's registry is unannotated
    """``Authorization: Bearer <token>`` in the schema (the token of ``POST /api/players/guest/``)."""

    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "the token of POST /api/players/guest/ (or of an account), sent as 'Bearer <token>'",
        }


class SessionPlayerScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # drf-spectacular's registry is unannotated
    """The browser session's cookie in the schema; unsafe methods also need the CSRF token."""

    target_class = SessionPlayerAuthentication
    name = "sessionAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.SESSION_COOKIE_NAME,
            "description": f"the browser's session; POST, PUT, PATCH and DELETE also send the "
            f"{settings.CSRF_COOKIE_NAME} cookie's value as {settings.CSRF_HEADER_NAME[5:].replace('_', '-')}",
        }


def request_player(request: Request) -> Player | None:
    """The player behind a request, or None: the backends above authenticate Players, and
    ``UNAUTHENTICATED_USER`` is None (the stubs know only Django's users)."""
    player: Player | None = request.user  # type: ignore[assignment]  # see above
    return player


def acting_player(request: Request) -> Player:
    """The person behind a request (session guest or bearer token), or 401; a bot account's
    token is refused (403): bots play only through challenges (`acting_player_or_bot`)."""
    player = acting_player_or_bot(request)
    if player.is_bot:
        raise exceptions.PermissionDenied("a bot account plays only through challenges and /ws/agents/ (docs/bots.md)")
    return player


def acting_player_or_bot(request: Request) -> Player:
    """The player behind a request, a bot account included (the few places bots may act), or 401."""
    player = request_player(request)
    if player is None:
        raise exceptions.NotAuthenticated("visit the site or send 'Authorization: Bearer <token>'")
    return player

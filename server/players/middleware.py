"""Which player a browser is: the one its session names, if any (docs/design.md §5).

A guest is not made on a page visit (every crawler, preview and health check would leave
one behind) but on the browser's first action that needs a player: creating or joining
a match, a hint, an analysis, a token (`SessionPlayerAuthentication`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from server.players.selectors import player_by_session
from server.players.services import player_seen

# API clients authenticate with tokens; a socket notes its player itself.
NOT_A_VISIT_PREFIXES = ("/api/", "/static/", f"/{settings.ADMIN_PATH}", "/ws/", "/favicon")


class PlayerMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        player = player_by_session(request.session)
        request.player = player  # type: ignore[attr-defined]  # the site's own attribute: views read it
        if player is not None and not request.path.startswith(NOT_A_VISIT_PREFIXES):
            player_seen(player.pk)
        return self.get_response(request)

"""Every browser gets a player: a guest is made on its first page visit (DESIGN §5)."""

from __future__ import annotations

from server.players.selectors import SESSION_KEY, player_by_session
from server.players.services import player_create_guest, player_seen

# API clients authenticate with tokens; they must not leave a trail of guests behind.
NO_GUEST_PREFIXES = ("/api/", "/static/", "/admin/", "/ws/", "/favicon")


class PlayerMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.player = player_by_session(request.session)
        if request.player is None and request.method == "GET" and not request.path.startswith(NO_GUEST_PREFIXES):
            request.player = player_create_guest()
            request.session[SESSION_KEY] = request.player.pk
        if request.player is not None and not request.path.startswith(NO_GUEST_PREFIXES):
            player_seen(request.player.pk)
        return self.get_response(request)

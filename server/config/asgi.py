"""ASGI entry point: HTTP through Django, WebSockets through Channels (daphne serves it)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.dev")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402

from server.bots.watchdog import start_watchdog  # noqa: E402
from server.config.db_threads import DatabaseThreads  # noqa: E402
from server.lobby.routing import websocket_urlpatterns as lobby_ws  # noqa: E402
from server.matches.broadcast import remember_server_loop  # noqa: E402
from server.matches.heartbeat import start_heartbeat  # noqa: E402
from server.matches.routing import websocket_urlpatterns as match_ws  # noqa: E402
from server.matches.watch import start_match_watch  # noqa: E402
from server.players.ws_auth import PlayerWebSocketMiddleware  # noqa: E402


class BrowserOriginValidator(OriginValidator):
    """Browsers must come from our own hosts (no cross-site sockets riding a session cookie).

    Clients without an Origin header are not browsers; they authenticate with a token.
    """

    def valid_origin(self, parsed_origin):
        return parsed_origin is None or super().valid_origin(parsed_origin)


router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Each socket's database calls on one of a few threads that keep their connections.
        "websocket": DatabaseThreads(
            BrowserOriginValidator(
                SessionMiddlewareStack(PlayerWebSocketMiddleware(URLRouter(match_ws + lobby_ws))),
                settings.ALLOWED_HOSTS,
            )
        ),
    }
)


async def application(scope, receive, send):
    """The router, plus the server's own background duties, started on first use."""
    remember_server_loop()
    start_watchdog()
    start_match_watch()
    start_heartbeat()
    return await router(scope, receive, send)


if settings.BOT_RUNNER == "embedded":
    from server.bots.runners import EmbeddedRunner  # noqa: E402

    EmbeddedRunner.instance()  # starts and warms the search processes before the first request

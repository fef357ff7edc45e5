"""ASGI entry point: HTTP through Django, WebSockets through Channels (daphne serves it)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.dev")
django_asgi_app = get_asgi_application()

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import re_path  # noqa: E402

from server.agents.routing import websocket_urlpatterns as agent_ws  # noqa: E402
from server.analysis.watchdog import start_analysis_watch  # noqa: E402
from server.bots.watchdog import start_watchdog  # noqa: E402
from server.db.db_threads import DatabaseThreads  # noqa: E402
from server.lobby.routing import websocket_urlpatterns as lobby_ws  # noqa: E402
from server.matches.broadcast import remember_server_loop  # noqa: E402
from server.matches.consumers import CLOSE_NOT_FOUND  # noqa: E402
from server.matches.heartbeat import start_heartbeat  # noqa: E402
from server.matches.routing import websocket_urlpatterns as match_ws  # noqa: E402
from server.matches.watch import start_match_watch  # noqa: E402
from server.players.ws_auth import PlayerWebSocketMiddleware  # noqa: E402
from server.realtime.origins import BrowserOriginValidator  # noqa: E402
from server.realtime.socket_caps import SocketCapMiddleware  # noqa: E402
from server.tournaments.routing import websocket_urlpatterns as tournament_ws  # noqa: E402
from server.tournaments.watch import start_tournament_watch  # noqa: E402


class NoSuchSocket(AsyncWebsocketConsumer):
    """A socket at a path that serves nothing: accepted, then closed with 4404 and the paths that do.

    Without it Channels' router raises for an unknown path and daphne answers the handshake with
    a 500, logged as a server error, for what is the client's mistake.  Accepted first, so that a
    browser sees the code (a close before accepting reaches it as 1006, which it retries for ever).
    """

    async def connect(self) -> None:
        await self.accept()
        await self.close(
            code=CLOSE_NOT_FOUND,
            reason="no socket here: they are /ws/lobby/, /ws/matches/{id}/, /ws/agents/ and /ws/tournaments/{id}/",
        )


unknown_ws = [re_path(r"", NoSuchSocket.as_asgi())]  # type: ignore[arg-type]  # an ASGI app, as Channels routes them; django-stubs expects a view  # last: any path the others did not take

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Each socket's database calls on one of a few threads that keep their connections;
        # counted against its visitor's and address's caps once its player is known.
        "websocket": DatabaseThreads(
            BrowserOriginValidator(
                SessionMiddlewareStack(
                    PlayerWebSocketMiddleware(
                        SocketCapMiddleware(
                            URLRouter(match_ws + lobby_ws + agent_ws + tournament_ws + unknown_ws)  # type: ignore[arg-type]  # Channels' URLRouter takes Django's URL patterns holding ASGI apps
                        )
                    )
                ),
                settings.ALLOWED_HOSTS,
            )
        ),
    }
)


async def application(scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
    """The router, plus the server's own background duties, started on first use."""
    remember_server_loop()
    start_watchdog()
    start_analysis_watch()
    start_match_watch()
    start_heartbeat()
    start_tournament_watch()
    return await router(scope, receive, send)


if settings.BOT_RUNNER == "embedded":
    from server.bots.runners import EmbeddedRunner  # noqa: E402

    EmbeddedRunner.instance()  # starts and warms the search processes before the first request

# Everything loaded so far (Django, the apps, the games) lives as long as the process: moved out
# of the collector's sight, so that a full collection walks only what serving created.  Without
# it each full collection walked all of it with the event loop stopped: the moves in flight
# waited for it, which was the tail of move-to-peers at a light load (benchmarks/README.md,
# history: "The channel layer's round trips, and a collector that stopped the loop").
gc.freeze()

# A young collection every YOUNG_COLLECTION_AFTER objects, not Python's 700.  Serving allocates
# in bursts (a move's frames, rows and futures), most of it freed at once by reference counting
# and little of it in cycles.  At 700, under load, the collector ran several times a second,
# walking the same short-lived objects again and again, and every hundredth young collection
# could become a full one, every thread stopped.  `sockets.py load --stalls` counts the
# collections (benchmarks/README.md, history: "The collector's share, and a host that steals").
# Only this process is affected: the search processes are spawned, with Python's own thresholds.
YOUNG_COLLECTION_AFTER = 10_000
gc.set_threshold(YOUNG_COLLECTION_AFTER, *gc.get_threshold()[1:])

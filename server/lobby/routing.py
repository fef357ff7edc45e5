from django.urls import path

from server.lobby.consumers import LobbyConsumer

websocket_urlpatterns = [path("ws/lobby/", LobbyConsumer.as_asgi())]  # type: ignore[arg-type]  # an ASGI app, as Channels routes them; django-stubs expects a view

from django.urls import path

from server.lobby.consumers import LobbyConsumer

websocket_urlpatterns = [path("ws/lobby/", LobbyConsumer.as_asgi())]

from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "server.lobby"
    label = "lobby"

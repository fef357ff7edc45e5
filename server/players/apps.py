from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "server.players"
    label = "players"

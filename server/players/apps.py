from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "server.players"
    label = "players"

    def ready(self) -> None:
        from server.players import revocation  # noqa: F401  (its signal receivers: a credential ended closes its sockets)

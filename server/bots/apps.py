from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "server.bots"
    label = "bots"

    def ready(self) -> None:
        from server.bots import receivers  # noqa: F401  (connects to the turn signal)

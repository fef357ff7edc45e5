from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "server.tournaments"
    label = "tournaments"

    def ready(self) -> None:
        from server.tournaments import receivers  # noqa: F401  # listens for ends of matches

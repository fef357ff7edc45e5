from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "server.ratings"
    label = "ratings"

    def ready(self) -> None:
        from server.ratings import receivers  # noqa: F401  (rates a match as it ends)

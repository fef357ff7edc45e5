from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "server.analysis"
    label = "analysis"

    def ready(self) -> None:
        from server.analysis import receivers  # noqa: F401  (a hint is recorded with the next move)

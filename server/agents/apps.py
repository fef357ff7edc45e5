from django.apps import AppConfig


class AgentsConfig(AppConfig):
    name = "server.agents"
    label = "agents"

    def ready(self) -> None:
        from server.agents import receivers  # noqa: F401  # connects the receivers

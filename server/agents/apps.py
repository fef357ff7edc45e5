from django.apps import AppConfig


class AgentsConfig(AppConfig):
    name = "server.agents"
    label = "agents"

from django.apps import AppConfig


class ResearchConfig(AppConfig):
    name = "server.research"
    label = "research"
    verbose_name = "research exports"

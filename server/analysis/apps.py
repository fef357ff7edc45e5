from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "server.analysis"
    label = "analysis"

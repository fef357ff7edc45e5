from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "server.matches"
    label = "matches"

from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "server.bots"
    label = "bots"

    def ready(self) -> None:
        from server.bots import receivers  # noqa: F401  (connects to the turn signal)
        from server.bots.selectors import bot_turn_status
        from server.matches import selectors as match_selectors

        match_selectors.bot_turn_status = bot_turn_status  # a reloading page sees a queued turn as queued

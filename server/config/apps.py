from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The project's own settings that need Django ready: signal receivers for every connection, and the
    installation's files the games read (the composition root is the one place that hands them over)."""

    name = "server.config"
    label = "config"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.backends.signals import connection_created

        from games.chess import tables
        from server.db.timestamps import read_timestamps_in_c

        connection_created.connect(read_timestamps_in_c, dispatch_uid="read_timestamps_in_c")
        # The installation's chess book and endgame tables: games read no Django settings themselves.
        tables.configure(book_path=settings.CHESS_BOOK_PATH, gaviota_path=settings.CHESS_GAVIOTA_PATH)

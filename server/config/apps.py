from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The project's own settings that need Django ready: signal receivers for every connection."""

    name = "server.config"
    label = "config"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from server.db.timestamps import read_timestamps_in_c

        connection_created.connect(read_timestamps_in_c, dispatch_uid="read_timestamps_in_c")

from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class PlayersConfig(AppConfig):
    name = "server.players"
    label = "players"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from server.players import revocation  # noqa: F401  (its signal receivers: a credential ended closes its sockets)
        from server.players.lockout import remember_device_on_login

        user_logged_in.connect(remember_device_on_login, dispatch_uid="remember_device_on_login")


class StaffAdminConfig(admin_apps.AdminConfig):
    """The admin asks staff for a second factor (server/players/staff.py)."""

    default = False  # this module's default is PlayersConfig

    default_site = "server.players.staff.StaffAdminSite"

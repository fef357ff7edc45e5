"""``manage.py enrol_totp <username>``: a TOTP device for a staff member, shown as a QR code and a URI.

Scan the code (or paste the otpauth:// URI) into an authenticator app; the admin's login
then asks for its six-digit code.  ``--replace`` removes the user's other TOTP devices
(a lost phone).
"""

from __future__ import annotations

import io
from typing import Any

import segno
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django_otp.plugins.otp_totp.models import TOTPDevice


class Command(BaseCommand):
    help = "Give a staff user a TOTP device for the admin's second factor and print its QR code and URI."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--replace", action="store_true", help="remove the user's other TOTP devices first")

    def handle(self, username: str, replace: bool, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user is called {username!r}")
        if not user.is_staff:
            raise CommandError(f"{username!r} is not staff: the admin would not let them in anyway")
        if replace:
            TOTPDevice.objects.filter(user=user).delete()
        device = TOTPDevice.objects.create(user=user, name="authenticator app", confirmed=True)
        qr = io.StringIO()
        segno.make(device.config_url, error="m").terminal(out=qr, compact=True)
        self.stdout.write(qr.getvalue())
        self.stdout.write(device.config_url)
        self.stdout.write(f"Scan this into an authenticator app; the admin asks {username} for its code from now on.")

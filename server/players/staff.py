"""The admin, for staff with a second factor: a password and a TOTP code (django-otp).

Staff reach everything (bot profiles, accounts, chat moderation), so a staff password alone
is not enough: the admin lets in only a session verified by one of the user's TOTP devices
(`manage.py enrol_totp <username>` makes one).  A wrong or missing code counts as a failed
login for the lockout (server/players/lockout.py) and gets the same answer as a wrong
password, so the form does not tell a guesser that the password was right.
"""

from __future__ import annotations

from itertools import islice

from django.contrib.auth.models import User
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import ValidationError
from django_otp import devices_for_user
from django_otp.admin import OTPAdminAuthenticationForm, OTPAdminSite
from django_otp.models import Device


class StaffLoginForm(OTPAdminAuthenticationForm):  # type: ignore[misc]  # django-otp is untyped
    # One answer for a wrong password, a wrong code and no code.
    error_messages = {
        **OTPAdminAuthenticationForm.error_messages,
        "invalid_login": "Please enter the correct username, password and code of a staff account.",
    }

    def _chosen_device(self, user: User) -> Device | None:
        """The device picked in the form, else the user's only one (the usual case: one phone)."""
        device = super()._chosen_device(user)
        if device is None:
            devices = list(islice(devices_for_user(user, confirmed=True), 2))
            device = devices[0] if len(devices) == 1 else None
        return device

    def clean_otp(self, user: User) -> None:
        try:
            super().clean_otp(user)
        except ValidationError as error:
            credentials = {"username": self.cleaned_data.get("username")}
            user_login_failed.send(sender=__name__, credentials=credentials, request=self.request)
            raise ValidationError(self.error_messages["invalid_login"], code="invalid_login") from error


class StaffAdminSite(OTPAdminSite):  # type: ignore[misc]  # django-otp is untyped
    """django-otp's admin under the usual name, so ``admin:`` URLs and links keep working."""

    login_form = StaffLoginForm

    def __init__(self, name: str = "admin") -> None:
        super().__init__(name)

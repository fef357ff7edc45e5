"""Staff in the admin: a password and a TOTP code, as the admin's login asks (server/players/staff.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

ADMIN = f"/{settings.ADMIN_PATH}"


def totp_code(device: TOTPDevice) -> str:
    """The code an authenticator app shows for `device` now."""
    return f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):0{device.digits}d}"


def second_factor(user: AbstractBaseUser) -> dict[str, str]:
    """The admin login form's second-factor fields: a new device of `user`'s (a code serves once per device)."""
    device = TOTPDevice.objects.create(user=user, name=f"app {TOTPDevice.objects.count()}", confirmed=True)
    return {"otp_device": device.persistent_id, "otp_token": totp_code(device)}


def admin_login(client: Client, user: AbstractBaseUser, password: str) -> Client:
    """Log `client` in to the admin through its login form, with a new TOTP device's code."""
    form = {"username": user.get_username(), "password": password, **second_factor(user)}
    answer = client.post(f"{ADMIN}login/?next={ADMIN}", {**form, "next": ADMIN})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    return client


def staff_client(username: str = "root", password: str = "pw") -> Client:
    """A new superuser's client, logged in to the admin."""
    user = get_user_model().objects.create_superuser(username, password=password)
    return admin_login(Client(), user, password)

"""The admin: staff need a TOTP code too, under the strictest limits, at ADMIN_PATH (server/players/staff.py)."""

from __future__ import annotations

import importlib
import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import clear_url_caches
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.server.staff import second_factor, totp_code

pytestmark = pytest.mark.django_db
PASSWORD = "a long and right passphrase"
WRONG = "Please enter the correct username, password and code of a staff account."


@pytest.fixture
def root():
    return get_user_model().objects.create_superuser("root", password=PASSWORD)


def admin_login(client: Client, password: str, **otp: str):
    return client.post("/admin/login/?next=/admin/", {"username": "root", "password": password, **otp})


def test_the_right_password_without_a_code_does_not_open_the_admin_nor_say_it_was_right(root):
    client = Client()
    second_factor(root)
    no_code = admin_login(client, PASSWORD)
    wrong_password = admin_login(Client(), "wrong password")
    assert no_code.status_code == wrong_password.status_code == 200
    assert WRONG in no_code.content.decode() and WRONG in wrong_password.content.decode()
    assert client.get("/admin/").status_code == 302  # to the login page


def test_a_staff_member_without_a_device_cannot_get_in(root):
    client = Client()
    assert admin_login(client, PASSWORD, otp_token="123456").status_code == 200
    assert client.get("/admin/").status_code == 302


def test_wrong_codes_count_as_failed_logins_and_staff_get_the_strictest_limit(root, settings):
    device = TOTPDevice.objects.create(user=root, name="phone", confirmed=True)
    guesser = Client()
    for guess in range(settings.STAFF_LOGIN_FAILURE_LIMIT):
        admin_login(guesser, PASSWORD, otp_token=f"{guess:06d}")
    assert (
        sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == settings.STAFF_LOGIN_FAILURE_LIMIT
    )
    assert admin_login(guesser, PASSWORD, otp_token=totp_code(device)).status_code == 429
    assert settings.STAFF_LOGIN_FAILURE_LIMIT < settings.LOGIN_FAILURE_LIMIT


def test_enrol_totp_prints_a_uri_whose_codes_open_the_admin(root, capsys):
    call_command("enrol_totp", "root")
    printed = capsys.readouterr().out
    uri = re.search(r"otpauth://totp/Plyground%3Aroot\?secret=\w+\S*issuer=Plyground", printed)
    assert uri and "█" in printed  # the QR code, for a phone's camera
    device = TOTPDevice.objects.get(user=root)
    client = Client()
    assert admin_login(client, PASSWORD, otp_token=totp_code(device)).status_code == 302  # its only device
    assert client.get("/admin/").status_code == 200
    call_command("enrol_totp", "root", "--replace")
    assert TOTPDevice.objects.filter(user=root).count() == 1 and not TOTPDevice.objects.filter(pk=device.pk).exists()


def test_enrol_totp_refuses_who_is_not_staff(capsys):
    get_user_model().objects.create_user("pat", password=PASSWORD)
    with pytest.raises(Exception, match="not staff"):
        call_command("enrol_totp", "pat")


@pytest.mark.filterwarnings("ignore:Converter 'id' is already registered")  # urls.py read again
def test_the_admin_lives_at_admin_path(root, settings):
    from server.config import urls

    settings.ADMIN_PATH = "back-office-7f3a/"
    try:
        clear_url_caches()
        importlib.reload(urls)
        client = Client()
        assert client.get("/admin/").status_code == 404
        answer = client.post(
            "/back-office-7f3a/login/?next=/back-office-7f3a/",
            {"username": "root", "password": PASSWORD, **second_factor(root)},
        )
        assert answer.status_code == 302 and client.get("/back-office-7f3a/").status_code == 200
    finally:
        settings.ADMIN_PATH = "admin/"
        importlib.reload(urls)
        clear_url_caches()

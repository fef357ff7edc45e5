"""The admin is for staff only and shows bot profiles and matches."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.server.conftest import human_match
from tests.server.staff import staff_client

pytestmark = pytest.mark.django_db


def test_admin_needs_staff(alice):
    client = Client()
    assert client.get("/admin/bots/botprofile/").status_code == 302  # to the login page
    User.objects.create_user("pat", password="pw", is_staff=False)
    client.login(username="pat", password="pw")
    assert client.get("/admin/bots/botprofile/").status_code == 302


def test_staff_see_bot_profiles_and_matches(alice, bob):
    match = human_match("connect4", alice, bob)
    client = staff_client()
    bots = client.get("/admin/bots/botprofile/")
    assert bots.status_code == 200 and b"connect4" in bots.content
    assert client.get(f"/admin/matches/match/{match.pk}/change/").status_code == 200
    assert client.get("/admin/bots/botprofile/add/").status_code == 200

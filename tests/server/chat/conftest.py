"""Fixtures of the chat tests."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client


@pytest.fixture
def staff() -> Client:
    """A logged-in superuser's client for the admin."""
    User.objects.create_superuser("root", password="pw")
    client = Client()
    client.login(username="root", password="pw")
    return client

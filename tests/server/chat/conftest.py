"""Fixtures of the chat tests."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.server.staff import staff_client


@pytest.fixture
def staff() -> Client:
    """A logged-in superuser's client for the admin."""
    return staff_client()

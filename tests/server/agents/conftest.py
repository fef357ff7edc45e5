from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from server.agents import services
from server.players.models import ApiToken, Player
from server.players.services import player_create_guest
from tests.server.conftest import with_account


def api_as(player: Player) -> APIClient:
    """An API client with a fresh token of `player` (a person's, or a bot account's)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(player)}")
    return client


@pytest.fixture
def owner(db) -> Player:
    return with_account(player_create_guest("Margot"))


@pytest.fixture
def bot(owner) -> Player:
    return services.bot_account_create(owner, "Quokka")

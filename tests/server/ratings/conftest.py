"""Rated matches are between accounts: here Alice, Bob and the token client's player have one."""

from __future__ import annotations

import pytest

from server.players.models import Player
from server.players.services import player_create_guest


def account(name: str) -> Player:
    """A person with an account (made in code, as a shell would: the sign-up form is tested elsewhere)."""
    player = player_create_guest(name)
    player.is_guest = False
    player.save()
    return player


@pytest.fixture
def alice(db):
    return account("Alice")


@pytest.fixture
def bob(db):
    return account("Bob")


@pytest.fixture
def token_client(token_client):
    player = token_client.player
    player.is_guest = False
    player.save()
    return token_client

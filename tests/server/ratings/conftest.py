"""Rated matches are between accounts: here Alice, Bob and the token client's player have one."""

from __future__ import annotations

import pytest

from tests.server.conftest import with_account


@pytest.fixture
def alice(alice):
    return with_account(alice)


@pytest.fixture
def bob(bob):
    return with_account(bob)


@pytest.fixture
def token_client(token_client):
    with_account(token_client.player)
    return token_client

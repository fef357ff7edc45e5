"""A page whose socket the server refuses for good says why (close codes 4400-4499 and their reason)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from tests.support import LiveStack


@pytest.fixture(scope="module")
def one_socket_per_address():
    """A stack of its own where one client address holds one socket at most."""
    with LiveStack(embedded=True, extra_env={"SOCKETS_PER_ADDRESS": "1"}) as stack:
        yield stack


def test_the_lobby_says_why_its_socket_was_refused(new_page, one_socket_per_address, screenshot):
    with connect(f"{one_socket_per_address.ws_url}/ws/lobby/") as held:  # another tab holds the place
        held.recv(timeout=10)
        page = new_page("/", server=one_socket_per_address)
        expect(page.get_by_test_id("lobby-error")).to_contain_text("live connections are open from your address")
        screenshot(page, "lobby-too-many-sockets")

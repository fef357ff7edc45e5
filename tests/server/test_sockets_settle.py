"""A socket test that does not wait for its sockets' offline writes (`presence.settled`) still has
them finished on its own event loop (`sockets_settle`, tests/server/conftest.py), rather than left
to run on Channels' thread after that loop has closed."""

from __future__ import annotations

import asyncio

import pytest

from server.matches import presence
from tests.server.test_consumers import connect, receive_type

LEFT: list[asyncio.Task] = []  # the writes the test below started and did not wait for


@pytest.fixture(scope="module")
def left_writes():
    yield LEFT
    # After the test and its event loop: each write was finished on that loop, none cancelled with it.
    assert LEFT and all(write.done() and not write.cancelled() for write in LEFT), LEFT


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_a_socket_test_that_does_not_wait_leaves_no_write_behind(two_players, left_writes):
    match, alice_token, _ = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await receive_type(comm, "state")
    await comm.disconnect()
    await asyncio.sleep(0)  # the socket's end starts Alice's offline write, which nobody here awaits
    started = list(presence._writes)
    assert started
    left_writes.extend(started)

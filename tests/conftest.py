"""Shared test setup.  Every test talks only to 127.0.0.1.

`live_stack` is a real Plyground (daphne + Celery worker + Redis, `python -m server.run`)
on a free loopback port with a fresh SQLite file, shared by the tests of a session;
`stack.url`, `stack.ws_url`, `stack.api(method, path, body, token)`, `stack.guest()`.
"""

from __future__ import annotations

import pytest

from tests.support import LiveStack


@pytest.fixture(scope="session")
def live_stack():
    with LiveStack() as stack:
        yield stack

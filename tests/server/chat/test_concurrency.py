"""The chat's rate limit holds when one person's messages arrive at once (several web processes).

Runs on the test database in use: SQLite by default (its writers queue up), PostgreSQL with
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/test`` (the author's row lock does it).
"""

from __future__ import annotations

import pytest

from server.chat import services
from server.chat.errors import ChatRateLimited
from server.chat.models import ChatMessage
from tests.server.conftest import human_match
from tests.support import race

pytestmark = pytest.mark.django_db(transaction=True)


def test_messages_sent_at_once_never_pass_the_limit(alice, bob, settings):
    settings.CHAT_RATE_LIMIT = (3, 10.0)
    match = human_match("connect4", alice, bob)
    results = race(lambda i: services.chat_post(match.pk, alice.pk, f"message {i}"), 8)
    posted = [r for r in results if isinstance(r, ChatMessage)]
    refused = [r for r in results if isinstance(r, ChatRateLimited)]
    assert len(posted) == 3 and len(refused) == 5, results
    assert ChatMessage.objects.filter(author=alice).count() == 3

from __future__ import annotations

import asyncio
import uuid
import warnings

import psycopg
import pytest
import redis
from asgiref.sync import SyncToAsync
from django.db import connections, transaction
from pytest_asyncio import is_async_test
from rest_framework.test import APIClient

from server.bots.models import BotProfile
from server.bots.seed import seed_profiles
from server.matches import presence, presence_store, services
from server.players.models import Player
from server.players.services import player_create_guest, player_create_guest_with_token
from server.realtime.channel_layer import redis_channel_layer
from tests.faults.stack import POSTGRES_URL
from tests.support import REDIS_TEST_URL


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, whose end waits for the connections kept by the sockets' database
    threads and Channels' own thread to close: PostgreSQL will not drop a database that
    sessions are using, and pytest-django only warns, leaving it behind."""
    yield
    from server.config.asgi import router  # Django is set up by now

    router.application_mapping["websocket"].close_connections()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    with django_db_blocker.unblock():
        _end_leftover_sessions()


def _end_leftover_sessions() -> None:
    """On PostgreSQL, end the sessions some other thread still keeps on the test database, so that
    it can be dropped; say how many, so the leak is seen. (A thread that finished a bot's turn
    after its test had ended was seen keeping one, once in a CI run.)"""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        (ended,) = cursor.fetchone()
    connection.close()
    if ended:
        warnings.warn(f"{ended} database session(s) left open by other threads were ended", stacklevel=1)


@pytest.fixture(autouse=True)
def seeded_bots(request):
    """Transactional tests flush the database: put the seeded profiles back when they are gone."""
    if "django_db" not in {m.name for m in request.node.iter_markers()} and not {"db", "transactional_db"} & set(
        request.fixturenames
    ):
        return
    request.getfixturevalue("transactional_db" if _transactional(request) else "db")
    if not BotProfile.objects.exists():
        with transaction.atomic():  # one commit, not one a profile: this runs before each such test
            seed_profiles(BotProfile)


@pytest.fixture(autouse=True)
def nobody_present():
    """Each test starts with nobody present in this process's presence store: a fresh database
    hands out the same ids again, and a seat an earlier test left "here" would look already
    written (tests/server/matches/test_connect_queries.py after tests/server/ratings)."""
    yield
    presence_store._stores.clear()


@pytest.fixture(autouse=True)
def sockets_settle(request):
    """After a test on an event loop (a socket test), the offline writes of its sockets finish on
    that loop (`presence.settled`), whether or not the test waited for them: one left for later
    runs after its loop has closed, on Channels' thread, and once kept a CI run from ending.  A
    test that is not a coroutine opens no socket of its own: it costs nothing.

    The writes need what the test's sockets had (its settings, its channel layer, its database):
    those are set up first, so that they are taken down after the writes have finished."""
    if not is_async_test(request.node):
        return
    for needed in ("settings", "channel_layer"):
        if needed in request.fixturenames:
            request.getfixturevalue(needed)
    request.getfixturevalue("_presence_settled")


@pytest.fixture
async def _presence_settled():
    yield
    await asyncio.sleep(0)  # the ended sockets' callbacks run (they start the writes)
    await presence.settled()  # nothing to wait for when the test opened no socket


def _transactional(request) -> bool:
    marker = request.node.get_closest_marker("django_db")
    return bool(marker and (marker.kwargs.get("transaction") or (marker.args and marker.args[0])))


@pytest.fixture
def postgres():
    """A connection of its own to the PostgreSQL the full-stack tests use (autocommit)."""
    try:
        conn = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=2)
    except psycopg.OperationalError:
        pytest.skip("no PostgreSQL on 127.0.0.1:5432")
    yield conn
    conn.close()


def with_account(player: Player) -> Player:
    """`player` with an account (made in code, as a shell would: the sign-up form is tested
    elsewhere); rated play, bot-vs-bot matches and leaderboards need one."""
    player.is_guest = False
    player.save(update_fields=["is_guest"])
    return player


@pytest.fixture
def alice(db):
    return player_create_guest("Alice")


@pytest.fixture
def bob(db):
    return player_create_guest("Bob")


@pytest.fixture
def token_client(db):
    """An API client with a fresh guest's bearer token; `.player` is that guest."""
    player, token = player_create_guest_with_token()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    client.player, client.token = player, token
    return client


@pytest.fixture
def fast_bot(db):
    """A seeded alpha-beta profile with a small budget, so inline bot turns are quick."""
    bot = BotProfile.objects.get(slug="connect4-shallow")
    bot.time_budget_ms = 60
    bot.save()
    return bot


@pytest.fixture
def two_players(db):
    """A Connect Four match between two guests: (match, Alice's token, Bob's token)."""
    (alice, alice_token), (bob, bob_token) = (
        player_create_guest_with_token("Alice"),
        player_create_guest_with_token("Bob"),
    )
    return human_match("connect4", alice, bob), alice_token, bob_token


def human_match(game: str, first, second=None):
    """A two-human match; `second` joins if given."""
    human = services.SeatRequest("human")
    match = services.match_create(game, [human, human], first)
    if second is not None:
        services.match_join(match.pk, second)
    match.refresh_from_db()
    return match


@pytest.fixture(params=["memory", "redis"])
def channel_layer(request, settings):
    """Socket tests run on both layers: in memory, and channels_redis on the real Redis as deployed.

    The Redis layer has the production settings (socket timeouts included) with a private
    prefix per test, so runs sharing a Redis never hear each other; its keys are deleted after.
    """
    if request.param == "memory":
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
        yield request.param
        return
    prefix = f"plyground-socket-test-{uuid.uuid4().hex[:12]}"
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_TEST_URL, prefix)}
    yield request.param
    client = redis.Redis.from_url(REDIS_TEST_URL)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)
    client.close()

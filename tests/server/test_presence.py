"""Presence: live in the store, the database written only when a seat or person comes or goes."""

from __future__ import annotations

import asyncio
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.utils import timezone

from server.matches import presence, presence_store, services
from server.matches.models import Seat
from server.players.models import Player
from server.players.selectors import players_online
from tests.server.conftest import human_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_store(monkeypatch):
    """Each test its own in-memory store (match ids come back after a rolled-back test)."""
    monkeypatch.setattr(presence_store, "_stores", {})
    monkeypatch.setattr(presence, "_let_go", {})


@pytest.fixture
def match(alice, bob, channel_layer):
    """A match between Alice and Bob, presence kept in the channel layer's store (memory or Redis)."""
    return human_match("connect4", alice, bob)


def online(match) -> list[bool]:
    return list(Seat.objects.filter(match=match).values_list("online", flat=True))


@contextmanager
def as_process(name: str):
    """What is done inside is done by another web process."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(presence_store, "PROCESS", name)
        yield


def test_the_heartbeat_writes_nothing_to_the_database(match, alice, django_assert_num_queries):
    services.seat_presence(match.pk, 0, True)
    services.person_presence(alice.pk, True)
    with django_assert_num_queries(0):
        for beat in range(3):
            services.presence_heartbeat({(match.pk, 0)}, {alice.pk}, timezone.now() + timedelta(seconds=2 * beat))
    assert online(match) == [True, False] and players_online() == 1


def test_a_seat_another_process_holds_stays_online_when_one_lets_go(match, alice):
    services.seat_presence(match.pk, 0, True)
    services.person_presence(alice.pk, True)
    with as_process("web2"):
        services.seat_presence(match.pk, 0, True)
        services.person_presence(alice.pk, True)
    assert services.seat_presence(match.pk, 0, False) is False
    services.person_presence(alice.pk, False)
    assert online(match) == [True, False] and players_online() == 1
    with as_process("web2"):
        assert services.seat_presence(match.pk, 0, False) is True
        services.person_presence(alice.pk, False)
    assert online(match) == [False, False] and players_online() == 0
    assert Seat.objects.get(match=match, index=0).last_seen_at is not None  # gone since


def test_a_dead_process_expires_and_only_its_seats_go_offline(match, alice, bob, settings):
    now = timezone.now()
    with as_process("dead"):
        services.seat_presence(match.pk, 0, True, now)
        services.person_presence(alice.pk, True, now)
    services.seat_presence(match.pk, 1, True, now)
    services.person_presence(bob.pk, True, now)
    later = now + timedelta(milliseconds=settings.PRESENCE_STALE_MS + 1)
    services.presence_heartbeat({(match.pk, 1)}, {bob.pk}, later - timedelta(seconds=1))
    assert services.presence_expire_stale(later) == 1
    assert online(match) == [False, True] and players_online(later) == 1
    assert Seat.objects.get(match=match, index=0).last_seen_at == later


def test_a_seat_the_store_lost_is_put_back_by_the_heartbeat_and_one_it_never_had_goes(match, settings):
    services.seat_presence(match.pk, 0, True)
    Seat.objects.filter(match=match, index=1).update(online=True)  # online in the database, not in the store
    store = presence_store.live_store()
    store.drop(store.release([presence_store.seat_member(match.pk, 0)], 0), 0)  # the store forgot seat 0
    Seat.objects.filter(match=match, index=0).update(online=False)
    services.presence_heartbeat({(match.pk, 0)})
    assert online(match) == [True, True]
    presence._reconciled_at = None  # due now
    services.presence_expire_stale()
    assert online(match) == [True, False]


def test_an_online_person_stays_online_until_they_leave(alice):
    services.person_presence(alice.pk, True)
    assert players_online(timezone.now() + timedelta(days=365)) == 1
    services.person_presence(alice.pk, False)
    assert Player.objects.get(pk=alice.pk).online_until <= timezone.now()


def test_a_heartbeat_read_before_a_socket_closed_does_not_bring_its_seat_back(match, alice):
    services.seat_presence(match.pk, 0, True)
    services.person_presence(alice.pk, True)
    presence.here()  # the watch reads what this process holds, on the event loop
    held = ({(match.pk, 0)}, {alice.pk})
    services.seat_presence(match.pk, 0, False)  # the socket closed meanwhile
    services.person_presence(alice.pk, False)
    services.presence_heartbeat(*held)  # then the watch's pass ran
    assert online(match) == [False, False] and players_online() == 0


def test_a_person_arriving_is_online_and_seen_at_most_twice_a_minute(alice):
    """The arrival's person write: online from any state (none yet included), and `last_seen_at`
    kept when it is recent (written at most every SEEN_RESOLUTION)."""
    now = timezone.now()
    recent, old = now - timedelta(seconds=5), now - timedelta(minutes=5)
    Player.objects.filter(pk=alice.pk).update(online_until=now - timedelta(hours=1), last_seen_at=recent)
    presence.arrived([presence.person_member(alice.pk)], now)
    got = Player.objects.get(pk=alice.pk)
    assert (got.online_until, got.last_seen_at) == (presence.ONLINE, recent)
    Player.objects.filter(pk=alice.pk).update(online_until=None, last_seen_at=old)
    presence.arrived([presence.person_member(alice.pk)], now)
    got = Player.objects.get(pk=alice.pk)
    assert (got.online_until, got.last_seen_at) == (presence.ONLINE, now)


def test_settling_forgets_an_offline_write_left_by_a_closed_event_loop():
    """A test whose socket was cancelled leaves its loop's write behind: the next loop's settle goes on."""
    old = asyncio.new_event_loop()
    stranded = old.create_future()  # never done: its loop closes first
    presence._writes.add(stranded)
    old.close()
    try:
        asyncio.run(presence.settled())  # before: ValueError, a future of another loop
        assert stranded not in presence._writes
    finally:
        presence._writes.discard(stranded)

"""The presence store (server/matches/presence_store.py): the same rules in Redis and in memory."""

from __future__ import annotations

import uuid

import pytest
import redis

from server.matches import presence_store
from server.matches.presence_store import MemoryStore, RedisStore
from tests.server.conftest import REDIS_TEST_URL

TTL = 10_000
A, B = "s:1:0", "p:7"


@pytest.fixture(params=["memory", "redis"])
def store(request):
    if request.param == "memory":
        yield MemoryStore()
        return
    prefix = f"plyground-presence-test-{uuid.uuid4().hex[:12]}"
    client = redis.Redis.from_url(REDIS_TEST_URL)
    yield RedisStore(client, prefix)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)
    client.close()


def as_process(monkeypatch, name: str) -> None:
    """What follows is done by another web process."""
    monkeypatch.setattr(presence_store, "PROCESS", name)


def test_a_refresh_says_which_members_arrived(store):
    assert store.refresh([A, B], 0, TTL) == {A, B}
    assert store.refresh([A, B], 2000, TTL) == set()
    assert store.live([A, B, "s:2:0"], 5000) == {A, B}


def test_a_member_no_process_refreshes_expires(store):
    store.refresh([A], 0, TTL)
    assert store.expired(TTL - 1) == []
    assert store.expired(TTL) == [A]
    assert store.live([A], TTL) == set()
    assert store.drop([A], TTL) == set()
    assert store.expired(TTL + 1) == [] and store.refresh([A], TTL + 1, TTL) == {A}


def test_releasing_goes_only_when_no_other_process_holds_it(store, monkeypatch):
    store.refresh([A], 0, TTL)
    as_process(monkeypatch, "other")
    store.refresh([A], 1000, TTL)
    assert store.release([A], 1500) == set()  # the first process still holds it
    monkeypatch.undo()
    assert store.release([A], 2000) == {A}
    assert store.drop([A], 2000) == set()
    assert store.live([A], 2000) == set() and store.expired(10**9) == []


def test_a_member_held_again_is_kept_by_a_drop(store, monkeypatch):
    store.refresh([A], 0, TTL)
    assert store.release([A], 100) == {A}
    as_process(monkeypatch, "other")
    store.refresh([A], 200, TTL)  # arrives between the release and the drop
    assert store.drop([A], 300) == {A}
    assert store.live([A], 300) == {A}


def test_a_dead_processes_hold_does_not_keep_a_member(store, monkeypatch):
    as_process(monkeypatch, "dead")
    store.refresh([A], 0, TTL)
    monkeypatch.undo()
    store.refresh([A], 5000, TTL)
    assert store.release([A], TTL + 1) == {A}  # the dead process's hold has expired


def test_a_refresh_of_many_members_goes_in_chunks(store, monkeypatch):
    monkeypatch.setattr(presence_store, "REFRESH_CHUNK", 2)
    members = [f"s:{m}:0" for m in range(5)]
    assert store.refresh(members[:3], 0, TTL) == set(members[:3])
    assert store.refresh(members, 1000, TTL) == set(members[3:])
    assert store.live(members, 5000) == set(members)

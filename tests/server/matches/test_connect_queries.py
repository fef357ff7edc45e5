"""What a match socket's opening costs the database, counted so it cannot creep back: in a
reconnect storm every socket pays it (docs/scaling.md, "Connect storms")."""

from __future__ import annotations

import time

import pytest
import redis
from django.db import connection
from django.test.utils import CaptureQueriesContext

from server.matches import services
from server.matches.models import Seat
from server.matches.presence_store import live_store, person_member, seat_member
from server.matches.selectors import match_get, match_json
from server.players.models import Player
from server.players.selectors import player_by_token
from server.players.services import player_create_guest_with_token
from tests.server.conftest import human_match
from tests.server.sql_sent import as_statements

pytestmark = pytest.mark.django_db


def _sql(call, *args) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        call(*args)
    return as_statements([q["sql"] for q in captured.captured_queries])


def test_a_seated_persons_arrival_reads_once_and_writes_in_one_transaction(alice, bob):
    match = human_match("connect4", alice, bob)
    sql = _sql(services.socket_arrived, match.pk, alice.pk)
    # The match with the seat; then, in one transaction (a savepoint inside the test's own),
    # the seat online and the person seen and online.
    reads = [q for q in sql if q.startswith("SELECT")]
    writes = [q for q in sql if q.startswith("UPDATE")]
    assert len(reads) == 1 and len(writes) == 2, "\n".join(sql)
    assert Seat.objects.get(match=match, index=0).online
    assert Player.objects.get(pk=alice.pk).online_until.year == 9999
    # Back again at once (a reload, a second tab, a reconnect after a restart): the store still
    # holds the seat and the person, so their coming was written already: one read, no write.
    seen = Seat.objects.get(match=match, index=0).last_seen_at, Player.objects.get(pk=alice.pk).last_seen_at
    again = _sql(services.socket_arrived, match.pk, alice.pk)
    assert len(again) == 1 and again[0].startswith("SELECT"), "\n".join(again)
    assert (Seat.objects.get(match=match, index=0).last_seen_at, Player.objects.get(pk=alice.pk).last_seen_at) == seen


def test_an_arrival_the_store_did_not_hold_is_written(alice, bob):
    """Whatever the database says, the store decides what arrived, as the heartbeat does."""
    match = human_match("connect4", alice, bob)
    services.socket_arrived(match.pk, alice.pk)
    Seat.objects.filter(match=match, index=0).update(online=False)
    later_ms = (time.time() + 3600) * 1000  # an hour on: the holds went stale
    live_store().drop([seat_member(match.pk, 0), person_member(alice.pk)], later_ms)
    services.socket_arrived(match.pk, alice.pk)
    assert Seat.objects.get(match=match, index=0).online


def test_with_the_store_unreachable_an_arrival_writes_the_database(alice, bob, monkeypatch):
    match = human_match("connect4", alice, bob)
    services.socket_arrived(match.pk, alice.pk)
    Seat.objects.filter(match=match, index=0).update(online=False)
    Player.objects.filter(pk=alice.pk).update(online_until=None)

    def unreachable(*args, **kwargs):
        raise redis.ConnectionError("Redis restarting")

    monkeypatch.setattr(live_store(), "refresh", unreachable)
    services.socket_arrived(match.pk, alice.pk)
    assert Seat.objects.get(match=match, index=0).online
    assert Player.objects.get(pk=alice.pk).online_until.year == 9999


def test_a_spectator_and_a_missing_match_cost_one_read(alice, bob):
    match = human_match("connect4", alice, bob)
    assert services.socket_arrived(match.pk, None) == (True, None)
    assert len(_sql(services.socket_arrived, match.pk, None)) == 1
    assert services.socket_arrived(10**6, alice.pk) == (False, None)


def test_a_token_is_noted_as_used_at_most_once_a_minute():
    player, token = player_create_guest_with_token()
    first = _sql(player_by_token, token)
    assert [q for q in first if q.startswith("UPDATE")], "a first use is noted"
    again = _sql(player_by_token, token)
    assert len(again) == 1 and again[0].startswith("SELECT"), "\n".join(again)
    assert player_by_token(token) == player


def test_a_match_read_whole_has_its_seats_and_moves_at_hand(alice, bob):
    """`match_get` (a socket's state): the match, its seats with their people, its moves; then
    nothing more is read for them, and a filter on them still keeps to this match."""
    match = human_match("connect4", alice, bob)
    other = human_match("connect4", bob, alice)
    for ply, move in enumerate("4434"):
        services.submit_move(match.pk, ply % 2, move, ply)
    services.submit_move(other.pk, 0, "1", 0)
    with CaptureQueriesContext(connection) as captured:
        got = match_get(match.pk)
        frame = match_json(got)
        seats = list(got.seats.all())
    assert len(captured.captured_queries) == 3, "\n".join(q["sql"] for q in captured.captured_queries)
    assert [m["move"] for m in frame["moves"]] == list("4434") and [m["ply"] for m in frame["moves"]] == [0, 1, 2, 3]
    assert [s["player"]["name"] for s in frame["seats"]] == [alice.name, bob.name]
    assert all(seat.match is got for seat in seats)
    assert list(got.moves.filter(seat=0).values_list("move", flat=True)) == ["4", "3"]
    assert list(got.seats.filter(index=1).values_list("player_id", flat=True)) == [bob.pk]
    assert match_get(10**9) is None

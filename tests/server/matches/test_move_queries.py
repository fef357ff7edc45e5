"""What one move between two people costs the database: counted, so it cannot creep back.

A move reads the match (locked) with its seats in one statement, writes the move, its event
and the match in one round trip (one by one on SQLite, which runs one statement an execute),
and nothing after commit asks the database again (the bots app hears from the seats already
loaded that a person is to move).  docs/scaling.md, "The path of a move".
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from server.matches import services
from server.matches.errors import NotSeated
from server.matches.models import Match, MatchEvent, Move
from server.matches.services.events import locked, save_changes
from server.players.services import player_create_guest
from tests.server.conftest import human_match
from tests.server.sql_sent import as_statements

pytestmark = pytest.mark.django_db


def queries_a_move() -> int:
    """Transaction control (the savepoint and its release inside the test's transaction), the
    match locked with its seats, and the writes: the move, its event and the match updated."""
    return 2 + 1 + (1 if connection.vendor == "postgresql" else 3)


def _sql_of(capture_on_commit, submit, *args) -> list[str]:
    """The queries of a move.  Commit hooks run too: the broadcast and the bots' receiver."""
    with CaptureQueriesContext(connection) as captured, capture_on_commit(execute=True):
        submit(*args)
    return as_statements([q["sql"] for q in captured.captured_queries])


def _statements(sql: list[str]) -> list[str]:
    """Each statement of the queries, those sent together in one round trip apart."""
    return [statement for query in sql for statement in query.split(";\n")]


def test_a_move_between_two_people_costs_a_fixed_number_of_queries(alice, bob, django_capture_on_commit_callbacks):
    match = human_match("connect4", alice, bob)
    for ply, column in enumerate("4433"):
        sql = _sql_of(django_capture_on_commit_callbacks, services.submit_move, match.pk, ply % 2, column, ply)
        assert len(sql) == queries_a_move(), "\n".join(sql)
        assert len(_statements(sql)) == 6, "\n".join(sql)  # savepoint, read, three writes, release
    assert Move.objects.filter(match=match).count() == 4


def test_a_move_from_a_socket_finds_its_seat_in_the_same_queries(alice, bob, django_capture_on_commit_callbacks):
    match = human_match("connect4", alice, bob)
    for ply, (player, column) in enumerate([(alice, "4"), (bob, "4"), (alice, "3")]):
        sql = _sql_of(django_capture_on_commit_callbacks, services.submit_player_move, match.pk, player.pk, column, ply)
        assert len(sql) == queries_a_move(), "\n".join(sql)
    match.refresh_from_db()
    assert match.ply == 3 and match.to_move == 1


def test_a_spectators_move_is_refused_before_anything_is_written(alice, bob):
    carol = player_create_guest("Carol")
    match = human_match("connect4", alice, bob)
    before = MatchEvent.objects.filter(match=match).count()
    with pytest.raises(NotSeated):
        services.submit_player_move(match.pk, carol.pk, "4", 0)
    with pytest.raises(NotSeated):
        services.submit_player_move(match.pk, None, "not even a move", "nor a ply")
    match.refresh_from_db()
    assert match.ply == 0 and match.status == Match.Status.ACTIVE
    assert MatchEvent.objects.filter(match=match).count() == before


def test_a_move_writes_only_the_columns_it_changed(alice, bob, django_capture_on_commit_callbacks):
    match = human_match("connect4", alice, bob)
    sql = _sql_of(django_capture_on_commit_callbacks, services.submit_move, match.pk, 0, "4", 0)
    (update,) = [q for q in _statements(sql) if q.startswith('UPDATE "matches_match"')]
    assigned = update.split(" SET ", 1)[1].split(" WHERE ", 1)[0]
    for column in ('"state"', '"ply"', '"to_move"', '"turn_started_at"', '"v"'):
        assert column in assigned
    for column in ('"game"', '"created_at"', '"clock"', '"source"', '"rated"'):
        assert column not in assigned


def test_a_move_leaves_the_json_it_did_not_change_unwritten(alice, bob, django_capture_on_commit_callbacks):
    """The match's JSON columns as read are compared with what they hold at the end, not
    written again unchanged: a clocked move writes the time left, not the time control, nor
    an offer it leaves standing."""
    match = human_match("connect4", alice, bob)
    Match.objects.filter(pk=match.pk).update(
        clock={"initial_ms": 60000, "increment_ms": 2000},
        clock_ms=[59000, 58000],
        offer={"seat": 0, "kind": "draw", "awaiting": [1]},  # the mover's own offer stands
    )
    sql = _sql_of(django_capture_on_commit_callbacks, services.submit_move, match.pk, 0, "4", 0)
    (update,) = [q for q in _statements(sql) if q.startswith('UPDATE "matches_match"')]
    assigned = update.split(" SET ", 1)[1].split(" WHERE ", 1)[0]
    assert '"clock_ms"' in assigned, assigned
    assert not any(f'"{column}"' in assigned for column in ("clock", "offer", "options", "result")), assigned
    match.refresh_from_db()
    assert match.clock == {"initial_ms": 60000, "increment_ms": 2000} and match.offer["awaiting"] == [1]


def test_a_change_made_in_place_is_saved_too(alice, bob):
    match = human_match("connect4", alice, bob)
    with transaction.atomic():
        held = locked(match.pk)
        held.state["marker"] = 1  # the same dict, changed in place
        save_changes(held)
    match.refresh_from_db()
    assert match.state["marker"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_in_its_own_transaction_is_two_round_trips_on_postgresql(alice, bob):
    """As a socket's move runs (no transaction around it): on PostgreSQL the BEGIN rides with
    the locked read and the COMMIT with the three writes, two query texts in all; on SQLite the
    BEGIN, the read, each write and the COMMIT go alone."""
    match = human_match("connect4", alice, bob)
    postgresql = connection.vendor == "postgresql"
    for ply, column in enumerate("4433"):
        with CaptureQueriesContext(connection) as captured:
            services.submit_move(match.pk, ply % 2, column, ply)
        sql = as_statements([q["sql"] for q in captured.captured_queries])
        assert len(sql) == (2 if postgresql else 6), "\n".join(sql)
        if postgresql:
            read, writes = sql
            assert read.startswith("BEGIN;") and writes.endswith("COMMIT"), "\n".join(sql)
            assert len(_statements([writes])) == 4, writes  # the move, its event, the match, COMMIT
    match.refresh_from_db()
    assert match.ply == 4

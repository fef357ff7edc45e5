"""Rows read and written in SQL built once (server/db/rows.py) are the ORM's rows: the same
instances, conversions, locks and signals, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import DatabaseError, IntegrityError, connection, connections, transaction
from django.db.models.signals import post_init, post_save, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from server.db import rows
from server.matches import services
from server.matches.models import Match, MatchEvent, Move, Seat
from tests.server.conftest import human_match
from tests.server.sql_sent import as_statements


@pytest.fixture
def match(alice, bob):
    created = services.match_create("connect4", [services.SeatRequest("human"), services.SeatRequest("human")], alice)
    services.match_join(created.pk, bob)
    Match.objects.filter(pk=created.pk).update(
        clock={"initial_ms": 60000, "increment_ms": 0}, clock_ms=[60000, 59000], turn_started_at=timezone.now()
    )
    return Match.objects.get(pk=created.pk)


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_a_locked_row_is_the_orms_instance_with_every_field_converted(match):
    with transaction.atomic():
        read = rows.select_for_update(Match, match.pk)
    assert isinstance(read, Match) and not read._state.adding and read._state.db == "default"
    assert _fields(read) == _fields(Match.objects.get(pk=match.pk))
    assert isinstance(read.state, dict) and read.clock_ms == [60000, 59000]  # JSON decoded
    assert read.turn_started_at.tzinfo is not None  # an aware datetime, on SQLite too


def test_no_row_is_none(db):
    with transaction.atomic():
        assert rows.select_for_update(Match, 10**9) is None


def test_rows_by_a_column_come_in_order(match):
    seats = rows.select(Seat, "match_id", match.pk, order_by="index")
    assert [s.index for s in seats] == [0, 1]
    assert [_fields(s) for s in seats] == [_fields(s) for s in Seat.objects.filter(match=match).order_by("index")]


def test_an_insert_sets_the_key_and_auto_now_add_and_reads_back_the_same(match):
    before = timezone.now()
    move = Move(match=match, ply=0, seat=0, move="3", think_ms=12, stats={"depth": 4, "pv": ["3", "4"]})
    rows.insert(move)
    assert move.pk is not None and not move._state.adding
    assert move.created_at >= before
    assert _fields(Move.objects.get(pk=move.pk)) == _fields(move)


def test_an_insert_and_an_update_send_the_save_signals_as_save_does(match):
    heard = []

    def listen(name):
        return lambda sender, instance, **kwargs: heard.append((name, kwargs.get("created"), kwargs["update_fields"]))

    pre, post = listen("pre"), listen("post")
    pre_save.connect(pre, sender=MatchEvent)
    post_save.connect(post, sender=MatchEvent)
    try:
        event = MatchEvent(match=match, v=99, frame={"type": "x"})
        rows.insert(event)
        event.frame = {"type": "y"}
        rows.update(event, ["frame"])
    finally:
        pre_save.disconnect(pre, sender=MatchEvent)
        post_save.disconnect(post, sender=MatchEvent)
    assert heard == [
        ("pre", None, None),
        ("post", True, None),
        ("pre", None, frozenset({"frame"})),
        ("post", False, frozenset({"frame"})),
    ]


def test_a_row_read_with_init_receivers_takes_the_constructor(match):
    """Rows are built without `Model.__init__` only where nothing listens to it."""
    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance.index)

    post_init.connect(receiver, sender=Seat)
    try:
        seats = rows.select(Seat, "match_id", match.pk, order_by="index")
        with transaction.atomic():
            _, with_match = rows.select_for_update_with(Match, match.pk, Seat, "index")
    finally:
        post_init.disconnect(receiver, sender=Seat)
    assert heard == [0, 1, 0, 1]
    assert [_fields(s) for s in seats] == [_fields(s) for s in with_match]


def test_a_child_read_with_its_parent_holds_it_as_its_key(match):
    with transaction.atomic():
        parent, seats = rows.select_for_update_with(Match, match.pk, Seat, "index")
    with CaptureQueriesContext(connection) as captured:
        assert all(seat.match is parent for seat in seats)
    assert captured.captured_queries == []
    seats[0].online = not seats[0].online
    seats[0].save(update_fields=["online"])  # an instance the ORM saves as its own
    assert Seat.objects.get(pk=seats[0].pk).online == seats[0].online


def test_values_of_other_types_are_prepared_as_save_prepares_them(match):
    """A plain value of a plain field goes as it is; any other is the field's to prepare."""
    move = Move(match=match, ply=0, seat=0, move="3", think_ms="12", queue_wait_ms=True, notation="")
    rows.insert(move)
    stored = Move.objects.get(pk=move.pk)
    assert (stored.think_ms, stored.queue_wait_ms, stored.notation) == (12, 1, "")
    match.to_move, match.hints_allowed = 1, True
    rows.update(match, ["to_move", "hints_allowed"])
    assert Match.objects.filter(pk=match.pk, to_move=1, hints_allowed=True).exists()


def test_an_update_writes_only_the_fields_named(match):
    match.ply, match.state = 7, {"changed": True}
    match.to_move = 1
    rows.update(match, ["ply", "to_move"])
    stored = Match.objects.get(pk=match.pk)
    assert (stored.ply, stored.to_move) == (7, 1)
    assert stored.state != {"changed": True}


def test_an_update_of_a_foreign_key_by_its_attribute_name(match, alice):
    match.created_by_id = None
    rows.update(match, ["created_by_id"])
    assert Match.objects.get(pk=match.pk).created_by_id is None
    with pytest.raises(ValueError):
        rows.update(match, ["no_such_field"])


def test_an_update_of_no_row_fails_as_save_does(match):
    gone = Match.objects.get(pk=match.pk)
    Match.objects.filter(pk=match.pk).delete()
    gone.ply = 3
    with pytest.raises(DatabaseError):
        rows.update(gone, ["ply"])


def test_a_lock_is_taken_where_the_database_has_row_locks(match):
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        rows.select_for_update(Match, match.pk)
    locking = [q for q in as_statements([q["sql"] for q in captured.captured_queries]) if "matches_match" in q]
    assert locking and locking[0].endswith("FOR UPDATE") == connection.features.has_select_for_update


@pytest.mark.django_db(transaction=True)
def test_a_locked_row_holds_off_another_writer_until_commit(match):
    if not connection.features.has_select_for_update_nowait:
        pytest.skip("SQLite locks the whole database on a write, not rows")
    held, refused = threading.Event(), []

    def other_writer():
        held.wait(5)
        try:
            with transaction.atomic():
                Match.objects.select_for_update(nowait=True).get(pk=match.pk)
        except DatabaseError:
            refused.append(True)
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_writer)
    thread.start()
    with transaction.atomic():
        rows.select_for_update(Match, match.pk)
        held.set()
        thread.join(10)
    assert refused == [True]
    with transaction.atomic():  # and once committed, the row is free again
        assert Match.objects.select_for_update(nowait=True).get(pk=match.pk).pk == match.pk


def test_a_move_on_its_path_still_records_everything(match):
    """The move's path through these helpers: the move, its event and the match, as before."""
    turn_started = Match.objects.get(pk=match.pk).turn_started_at
    services.submit_move(match.pk, 0, "3", 0)
    stored = Match.objects.get(pk=match.pk)
    assert (stored.ply, stored.to_move, stored.v) == (1, 1, match.v + 1)
    assert stored.turn_started_at > turn_started and stored.turn_started_at - turn_started < timedelta(minutes=1)
    assert list(Move.objects.filter(match=match).values_list("ply", "seat", "move")) == [(0, 0, "3")]
    event = MatchEvent.objects.get(match=match, v=stored.v)
    assert event.frame["type"] == "move" and event.frame["move"] == "3"


def test_a_foreign_key_comes_joined_and_an_empty_one_is_none(alice):
    waiting = services.match_create("connect4", [services.SeatRequest("human"), services.SeatRequest("human")], alice)
    with CaptureQueriesContext(connection) as captured:
        seats = rows.select(Seat, "match_id", waiting.pk, order_by="index", related="player")
        names = [s.player.name if s.player else None for s in seats]
    assert len(captured.captured_queries) == 1
    assert names == [alice.name, None]  # the second seat is still open
    expected = Seat.objects.select_related("player").filter(match=waiting).order_by("index")
    assert [_fields(s) for s in seats] == [_fields(s) for s in expected]
    assert _fields(seats[0].player) == _fields(alice.__class__.objects.get(pk=alice.pk))


def test_rows_locked_with_a_joined_key_lock_their_own_table(match):
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        seats = rows.select(Seat, "match_id", match.pk, order_by="index", related="player", lock=True)
    assert [s.player_id for s in seats] == [s.player.pk for s in seats]
    if connection.features.has_select_for_update:
        locking = [q for q in as_statements([q["sql"] for q in captured.captured_queries]) if q.startswith("SELECT")]
        assert locking[0].endswith('FOR UPDATE OF "matches_seat"')


def test_a_row_locked_with_its_children_is_the_orms_in_one_statement(match):
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        read, seats = rows.select_for_update_with(Match, match.pk, Seat, order_by="index")
        owners = [seat.match for seat in seats]  # known already: no query
    assert len(captured.captured_queries) == 3  # the savepoint, the statement, its release
    assert _fields(read) == _fields(Match.objects.get(pk=match.pk))
    assert [_fields(s) for s in seats] == [_fields(s) for s in Seat.objects.filter(match=match).order_by("index")]
    assert all(owner is read for owner in owners)
    if connection.features.has_select_for_update:
        assert as_statements([captured.captured_queries[1]["sql"]])[0].endswith('FOR UPDATE OF "matches_match"')


def test_a_row_with_no_children_and_no_row(match):
    Seat.objects.filter(match=match).delete()
    with transaction.atomic():
        read, seats = rows.select_for_update_with(Match, match.pk, Seat, order_by="index")
        assert read.pk == match.pk and seats == []
        assert rows.select_for_update_with(Match, 10**9, Seat, order_by="index") == (None, [])


def _move(match, ply: int) -> Move:
    return Move(match=match, ply=ply, seat=ply % 2, move=str(ply + 1))


def test_writes_together_go_in_one_round_trip_where_the_database_can(match):
    with CaptureQueriesContext(connection) as captured, transaction.atomic(), rows.together():
        first, second = _move(match, 0), _move(match, 1)
        rows.insert(first)
        rows.insert(second)
        match.ply = 2
        rows.update(match, ["ply"])
        assert first.pk is None  # not sent yet
    sent = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(sent) == (1 if connection.vendor == "postgresql" else 3), sent
    assert first.pk is not None and second.pk == first.pk + 1 and not second._state.adding
    assert list(Move.objects.filter(match=match).order_by("ply").values_list("pk", "move")) == [
        (first.pk, "1"),
        (second.pk, "2"),
    ]
    assert Match.objects.get(pk=match.pk).ply == 2


def test_a_new_row_is_the_constructors(match):
    """`rows.new` gives the instance `Model(...)` gives: every field set or defaulted, the key's row cached."""
    made = rows.new(Move, match=match, ply=3, seat=1, move="4", stats={"depth": 2})
    built = Move(match=match, ply=3, seat=1, move="4", stats={"depth": 2})
    assert _fields(made) == _fields(built) and made._state.adding and made.match is match
    assert _fields(rows.new(Move, match_id=match.pk, ply=3, seat=1, move="4", stats={"depth": 2})) == _fields(built)
    with pytest.raises(TypeError, match="no field 'colour'"):
        rows.new(Move, match=match, colour="red")


def test_a_query_inside_sees_the_writes_made_before_it(match):
    with transaction.atomic(), rows.together():
        rows.insert(_move(match, 0))
        assert Move.objects.filter(match=match).count() == 1
        rows.insert(_move(match, 1))
        assert list(Move.objects.filter(match=match).values_list("ply", flat=True).order_by("ply")) == [0, 1]


def test_post_save_is_sent_once_the_row_is_written(match):
    heard = []

    def receiver(sender, instance, created, **kwargs):
        heard.append((instance.pk, created, Move.objects.filter(pk=instance.pk).exists()))

    post_save.connect(receiver, sender=Move)
    try:
        with transaction.atomic(), rows.together():
            move = _move(match, 0)
            rows.insert(move)
            assert heard == []
    finally:
        post_save.disconnect(receiver, sender=Move)
    assert heard == [(move.pk, True, True)]


@pytest.mark.django_db(transaction=True)
def test_a_write_refused_at_the_end_fails_the_block_and_leaves_nothing(match):
    Move.objects.create(match=match, ply=0, seat=0, move="1")
    with pytest.raises(IntegrityError), transaction.atomic(), rows.together():
        match.ply = 5
        rows.update(match, ["ply"])
        rows.insert(_move(match, 0))  # (match, ply 0) is taken
    assert Match.objects.get(pk=match.pk).ply == 0 and Move.objects.filter(match=match).count() == 1


def test_an_error_inside_drops_the_writes_not_sent(match):
    with pytest.raises(ZeroDivisionError), transaction.atomic(), rows.together():
        rows.insert(_move(match, 0))
        1 / 0  # noqa: B018
    assert not Move.objects.filter(match=match).exists()
    with transaction.atomic(), rows.together():  # and the next block starts empty
        rows.insert(_move(match, 0))
    assert Move.objects.filter(match=match).count() == 1


def test_an_update_of_no_row_fails_together_too(match):
    gone = Match.objects.get(pk=match.pk)
    Match.objects.filter(pk=match.pk).delete()
    with pytest.raises(DatabaseError), transaction.atomic(), rows.together():
        rows.update(gone, ["ply"])


def test_blocks_nest_and_the_outer_one_sends(match):
    with transaction.atomic(), rows.together():
        outer = _move(match, 0)
        rows.insert(outer)
        with rows.together():
            inner = _move(match, 1)
            rows.insert(inner)
        assert outer.pk is None and inner.pk is None  # the inner block's end sent nothing
    assert outer.pk is not None and inner.pk is not None
    assert Move.objects.filter(match=match).count() == 2


@pytest.mark.django_db(transaction=True)
def test_statements_share_one_cursor_until_the_connection_or_the_recording_changes(match):
    """A cursor is kept from one statement to the next (making one cost about as much as the
    statement); a new connection gets a new one, and so does Django starting to record queries,
    so that a test counting them, or DEBUG, still sees every statement."""
    rows.select(Seat, "match_id", match.pk)
    kept = rows.kept_cursor(connections["default"])
    assert rows.select(Seat, "match_id", match.pk) and rows.kept_cursor(connections["default"]) is kept
    with CaptureQueriesContext(connection) as captured:
        with transaction.atomic(), rows.together():
            locked, seats = rows.select_for_update_with(Match, match.pk, Seat, "index")
            locked.ply += 1
            rows.update(locked, ["ply"])
        recording = rows.kept_cursor(connections["default"])
    assert recording is not kept
    statements = [q.split()[0] for q in as_statements([q["sql"] for q in captured.captured_queries])]
    assert [s for s in statements if s not in ("BEGIN", "COMMIT")] == ["SELECT", "UPDATE"]
    assert rows.kept_cursor(connections["default"]) is not recording  # recording stopped: a plain cursor again
    connection.close()
    assert [seat.index for seat in rows.select(Seat, "match_id", match.pk, order_by="index")] == [0, 1]
    assert Match.objects.get(pk=match.pk).ply == match.ply + 1


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="one query text carries several statements"
)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_block_that_opens_the_transaction_commits_with_its_writes(match):
    """`rows.atomic()` in autocommit: BEGIN, the writes and the COMMIT in one query text, and
    the on-commit hooks run after it, seeing the rows from another connection."""
    seen = []

    def on_commit() -> None:
        other = connections.create_connection("default")  # not this transaction's
        try:
            with other.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM matches_move WHERE match_id = %s", [match.pk])
                seen.append(cursor.fetchone()[0])
        finally:
            other.close()  # else its session outlives the test and the test database cannot be dropped

    connection.ensure_connection()
    raw, commands = connection.connection, []
    sends_command = raw._exec_command  # psycopg's own BEGIN and COMMIT, each a round trip

    def spied(command, *args, **kwargs):
        commands.append(bytes(command))
        return sends_command(command, *args, **kwargs)

    raw._exec_command = spied
    try:
        with CaptureQueriesContext(connection) as captured, rows.atomic():
            rows.insert(_move(match, 0))
            match.ply = 1
            rows.update(match, ["ply"])
            transaction.on_commit(on_commit)
    finally:
        del raw._exec_command
    sent = [q for q in as_statements([q["sql"] for q in captured.captured_queries]) if q not in ("BEGIN", "COMMIT")]
    assert len(sent) == 1 and sent[0].startswith("BEGIN;\nINSERT") and sent[0].endswith(";\nCOMMIT"), sent
    assert commands == [], commands  # psycopg sent no BEGIN nor COMMIT of its own
    assert seen == [1] and not connection.in_atomic_block
    assert Match.objects.get(pk=match.pk).ply == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_refused_write_with_the_commit_rolls_back_and_the_connection_goes_on(match):
    Move.objects.create(match=match, ply=0, seat=0, move="1")
    heard = []
    with pytest.raises(IntegrityError), rows.atomic():
        match.ply = 5
        rows.update(match, ["ply"])
        rows.insert(_move(match, 0))  # (match, ply 0) is taken: the COMMIT after it never runs
        transaction.on_commit(lambda: heard.append("committed"))
    assert heard == [] and Match.objects.get(pk=match.pk).ply == 0
    with rows.atomic():
        rows.insert(_move(match, 1))
    assert Move.objects.filter(match=match).count() == 2


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_block_that_fails_rolls_back_and_drops_its_hooks(match):
    """The block owns its transaction on PostgreSQL: what reached the database inside goes,
    the on-commit hooks with it, and the connection is back in autocommit."""
    heard = []
    with pytest.raises(ZeroDivisionError), rows.atomic():
        locked = rows.select_for_update(Match, match.pk)
        locked.ply = 9
        rows.update(locked, ["ply"])
        Move.objects.create(match=match, ply=0, seat=0, move="1")  # sends the update first
        transaction.on_commit(lambda: heard.append("committed"))
        assert connection.connection.pgconn.transaction_status != 0 and not connection.get_autocommit()
        1 / 0  # noqa: B018
    assert heard == [] and connection.get_autocommit() and not connection.in_atomic_block
    assert connection.connection.pgconn.transaction_status == 0  # rolled back: idle
    assert Match.objects.get(pk=match.pk).ply == 0 and not Move.objects.filter(match=match).exists()


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_an_inner_block_is_a_savepoint_of_the_blocks_transaction(match):
    with rows.atomic():
        rows.insert(_move(match, 0))
        with pytest.raises(IntegrityError), transaction.atomic():
            Move.objects.create(match=match, ply=0, seat=0, move="1")  # taken: back to the savepoint
        rows.insert(_move(match, 1))
    assert list(Move.objects.filter(match=match).order_by("ply").values_list("ply", flat=True)) == [0, 1]


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_block_that_only_reads_ends_its_transaction(match):
    heard = []
    with rows.atomic():
        assert rows.select_for_update(Match, match.pk) is not None
        transaction.on_commit(lambda: heard.append("committed"))
    assert heard == ["committed"] and connection.connection.pgconn.transaction_status == 0
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:  # the row lock is gone: another writer takes it at once
            cursor.execute("SET lock_timeout = '1s'")
            cursor.execute("UPDATE matches_match SET ply = 4 WHERE id = %s", [match.pk])
    finally:
        other.close()
    assert Match.objects.get(pk=match.pk).ply == 4


def test_inside_a_callers_transaction_the_block_leaves_the_commit_to_it(match):
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        with rows.atomic():
            rows.insert(_move(match, 0))
        assert connection.in_atomic_block
    assert not any("COMMIT" in q["sql"] for q in captured.captured_queries)
    assert Move.objects.filter(match=match).count() == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_move_opens_its_transaction_with_the_locked_read_and_commits_with_its_writes(match):
    """A move in autocommit, as a socket's database thread makes it: two round trips."""
    Match.objects.filter(pk=match.pk).update(clock_ms=[59000, 59000])  # both have moved: no first-move lookup
    mover = match.seats.get(index=0).player_id
    with CaptureQueriesContext(connection) as captured:
        services.submit_player_move(match.pk, mover, "4", 0)
    sent = [q for q in as_statements([q["sql"] for q in captured.captured_queries]) if q not in ("BEGIN", "COMMIT")]
    assert len(sent) == 2, sent
    assert sent[0].startswith("BEGIN;\nSELECT") and sent[0].endswith('FOR UPDATE OF "matches_match"'), sent
    assert sent[1].startswith("INSERT") and sent[1].endswith(";\nCOMMIT"), sent
    assert Match.objects.get(pk=match.pk).ply == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_an_orm_query_first_sends_the_begin_alone(match):
    with rows.atomic():
        assert Match.objects.select_for_update().get(pk=match.pk).ply == 0
        assert connection.connection.pgconn.transaction_status != 0  # in the transaction
        match.ply = 3
        rows.update(match, ["ply"])
    assert Match.objects.get(pk=match.pk).ply == 3 and not connection.in_atomic_block


def _prepared_names() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {name for (name,) in cursor.fetchall()}


def _sent(move_of) -> list[str]:
    """The query texts `move_of()` sent, as sent (prepared statements by name; Django's log of
    the transaction's own BEGIN and COMMIT, which psycopg did not send, left out)."""
    with CaptureQueriesContext(connection) as captured:
        move_of()
    return [q["sql"] for q in captured.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_statements_are_prepared_once_a_session_and_again_in_a_new_one(alice, bob):
    """A new session prepares each statement with its first use, in the same query text (no
    round trip of its own); later uses run it by name; a connection opened again is a new
    session, and prepares again."""
    match = human_match("connect4", alice, bob)  # no clock: a move is its two query texts
    mover = [seat.player_id for seat in match.seats.order_by("index")]
    connection.close()
    first = _sent(lambda: services.submit_player_move(match.pk, mover[0], "4", 0))
    assert len(first) == 2 and all("PREPARE plyground_rows_" in q for q in first), first
    assert all(q.split(";\n")[-1].startswith("EXECUTE") or q.endswith("COMMIT") for q in first), first
    second = _sent(lambda: services.submit_player_move(match.pk, mover[1], "4", 1))
    assert len(second) == 2 and not any("PREPARE" in q for q in second), second
    assert second[0] == "BEGIN;\n" + first[0].split(";\n")[-1].split("(")[0] + f"({match.pk})"
    assert {q.split()[1] for q in as_statements(first) if q.startswith("EXECUTE")} <= _prepared_names()
    connection.close()
    assert _prepared_names() == set()  # a new session
    again = _sent(lambda: services.submit_player_move(match.pk, mover[0], "3", 2))
    assert len(again) == 2 and all("PREPARE plyground_rows_" in q for q in again), again
    assert Match.objects.get(pk=match.pk).ply == 3


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_after_a_failed_text_that_prepared_the_session_is_asked_what_it_holds(match):
    """Which statements of a failed query text ran is not known: the next use reads the
    session's own list, so a statement is neither prepared twice nor run unprepared."""
    Move.objects.create(match=match, ply=0, seat=0, move="1")
    connection.close()
    with pytest.raises(IntegrityError), rows.atomic():
        rows.insert(_move(match, 0))  # (match, ply 0) is taken: its PREPARE ran, its EXECUTE failed
    sent = _sent(lambda: rows.insert(_move(match, 1)))
    assert sent[0] == "SELECT name FROM pg_prepared_statements" and len(sent) == 2, sent
    assert sent[1].startswith("EXECUTE plyground_rows_"), sent  # prepared already: by name
    assert list(Move.objects.filter(match=match).order_by("ply").values_list("ply", flat=True)) == [0, 1]


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_without_prepared_statements_each_text_is_sent_whole(alice, bob, settings):
    match = human_match("connect4", alice, bob)
    settings.DATABASE_PREPARED_STATEMENTS = False
    mover = match.seats.get(index=0).player_id
    sent = _sent(lambda: services.submit_player_move(match.pk, mover, "4", 0))
    assert len(sent) == 2 and not any("PREPARE" in q or "EXECUTE" in q for q in sent), sent
    assert sent[0].startswith("BEGIN;\nSELECT") and sent[1].startswith("INSERT"), sent

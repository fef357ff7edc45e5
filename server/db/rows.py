"""Rows read and written by one column's value, in SQL built once per model: a move's path.

Django's ORM builds every statement afresh from a queryset: for the few statements of a
move (the match locked, its seats, the move and its event inserted, the match updated) that
building was most of the web process's CPU for the move; built once, each statement costs a
fraction of that (`benchmarks/README.md`, "Server: sockets and moves", history: "A move's and
a socket's statements built once").

These helpers keep what the ORM gives those rows: model instances, every field's conversion
both ways (JSON, datetimes on SQLite), `auto_now_add`, the database router, and the model's
`pre_save` and `post_save` signals.  Anything else (filters on several columns, joins,
deletes) goes through the ORM.

Each statement is also a round trip, and on a busy web process each one costs CPU beyond its
own (the database thread gives the GIL up while it waits, and takes it back): a row locked
with its children comes in one statement (`select_for_update_with`), and the writes made
inside `together()` go in one round trip.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from dataclasses import field as default_of
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.db import DatabaseError, connections, models, router, transaction
from django.db.models import Field, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, post_save, pre_init, pre_save
from django.dispatch.dispatcher import NO_RECEIVERS
from django.utils import timezone

M = TypeVar("M", bound=Model)
C = TypeVar("C", bound=Model)


@dataclass(frozen=True)
class _Kept:
    raw: Any  # the driver's connection the cursor belongs to
    logged: bool  # whether Django's cursor records its queries (DEBUG, or a test counting them)
    cursor: Any


class _Held:
    """What this module keeps for one of Django's connections (one a thread and alias), kept on
    the connection itself: one attribute read a statement where five weak maps keyed by the
    connection were a dozen lookups, a move."""

    __slots__ = ("built", "kept", "session", "begin", "waiting")

    def __init__(self) -> None:
        # Per statement: the SQL and, for reads, each column's converters (bound to the backend).
        self.built: dict[tuple[Any, ...], Any] = {}
        self.kept: _Kept | None = None  # the cursor these statements run on, kept between them
        self.session: _Session | None = None  # the statements prepared in its current session
        self.begin: Any = None  # inside `_OwnTransaction`: the driver's connection whose BEGIN is owed
        self.waiting: list[_Write] | None = None  # inside `together()`: the writes not yet sent


def _held(connection: Any) -> _Held:
    try:
        return connection._plyground_rows  # type: ignore[no-any-return]  # set below, always a _Held
    except AttributeError:
        held = connection._plyground_rows = _Held()
        return held


def kept_cursor(connection: Any) -> Any:
    """A cursor of `connection` for these statements, kept from one to the next.

    A new cursor for each statement (psycopg's cursor, a loader for each column of its result,
    Django's wrapper and its time-zone check) cost CPU comparable to the statement's own on
    PostgreSQL, and a move makes two, a socket's opening twelve.  It is made again
    when the connection is not the one it was made on (closed and opened again, or replaced
    after a failed health check), or when Django starts or stops recording queries.  Each use
    reads its results before the next statement, so one cursor serves them all; it is the
    connection's thread's, as the connection is.  `ensure_connection` (with its refusal to run
    under an event loop) is asked only when there is no connection to use.
    """
    _check_health(connection)
    if connection.connection is None:
        connection.ensure_connection()
    held = _held(connection)
    kept = held.kept
    if kept is None or kept.raw is not connection.connection or kept.logged != connection.queries_logged:
        kept = held.kept = _Kept(connection.connection, connection.queries_logged, connection.cursor())
    return kept.cursor


def _check_health(connection: Any) -> None:
    """`close_if_health_check_failed()`, not called where it would return at once (checks off,
    or made already in this request): three calls a move."""
    if connection.health_check_enabled and not connection.health_check_done:
        connection.close_if_health_check_failed()


def select(
    model: type[M],
    column: str,
    value: Any,
    *,
    order_by: str | None = None,
    lock: bool = False,
    related: str | None = None,
) -> list[M]:
    """The rows of `model` whose `column` is `value` (ordered by `order_by`), as instances.

    `related` names a foreign key whose row comes joined, as `select_related` gives it (None
    where the key is null).  `lock` takes the rows' locks until the transaction ends (`SELECT
    ... FOR UPDATE`, where the database has row locks: SQLite locks the whole database on the
    first write instead).
    """
    alias = router.db_for_read(model)
    connection = _connection(alias)
    sql, converters = _cached(connection, ("select", model, column, order_by, lock, related), _build_select)
    cursor = _execute(connection, kept_cursor(connection), sql, [value])
    found = [_converted(row, converters, connection) for row in cursor.fetchall()]
    width = len(model._meta.concrete_fields)
    if related is None:
        return [_instance(model, alias, values) for values in found]
    other = model._meta.get_field(related).related_model
    assert isinstance(other, type)  # a key: it names its model
    objects = []
    for values in found:
        obj = _instance(model, alias, values[:width])
        joined = values[width:]
        setattr(obj, related, None if joined[0] is None else _instance(other, alias, joined))
        objects.append(obj)
    return objects


def select_for_update(model: type[M], pk: Any) -> M | None:
    """The row of `model` with primary key `pk`, locked until the transaction ends; None if none."""
    column = model._meta.pk.column
    assert column is not None  # a primary key is a concrete column
    found = select(model, column, pk, lock=True)
    return found[0] if found else None


def select_for_update_with(model: type[M], pk: Any, children: type[C], order_by: str) -> tuple[M | None, list[C]]:
    """As `select_for_update`, with the rows of `children` whose foreign key is to that row
    (ordered by `order_by`) in the same statement: only the row of `model` is locked.

    The children know their parent (no query to reach it), as `select_related` would give it.
    """
    key = next(f for f in children._meta.concrete_fields if f.is_relation and f.related_model is model)
    assert isinstance(key, models.ForeignKey)  # a concrete relation to one row: a key
    alias = router.db_for_read(model)
    connection = _connection(alias)
    sql, converters, child_converters = _cached(
        connection, ("with", model, children, key.name, order_by), _build_select_with
    )
    cursor = _execute(connection, kept_cursor(connection), sql, [pk])
    found = cursor.fetchall()
    if not found:
        return None, []
    width = len(model._meta.concrete_fields)
    # The parent's columns come again on every child's row: converted once, from the first.
    parent = _instance(model, alias, _converted(found[0][:width], converters, connection))
    kids = []
    for row in found:
        if row[width] is None:  # no children: the parent came once, the children's columns null
            continue
        kid = _instance(children, alias, _converted(row[width:], child_converters, connection))
        key.set_cached_value(kid, parent)  # its key's column is the parent's already: the object joins it
        kids.append(kid)
    return parent, kids


def _instance(model: type[M], alias: str, values: Sequence[Any]) -> M:
    """`model.from_db(alias, <every concrete field>, values)`, without `Model.__init__`.

    The constructor sets each field through `setattr`, with a descriptor for every key, and
    asks whether its init signals have receivers: for the three rows a move reads that was
    the largest share of the ORM's CPU in a move.  A model's field values are its instance's
    attributes by `attname` (what `__init__` leaves in `__dict__`), so they are set at once;
    a model with init receivers (an `ImageField`'s dimensions) takes the constructor.
    """
    if _listened(pre_init, model) or _listened(post_init, model):
        return model.from_db(alias, [f.attname for f in model._meta.concrete_fields], values)
    obj = model.__new__(model)
    obj.__dict__.update(zip(_attnames(model), values, strict=True))
    state = obj._state = ModelState()
    state.adding, state.db = False, alias
    return obj


# Per model: its concrete fields' attribute names, in column order.
_attnames_of: dict[type[Model], tuple[str, ...]] = {}


def _attnames(model: type[Model]) -> tuple[str, ...]:
    names = _attnames_of.get(model)
    if names is None:
        names = _attnames_of[model] = tuple(f.attname for f in model._meta.concrete_fields)
    return names


def new(model: type[M], **values: Any) -> M:
    """`model(**values)`, a row to insert, without `Model.__init__` (as `_instance` reads one).

    `values` name fields (a key by its name, given its row, or by its attribute name, given the
    row's key); every other field takes its default.  A model with init receivers takes the
    constructor.
    """
    if _listened(pre_init, model) or _listened(post_init, model):
        return model(**values)
    obj = model.__new__(model)
    obj._state = ModelState()
    made = _made_of(model)
    attributes = obj.__dict__
    attributes.update(made.constant)  # the defaults no value replaces below are set already
    for attname, field in made.called:
        if attname not in values:
            attributes[attname] = field.get_default()
    by_name = made.by_name
    for name, value in values.items():
        found = by_name.get(name)
        if found is None:
            raise TypeError(f"{model.__name__} has no field {name!r}")
        attname, field = found
        if attname != name:  # a key given its row: the key's column, and the row cached
            field.set_cached_value(obj, value)
            value = None if value is None else value.pk
        attributes[attname] = value
    return obj


@dataclass(frozen=True)
class _Made:
    """What `new` needs of a model, gathered once: the defaults that are constants (immutable
    values, set as they are), the fields whose default is made afresh for each row (a callable:
    `dict`, `timezone.now`), and each field by its name and its attribute name."""

    constant: dict[str, Any]
    called: tuple[tuple[str, Any], ...]
    by_name: dict[str, tuple[str, Any]]


_made: dict[type[Model], _Made] = {}


def _made_of(model: type[Model]) -> _Made:
    made = _made.get(model)
    if made is None:
        constant, called, by_name = {}, [], {}
        for field in model._meta.concrete_fields:
            by_name[field.name] = by_name[field.attname] = (field.attname, field)
            if field.has_default() and callable(field.default):
                called.append((field.attname, field))
                continue
            value = field.get_default()
            if isinstance(value, _IMMUTABLE):
                constant[field.attname] = value
            else:
                called.append((field.attname, field))
        made = _made[model] = _Made(constant, tuple(called), by_name)
    return made


_IMMUTABLE = (type(None), bool, int, float, str, bytes, tuple, frozenset)


def insert(obj: Model) -> None:
    """Insert `obj` as a new row (every concrete field but an automatic key) and set its key."""
    model = type(obj)
    alias = router.db_for_write(model, instance=obj)
    connection = _connection(alias)
    _send(pre_save, obj, alias, created=None)
    sql, fields = _cached(connection, ("insert", model), _build_insert)
    values = _values(obj, fields, connection, add=True)

    def inserted(cursor: Any) -> None:
        auto = model._meta.auto_field
        if auto is not None:
            key = cursor.fetchone()[0]
            key = key if type(key) is int else auto.to_python(key)
            if model._meta.parents:
                obj.pk = key  # the parents' links too
            else:
                obj.__dict__[auto.attname] = key
        obj._state.adding, obj._state.db = False, alias
        _send(post_save, obj, alias, created=True)

    _write(connection, _Write(sql, values, inserted))


def update(obj: Model, attnames: Sequence[str]) -> None:
    """Write `attnames` (fields' attribute names) of `obj` to its row, as `save(update_fields=...)`."""
    model = type(obj)
    alias = router.db_for_write(model, instance=obj)
    connection = _connection(alias)
    sql, fields = _cached(connection, ("update", model, tuple(attnames)), _build_update)
    _send(pre_save, obj, alias, created=None, update_fields=frozenset(attnames))
    values = _values(obj, fields, connection, add=False)

    def updated(cursor: Any) -> None:
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")
        obj._state.db = alias
        _send(post_save, obj, alias, created=False, update_fields=frozenset(attnames))

    _write(connection, _Write(sql, [*values, obj.pk], updated))


class _Write:
    """A statement waiting in `together()`: its text, its values, and what to do with its result
    (`done`, given the cursor on it: keys, checks, `post_save`).  A plain class with slots:
    a frozen dataclass sets each attribute through `object.__setattr__`, three writes a move."""

    __slots__ = ("sql", "params", "done")

    def __init__(self, sql: str, params: list[Any], done: Callable[[Any], None]) -> None:
        self.sql, self.params, self.done = sql, params, done


def atomic(using: str = "default") -> AbstractContextManager[None]:
    """`transaction.atomic()` whose writes go as `together()` sends them.

    Where the block opens the transaction itself on PostgreSQL, it owns it (`_OwnTransaction`):
    the transaction costs no round trip of its own, its BEGIN in the same query text as its first
    statement and its COMMIT in the same query text as its last writes (a move: two round trips
    instead of four).  Inside a caller's transaction it is a savepoint, and the caller commits;
    on SQLite it is `transaction.atomic()` around `together()`.
    """
    connection = connections[using]
    if not _may_own_transaction(connection):
        return _atomic_together(connection)
    return _OwnTransaction(connection)


@contextmanager
def _atomic_together(connection: Any) -> Iterator[None]:
    with transaction.atomic(using=connection.alias), _together(connection):
        yield


def _may_own_transaction(connection: Any) -> bool:
    """PostgreSQL's, its values bound on the client, and no transaction open on it (Django's
    or the driver's)."""
    if connection.in_atomic_block or not several_statements_at_once(connection):
        return False
    _check_health(connection)
    return bool(connection.get_autocommit()) and connection.connection.pgconn.transaction_status == _IDLE


class _OwnTransaction:
    """An outermost `transaction.atomic()` on PostgreSQL, without its cost, its writes sent
    together with its COMMIT (`together(commit=True)` inside it).

    Django's block turns the driver's autocommit off and on again (a lock and a wait in psycopg
    each time) and commits by asking the driver; here the driver stays in autocommit and the
    transaction is the block's own: BEGIN is sent with the next statement on the connection,
    COMMIT with the writes (`together`), ROLLBACK when the block fails.  Django's connection is
    told what its own block tells it (in a block, not in autocommit), so that everything inside
    behaves as in `transaction.atomic()`: an inner block is a savepoint, `on_commit` waits for
    the commit (and is dropped with a rollback), `select_for_update` is allowed.  One object
    with its own enter and exit: the three generator blocks it replaces (the transaction,
    `together`, Django's `execute_wrapper`) were a few percent of a move's CPU.
    """

    __slots__ = ("connection", "held", "outer")

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.held: _Held | None = None  # set when this block holds the writes (no `together` around it)
        self.outer: Any = None  # the enclosing `together()` block's connection on this thread

    def __enter__(self) -> None:
        connection = self.connection
        connection.commit_on_exit, connection.needs_rollback = True, False
        connection.autocommit, connection.in_atomic_block = False, True
        connection.atomic_blocks.append(transaction.Atomic(connection.alias, savepoint=True, durable=False))
        held = _held(connection)
        held.begin = connection.connection
        if held.waiting is None:  # else an enclosing `together()` sends them
            held.waiting, self.held = [], held
            self.outer, _this_thread.together = getattr(_this_thread, "together", None), connection
            connection.execute_wrappers.append(_send_waiting_first)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        connection, held = self.connection, self.held
        try:
            if held is not None:
                try:
                    if kind is None:
                        _send_waiting(connection, commit=True)
                finally:
                    connection.execute_wrappers.pop()
                    held.waiting, _this_thread.together = None, self.outer
        except BaseException:
            _end_transaction(connection, commit=False)
            raise
        _end_transaction(connection, commit=kind is None)


def _end_transaction(connection: Any, *, commit: bool) -> None:
    """End `_OwnTransaction`'s block: commit (unless an inner block asked for a rollback) or
    roll back what reached the database, then run or drop the `on_commit` hooks."""
    connection.atomic_blocks.pop()
    connection.in_atomic_block = False
    held = _held(connection)
    owed, held.begin = held.begin is not None, None  # owed: nothing reached the database
    commit = commit and not connection.needs_rollback
    try:
        if not owed and not connection.closed_in_transaction:
            _finish(connection, commit)
    except DatabaseError:
        commit = False
        with suppress(DatabaseError):
            _finish(connection, commit=False)
        raise
    finally:
        connection.autocommit, connection.needs_rollback = True, False
        if connection.closed_in_transaction:  # as Django's block leaves a connection closed inside it
            connection.connection, connection.closed_in_transaction = None, False
        if commit:
            connection.run_and_clear_commit_hooks()
        else:
            connection.run_on_commit = []


def _finish(connection: Any, commit: bool) -> None:
    """COMMIT (or ROLLBACK) the transaction open on `connection`, if one is (the writes' query
    text may have carried the COMMIT already); a rollback that fails closes the connection."""
    raw = connection.connection
    if raw is None or raw.pgconn.transaction_status == _IDLE:
        return
    if commit:
        with connection.wrap_database_errors:
            raw.execute("COMMIT")
        return
    try:
        with connection.wrap_database_errors:
            raw.execute("ROLLBACK")
    except DatabaseError:
        connection.close()  # as Django's block does with a connection it cannot roll back
        raise


def _begin(connection: Any) -> str:
    """The BEGIN to put before the next statement on `connection` ("" if none is owed)."""
    held = _held(connection)
    raw, held.begin = held.begin, None
    return "BEGIN;\n" if raw is not None and raw is connection.connection else ""


_IDLE = 0  # psycopg.pq.TransactionStatus.IDLE


@contextmanager
def together(using: str = "default", *, commit: bool = False) -> Iterator[None]:
    """The inserts and updates made inside go to the database in one round trip, in their order.

    They are sent when the block ends, or before any other statement on the connection (an
    ORM query inside sees every write made before it), so the database sees the same
    statements in the same order as without the block; only an inserted row's key, and the
    `post_save` signal, wait for that send.  An exception inside drops the writes not yet sent
    (the transaction around it is rolled back anyway).  Where one execute cannot carry several
    statements (SQLite; PostgreSQL with server-side binding) they are sent one by one.
    Meant inside `transaction.atomic()`; `commit` (`atomic`'s) ends the transaction with the
    last writes, where they go in one query text.
    """
    with _together(connections[using], commit=commit):
        yield


@contextmanager
def _together(connection: Any, *, commit: bool = False) -> Iterator[None]:
    held = _held(connection)
    if held.waiting is not None:  # within another block: that one sends them
        yield
        return
    held.waiting = []
    outer, _this_thread.together = getattr(_this_thread, "together", None), connection
    try:
        with connection.execute_wrapper(_send_waiting_first):
            yield
            _send_waiting(connection, commit=commit)
    finally:
        held.waiting, _this_thread.together = None, outer


# The connection of the `together()` block this thread is in, if any: the statements inside
# take it from here rather than from `connections`, whose lookup (asgiref's `Local`, several
# calls deep) was ten a move.
_this_thread = threading.local()


def on_commit(func: Callable[[], Any], using: str = "default") -> None:
    """`transaction.on_commit(func, using)`, the connection taken as `_connection` takes it."""
    _connection(using).on_commit(func)


def _connection(alias: str) -> Any:
    """`connections[alias]`, the enclosing `together()` block's when it is that alias's."""
    connection = getattr(_this_thread, "together", None)
    if connection is not None and connection.alias == alias:
        return connection
    return connections[alias]


def _write(connection: Any, write: _Write) -> None:
    waiting = _held(connection).waiting
    if waiting is None:
        _send_now(connection, write)
    else:
        waiting.append(write)


def _execute(connection: Any, cursor: Any, sql: str, params: list[Any]) -> Any:
    """`sql` (one statement of this module's) on `cursor`, by name where it is prepared; the
    cursor to read its result from."""
    prepare, text = _by_name(connection, cursor, sql)
    return _execute_text(connection, cursor, text, params, prepare)


def _execute_text(connection: Any, cursor: Any, sql: str, params: list[Any], prepare: Sequence[_Prepared] = ()) -> Any:
    """The query text `sql` on `cursor`, after the BEGIN `atomic` owes and the statements to
    `prepare` first, in the same text; the cursor to read `sql`'s first result from.

    Sent on the driver's cursor itself, as Django's wrapper would send it (its errors as
    Django's, refused in a transaction that must roll back), unless Django records queries or
    someone else wraps them: the wrapper's layers cost about a tenth of a move's CPU."""
    direct = _direct(connection, cursor)
    if direct is not None:
        _send_waiting(connection)  # what `together`'s wrapper does before any other statement
    begin = _begin(connection)
    head = begin + "".join(f"{statement.prepare};\n" for statement in prepare) if prepare else begin
    try:
        if direct is None:
            cursor.execute(head + sql, params)
        else:
            connection.validate_no_broken_transaction()
            with connection.wrap_database_errors:
                direct.execute(head + sql, params)
            cursor = direct
    except Exception:
        _prepared_now(connection, prepare, ran=False)
        raise
    if prepare:
        _prepared_now(connection, prepare, ran=True)
    for _ in range(bool(begin) + len(prepare)):
        cursor.nextset()
    return cursor


def _direct(connection: Any, cursor: Any) -> Any:
    """The driver's cursor under Django's `cursor`, where nothing would see the difference."""
    wrappers = connection.execute_wrappers
    if (wrappers and (len(wrappers) > 1 or wrappers[0] is not _send_waiting_first)) or connection.queries_logged:
        return None
    return cursor.cursor


def _send_now(connection: Any, write: _Write) -> None:
    cursor = _execute(connection, kept_cursor(connection), write.sql, write.params)
    write.done(cursor)


def _send_waiting_first(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    connection = context["connection"]
    if _begin(connection):  # another statement first: the BEGIN goes alone, before it
        kept_cursor(connection).execute("BEGIN")
    _send_waiting(connection)
    return execute(sql, params, many, context)


def _send_waiting(connection: Any, *, commit: bool = False) -> None:
    waiting = _held(connection).waiting
    if not waiting:
        return
    writes, waiting[:] = list(waiting), []  # emptied first: the sends below pass the wrapper too
    at_once = several_statements_at_once(connection)
    if not at_once or (len(writes) == 1 and not commit):
        for write in writes:
            _send_now(connection, write)
        return
    cursor = kept_cursor(connection)
    commit = commit and not connection.needs_rollback  # else the block rolls back
    sql, prepare = _joined(connection, cursor, tuple(w.sql for w in writes), commit)
    cursor = _execute_text(connection, cursor, sql, [p for w in writes for p in w.params], prepare)
    for index, write in enumerate(writes):
        if index:
            cursor.nextset()
        write.done(cursor)


def _joined(connection: Any, cursor: Any, statements: tuple[str, ...], commit: bool) -> tuple[str, list[_Prepared]]:
    """The query text that runs `statements` (and COMMIT) in one round trip, and what must be
    prepared first in it.  Once all are prepared in the session the text is the same every
    time (a move's three writes): kept with the session, made once."""
    key = (statements, commit, settings.DATABASE_PREPARED_STATEMENTS)
    session = _held(connection).session
    if session is not None and session.raw is connection.connection and session.names is not None:
        found = session.joined.get(key)
        if found is not None:
            return found, []
    named = [_by_name(connection, cursor, sql) for sql in statements]
    sql = ";\n".join(text for _, text in named) + (";\nCOMMIT" if commit else "")
    prepare = list({statement.name: statement for found, _ in named for statement in found}.values())
    session = _held(connection).session
    if not prepare and session is not None:  # by name, or not prepared at all (the setting is in the key)
        session.joined[key] = sql
    return sql, prepare


@dataclass(frozen=True)
class _Prepared:
    """A statement's texts for PostgreSQL to parse and plan it once a session (``PREPARE``) and
    then run it by name (``EXECUTE``), its values still bound on the client."""

    name: str
    prepare: str
    execute: str

    @classmethod
    def of(cls, sql: str) -> _Prepared:
        parts = sql.split("%s")
        name = "plyground_rows_" + hashlib.sha1(sql.encode()).hexdigest()[:16]
        numbered = "".join(part + (f"${i}" if i < len(parts) else "") for i, part in enumerate(parts, start=1))
        execute = f"EXECUTE {name}" + (f"({', '.join(['%s'] * (len(parts) - 1))})" if len(parts) > 1 else "")
        return cls(name, f"PREPARE {name} AS {numbered}", execute)


# Per statement text (the same on every connection): its prepared texts.
_prepared_texts: dict[str, _Prepared] = {}


@dataclass
class _Session:
    raw: Any  # the driver's connection the statements were prepared on
    names: set[str] | None  # None: not known (a query text that prepared some failed)
    joined: dict[tuple[Any, ...], str] = default_of(default_factory=dict)  # `_joined`'s texts, all prepared


def _by_name(connection: Any, cursor: Any, sql: str) -> tuple[list[_Prepared], str]:
    """The text that runs `sql`, and what must be prepared before it in the same query text: on
    PostgreSQL, ``EXECUTE`` of the statement prepared in this connection's session (with its
    ``PREPARE`` the first time the session meets it).

    PostgreSQL parses and plans every statement of every query text it receives: for a move,
    about a quarter of its backend's CPU (`benchmarks/move_floor.py`).  A prepared statement
    outlives a transaction rolled back and lasts as long as its session; a connection opened
    again is a new session, with nothing prepared.  A pooler that shares server sessions
    between transactions (PgBouncer in transaction mode) cannot keep them:
    `DATABASE_PREPARED_STATEMENTS = False` then sends the text each time.
    """
    if not settings.DATABASE_PREPARED_STATEMENTS or not several_statements_at_once(connection):
        return [], sql
    prepared = _prepared_texts.get(sql)
    if prepared is None:
        prepared = _prepared_texts[sql] = _Prepared.of(sql)
    names = _session(connection, cursor).names
    assert names is not None  # `_session` reads them when not known
    return ([] if prepared.name in names else [prepared]), prepared.execute


def _session(connection: Any, cursor: Any) -> _Session:
    """What is prepared in `connection`'s session: nothing in a new one; after a query text that
    prepared some failed, what the session itself lists (its BEGIN, if owed, goes with it)."""
    held = _held(connection)
    session = held.session
    if session is None or session.raw is not connection.connection:
        session = held.session = _Session(connection.connection, set())
    if session.names is None:
        _send_waiting(connection)  # the writes waiting go first, with the BEGIN if it is owed
        begin = _begin(connection)
        cursor.execute(begin + "SELECT name FROM pg_prepared_statements")
        if begin:
            cursor.nextset()
        session.names = {name for (name,) in cursor.fetchall()}
    return session


def _prepared_now(connection: Any, prepared: Sequence[_Prepared], *, ran: bool) -> None:
    """Note the statements a query text prepared (`ran`: it succeeded; else which did is not known)."""
    if not prepared:
        return
    session = _held(connection).session
    if session is None or session.names is None:
        return
    if ran:
        session.names.update(statement.name for statement in prepared)
    else:
        session.names = None
        session.joined.clear()


def several_statements_at_once(connection: Any) -> bool:
    """psycopg's client-side binding (Django's default) sends a query as text, and PostgreSQL
    runs the statements of one query text in order, each with its own result."""
    return connection.vendor == "postgresql" and not connection.settings_dict["OPTIONS"].get("server_side_binding")


def _cached(connection: Any, key: tuple[Any, ...], build: Callable[..., Any]) -> Any:
    statements = _held(connection).built
    found = statements.get(key)
    if found is None:
        found = statements[key] = build(connection, *key[1:])
    return found


def _build_select(
    connection: Any, model: type[Model], column: str, order_by: str | None, lock: bool, related: str | None
) -> tuple[str, list[tuple[int, Any, list[Callable[..., Any]]]]]:
    q = connection.ops.quote_name
    table = model._meta.db_table
    columns = [field.get_col(table) for field in model._meta.concrete_fields]
    joins = ""
    if related is not None:
        key = model._meta.get_field(related)
        assert isinstance(key, Field) and isinstance(key.related_model, type)  # a key: a column naming a model
        other = key.related_model._meta
        # The other table under an alias of its own: a key to the model's own table joins it again.
        alias = f"{table}__{related}"
        columns += [field.get_col(alias, field) for field in other.concrete_fields]
        joins = (
            f" LEFT OUTER JOIN {q(other.db_table)} {q(alias)}"
            f" ON {q(alias)}.{q(other.pk.column)} = {q(table)}.{q(key.column)}"
        )
    selected = ", ".join(f"{q(col.alias)}.{q(col.target.column)}" for col in columns)
    sql = f"SELECT {selected} FROM {q(table)}{joins} WHERE {q(table)}.{q(column)} = %s"
    if order_by is not None:
        sql += f" ORDER BY {q(table)}.{q(order_by)}"
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE" if related is None else f" FOR UPDATE OF {q(table)}"
    return sql, _converters(connection, columns)


def _build_select_with(
    connection: Any, model: type[Model], children: type[Model], key: str, order_by: str
) -> tuple[str, list[tuple[int, Any, list[Callable[..., Any]]]], list[tuple[int, Any, list[Callable[..., Any]]]]]:
    """The statement, and the converters of the parent's columns and of the children's (each
    indexed from its own first column)."""
    q = connection.ops.quote_name
    table, child_table = model._meta.db_table, children._meta.db_table
    columns = [f.get_col(table) for f in model._meta.concrete_fields]
    child_columns = [f.get_col(child_table) for f in children._meta.concrete_fields]
    selected = ", ".join(f"{q(col.alias)}.{q(col.target.column)}" for col in [*columns, *child_columns])
    sql = (
        f"SELECT {selected} FROM {q(table)} LEFT OUTER JOIN {q(child_table)}"
        f" ON {q(child_table)}.{q(children._meta.get_field(key).column)} = {q(table)}.{q(model._meta.pk.column)}"  # type: ignore[union-attr]  # `key` names a column (a ForeignKey), never a reverse relation
        f" WHERE {q(table)}.{q(model._meta.pk.column)} = %s ORDER BY {q(child_table)}.{q(order_by)}"
    )
    if connection.features.has_select_for_update:
        sql += f" FOR UPDATE OF {q(table)}"
    return sql, _converters(connection, columns), _converters(connection, child_columns)


def _converters(connection: Any, columns: list[Any]) -> list[tuple[int, Any, list[Callable[..., Any]]]]:
    converters = []
    for index, col in enumerate(columns):
        # As the ORM's compiler gathers them for a column: the backend's, then the field's.
        found = [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]
        if found:
            converters.append((index, col, found))
    return converters


def _converted(
    row: tuple[Any, ...], converters: list[tuple[int, Any, list[Callable[..., Any]]]], connection: Any
) -> list[Any]:
    values = list(row)
    for index, column, functions in converters:
        for convert in functions:
            values[index] = convert(values[index], column, connection)
    return values


def _build_insert(connection: Any, model: type[Model]) -> tuple[str, list[_Column]]:
    q = connection.ops.quote_name
    auto = model._meta.auto_field
    fields = [f for f in model._meta.concrete_fields if f is not auto]
    columns = [q(f.column) for f in fields]
    sql = f"INSERT INTO {q(model._meta.db_table)} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
    return (sql if auto is None else f"{sql} RETURNING {q(auto.column)}"), [_Column.of(f, connection) for f in fields]


def _build_update(connection: Any, model: type[Model], attnames: tuple[str, ...]) -> tuple[str, list[_Column]]:
    q = connection.ops.quote_name
    by_attname = {f.attname: f for f in model._meta.concrete_fields}  # `match_id` is the field `match`
    unknown = [name for name in attnames if name not in by_attname]
    if unknown:
        raise ValueError(f"{model.__name__} has no field {unknown[0]!r}")
    fields = [by_attname[name] for name in attnames]
    assignments = ", ".join(f"{q(f.column)} = %s" for f in fields)
    sql = f"UPDATE {q(model._meta.db_table)} SET {assignments} WHERE {q(model._meta.pk.column)} = %s"
    return sql, [_Column.of(f, connection) for f in fields]


@dataclass(frozen=True)
class _Column:
    """A field written by `insert` or `update`: the kinds of value it writes as they are, and
    how it prepares any other (`prepare(column, obj, value, add, connection)`, `value` as the
    instance holds it, `_MISSING` when deferred)."""

    field: Field[Any, Any]
    attname: str
    as_is: tuple[type, ...]  # a value of exactly one of these types needs no preparing
    prepare: Callable[[_Column, Model, Any, bool, Any], Any]

    @classmethod
    def of(cls, field: Field[Any, Any], connection: Any) -> _Column:
        kind = type(field)
        if kind is models.JSONField and field.encoder is None:  # type: ignore[attr-defined]  # a JSONField's own
            return cls(field, field.attname, (type(None),), _json_text)
        if kind is models.DateTimeField and connection.vendor == "postgresql":
            return cls(field, field.attname, (), _timestamp)
        return cls(field, field.attname, _as_is(field), _by_field)


def _values(obj: Model, columns: list[_Column], connection: Any, *, add: bool) -> list[Any]:
    """The values of `obj`'s `columns` for the database, as `save()` prepares them
    (`get_db_prep_save(pre_save(...))`), a plain value of a plain field passed as it is."""
    attributes = obj.__dict__
    values = []
    for column in columns:
        value = attributes.get(column.attname, _MISSING)
        if type(value) not in column.as_is:
            value = column.prepare(column, obj, value, add, connection)
        values.append(value)
    return values


_MISSING = object()  # a deferred field: not in the instance's attributes


def _by_field(column: _Column, obj: Model, value: Any, add: bool, connection: Any) -> Any:
    """As `save()` prepares a field's value."""
    return column.field.get_db_prep_save(column.field.pre_save(obj, add), connection)


def _json_text(column: _Column, obj: Model, value: Any, add: bool, connection: Any) -> Any:
    """A JSONField's dict or list as its JSON text, which both backends store as it is: what
    Django's own preparing sends (`json.dumps`), without psycopg's `Jsonb` wrapper and its
    dumper in Python (a position and a frame a move).  PostgreSQL reads the text as the
    column's `jsonb`.  Any other value (an expression, JSON's null) goes the field's way."""
    if type(value) in (dict, list):
        return json.dumps(value)
    return _by_field(column, obj, value, add, connection)


def _timestamp(column: _Column, obj: Model, value: Any, add: bool, connection: Any) -> Any:
    """A DateTimeField's value on PostgreSQL: an aware datetime as it is (what the field's
    preparing gives it back), `auto_now_add` and `auto_now` set as `pre_save` sets them."""
    field = column.field
    if field.auto_now or (field.auto_now_add and add):  # type: ignore[attr-defined]  # a DateTimeField's
        value = timezone.now()
        obj.__dict__[column.attname] = value
    if type(value) is datetime and value.tzinfo is not None:
        return value
    return _by_field(column, obj, value, add, connection)


def _as_is(field: Field[Any, Any]) -> tuple[type, ...]:
    """What a field prepares for the database unchanged: an int for an integer column, a str
    for a text one, a bool for a boolean, None for any (a model's field of these exact classes,
    whose `pre_save` only reads the attribute).  Preparing each value through the field was
    17 calls of three to five functions each, a move; other fields and values take them."""
    if type(field).pre_save is not Field.pre_save:  # `auto_now` and the like set the value
        return ()
    kind = type(field)
    if kind is models.ForeignKey:
        target = field.target_field  # type: ignore[attr-defined]  # a key's column is its target's
        return (int, type(None)) if type(target) in _INTEGER_FIELDS else ()
    if kind in _INTEGER_FIELDS:
        return (int, type(None))
    if kind in (models.CharField, models.TextField):
        return (str, type(None))
    if kind is models.BooleanField:
        return (bool, type(None))
    return ()


_INTEGER_FIELDS = (
    models.AutoField, models.BigAutoField, models.SmallAutoField, models.IntegerField, models.BigIntegerField,
    models.SmallIntegerField, models.PositiveIntegerField, models.PositiveBigIntegerField,
    models.PositiveSmallIntegerField,
)  # fmt: skip


def _send(signal: Any, obj: Model, alias: str, *, created: bool | None, update_fields: Any = None) -> None:
    """The model's save signal, as `save()` sends it (only when something listens: most models have no receiver)."""
    if not _listened(signal, type(obj)):
        return
    extra = {} if created is None else {"created": created}
    signal.send(sender=type(obj), instance=obj, raw=False, using=alias, update_fields=update_fields, **extra)


def _listened(signal: Any, model: type[Model]) -> bool:
    """`signal.has_listeners(model)`, answered from the signal's own cache of the model's
    receivers when it holds that there are none (the usual answer: eleven asks a move), or
    from its list of receivers when it has none at all (init signals, `pre_save`)."""
    if not signal.receivers or signal.sender_receivers_cache.get(model) is NO_RECEIVERS:
        return False
    return bool(signal.has_listeners(model))

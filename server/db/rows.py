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
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.db import DatabaseError, connections, router, transaction
from django.db.models import Field, Model
from django.db.models.signals import post_save, pre_save

M = TypeVar("M", bound=Model)
C = TypeVar("C", bound=Model)

# Per connection (converters are bound to its backend), per statement: the SQL and, for reads,
# each column's converters.
_built: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], Any]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class _Kept:
    raw: Any  # the driver's connection the cursor belongs to
    logged: bool  # whether Django's cursor records its queries (DEBUG, or a test counting them)
    cursor: Any


# Per connection: the cursor these statements run on, kept between them.
_kept: weakref.WeakKeyDictionary[Any, _Kept] = weakref.WeakKeyDictionary()


def kept_cursor(connection: Any) -> Any:
    """A cursor of `connection` for these statements, kept from one to the next.

    A new cursor for each statement (psycopg's cursor, a loader for each column of its result,
    Django's wrapper and its time-zone check) cost CPU comparable to the statement's own on
    PostgreSQL, and a move makes two, a socket's opening twelve.  It is made again
    when the connection is not the one it was made on (closed and opened again, or replaced
    after a failed health check), or when Django starts or stops recording queries.  Each use
    reads its results before the next statement, so one cursor serves them all; it is the
    connection's thread's, as the connection is.
    """
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    kept = _kept.get(connection)
    if kept is None or kept.raw is not connection.connection or kept.logged != connection.queries_logged:
        kept = _Kept(connection.connection, connection.queries_logged, connection.cursor())
        _kept[connection] = kept
    return kept.cursor


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
    connection = connections[alias]
    sql, converters = _cached(connection, ("select", model, column, order_by, lock, related), _build_select)
    cursor = kept_cursor(connection)
    _execute(connection, cursor, sql, [value])
    found = [_converted(row, converters, connection) for row in cursor.fetchall()]
    fields = model._meta.concrete_fields
    names = [f.attname for f in fields]
    if related is None:
        return [model.from_db(alias, names, values) for values in found]
    other = model._meta.get_field(related).related_model
    assert isinstance(other, type)  # a key: it names its model
    other_names = [f.attname for f in other._meta.concrete_fields]
    objects = []
    for values in found:
        obj = model.from_db(alias, names, values[: len(fields)])
        joined = values[len(fields) :]
        setattr(obj, related, None if joined[0] is None else other.from_db(alias, other_names, joined))
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
    alias = router.db_for_read(model)
    connection = connections[alias]
    sql, converters, child_converters = _cached(
        connection, ("with", model, children, key.name, order_by), _build_select_with
    )
    cursor = kept_cursor(connection)
    _execute(connection, cursor, sql, [pk])
    found = cursor.fetchall()
    if not found:
        return None, []
    width = len(model._meta.concrete_fields)
    names = [f.attname for f in model._meta.concrete_fields]
    child_names = [f.attname for f in children._meta.concrete_fields]
    # The parent's columns come again on every child's row: converted once, from the first.
    parent = model.from_db(alias, names, _converted(found[0][:width], converters, connection))
    kids = []
    for row in found:
        if row[width] is None:  # no children: the parent came once, the children's columns null
            continue
        kid = children.from_db(alias, child_names, _converted(row[width:], child_converters, connection))
        setattr(kid, key.name, parent)
        kids.append(kid)
    return parent, kids


def insert(obj: Model) -> None:
    """Insert `obj` as a new row (every concrete field but an automatic key) and set its key."""
    model = type(obj)
    alias = router.db_for_write(model, instance=obj)
    connection = connections[alias]
    _send(pre_save, obj, alias, created=None)
    fields = [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    sql = _cached(connection, ("insert", model), _build_insert)

    def inserted(cursor: Any) -> None:
        if model._meta.auto_field is not None:
            obj.pk = model._meta.auto_field.to_python(cursor.fetchone()[0])
        obj._state.adding, obj._state.db = False, alias
        _send(post_save, obj, alias, created=True)

    _write(connection, _Write(sql, values, inserted))


def update(obj: Model, attnames: Sequence[str]) -> None:
    """Write `attnames` (fields' attribute names) of `obj` to its row, as `save(update_fields=...)`."""
    model = type(obj)
    alias = router.db_for_write(model, instance=obj)
    connection = connections[alias]
    sql, fields = _cached(connection, ("update", model, tuple(attnames)), _build_update)
    _send(pre_save, obj, alias, created=None, update_fields=frozenset(attnames))
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]

    def updated(cursor: Any) -> None:
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")
        obj._state.db = alias
        _send(post_save, obj, alias, created=False, update_fields=frozenset(attnames))

    _write(connection, _Write(sql, [*values, obj.pk], updated))


@dataclass(frozen=True)
class _Write:
    sql: str
    params: list[Any]
    done: Callable[[Any], None]  # given the cursor on the statement's result: keys, checks, post_save


@contextmanager
def atomic(using: str = "default") -> Iterator[None]:
    """`transaction.atomic()` whose writes go as `together()` sends them.

    Where the block opens the transaction itself on PostgreSQL, the transaction costs no
    round trip of its own: its BEGIN goes in the same query text as its first statement, and
    its COMMIT in the same query text as its last writes (a move: two round trips instead of
    four).  psycopg would send each alone: it is told the connection is in autocommit while
    the block opens the transaction (`_begin_with_next`), and finds nothing left to commit at
    the end; Django runs its on-commit hooks as ever.  Inside a caller's transaction it is a
    savepoint, and the caller commits.
    """
    connection = connections[using]
    outermost = not connection.in_atomic_block
    try:
        with transaction.atomic(using=using), together(using, commit=outermost):
            if outermost and several_statements_at_once(connection):
                _begin_with_next(connection)
            yield
    finally:  # the last writes, sent as `together` ends, carried the BEGIN if nothing did before
        _begin_pending.pop(connection, None)


# Per connection, inside `atomic()`: the driver's connection whose BEGIN is still to be sent.
_begin_pending: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _begin_with_next(connection: Any) -> None:
    raw = connection.connection
    if raw.pgconn.transaction_status != _IDLE:  # psycopg began already: nothing to save
        return
    raw.autocommit = True  # psycopg sends no BEGIN of its own: the next statement carries it
    _begin_pending[connection] = raw


def _begin(connection: Any) -> str:
    """The BEGIN to put before the next statement on `connection` ("" if none is owed)."""
    raw = _begin_pending.pop(connection, None)
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
    connection = connections[using]
    if _waiting.get(connection) is not None:  # within another block: that one sends them
        yield
        return
    _waiting[connection] = []
    try:
        with connection.execute_wrapper(_send_waiting_first):
            yield
            _send_waiting(connection, commit=commit)
    finally:
        del _waiting[connection]


# Per connection, inside `together()`: the writes not yet sent.
_waiting: weakref.WeakKeyDictionary[Any, list[_Write]] = weakref.WeakKeyDictionary()


def _write(connection: Any, write: _Write) -> None:
    waiting = _waiting.get(connection)
    if waiting is None:
        _send_now(connection, write)
    else:
        waiting.append(write)


def _execute(connection: Any, cursor: Any, sql: str, params: list[Any]) -> None:
    """`sql` (one statement of this module's) on `cursor`, by name where it is prepared."""
    prepare, text = _by_name(connection, cursor, sql)
    _execute_text(connection, cursor, text, params, prepare)


def _execute_text(connection: Any, cursor: Any, sql: str, params: list[Any], prepare: Sequence[_Prepared] = ()) -> None:
    """The query text `sql` on `cursor`, after the BEGIN `atomic` owes and the statements to
    `prepare` first, in the same text (the cursor then on `sql`'s first statement's result)."""
    begin = _begin(connection)
    head = begin + "".join(f"{statement.prepare};\n" for statement in prepare)
    try:
        cursor.execute(head + sql, params)
    except Exception:
        _prepared_now(connection, prepare, ran=False)
        raise
    _prepared_now(connection, prepare, ran=True)
    for _ in range(bool(begin) + len(prepare)):
        cursor.nextset()


def _send_now(connection: Any, write: _Write) -> None:
    cursor = kept_cursor(connection)
    _execute(connection, cursor, write.sql, write.params)
    write.done(cursor)


def _send_waiting_first(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    connection = context["connection"]
    if _begin(connection):  # another statement first: the BEGIN goes alone, before it
        kept_cursor(connection).execute("BEGIN")
    _send_waiting(connection)
    return execute(sql, params, many, context)


def _send_waiting(connection: Any, *, commit: bool = False) -> None:
    waiting = _waiting.get(connection)
    if not waiting:
        return
    writes, waiting[:] = list(waiting), []  # emptied first: the sends below pass the wrapper too
    at_once = several_statements_at_once(connection)
    if not at_once or (len(writes) == 1 and not commit):
        for write in writes:
            _send_now(connection, write)
        return
    cursor = kept_cursor(connection)
    named = [_by_name(connection, cursor, w.sql) for w in writes]
    sql = ";\n".join(text for _, text in named) + (";\nCOMMIT" if commit else "")
    prepare = list({statement.name: statement for found, _ in named for statement in found}.values())
    _execute_text(connection, cursor, sql, [p for w in writes for p in w.params], prepare)
    for index, write in enumerate(writes):
        if index:
            cursor.nextset()
        write.done(cursor)


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


# Per connection: the statements prepared in its current session.
_sessions: weakref.WeakKeyDictionary[Any, _Session] = weakref.WeakKeyDictionary()


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
    session = _sessions.get(connection)
    if session is None or session.raw is not connection.connection:
        session = _sessions[connection] = _Session(connection.connection, set())
    if session.names is None:
        begin = _begin(connection)
        cursor.execute(begin + "SELECT name FROM pg_prepared_statements")
        if begin:
            cursor.nextset()
        session.names = {name for (name,) in cursor.fetchall()}
    return session


def _prepared_now(connection: Any, prepared: Sequence[_Prepared], *, ran: bool) -> None:
    """Note the statements a query text prepared (`ran`: it succeeded; else which did is not known)."""
    session = _sessions.get(connection)
    if not prepared or session is None or session.names is None:
        return
    if ran:
        session.names.update(statement.name for statement in prepared)
    else:
        session.names = None


def several_statements_at_once(connection: Any) -> bool:
    """psycopg's client-side binding (Django's default) sends a query as text, and PostgreSQL
    runs the statements of one query text in order, each with its own result."""
    return connection.vendor == "postgresql" and not connection.settings_dict["OPTIONS"].get("server_side_binding")


def _cached(connection: Any, key: tuple[Any, ...], build: Callable[..., Any]) -> Any:
    statements = _built.setdefault(connection, {})
    if key not in statements:
        statements[key] = build(connection, *key[1:])
    return statements[key]


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


def _build_insert(connection: Any, model: type[Model]) -> str:
    q = connection.ops.quote_name
    auto = model._meta.auto_field
    columns = [q(f.column) for f in model._meta.concrete_fields if f is not auto]
    sql = f"INSERT INTO {q(model._meta.db_table)} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
    return sql if auto is None else f"{sql} RETURNING {q(auto.column)}"


def _build_update(connection: Any, model: type[Model], attnames: tuple[str, ...]) -> tuple[str, list[Field[Any, Any]]]:
    q = connection.ops.quote_name
    by_attname = {f.attname: f for f in model._meta.concrete_fields}  # `match_id` is the field `match`
    unknown = [name for name in attnames if name not in by_attname]
    if unknown:
        raise ValueError(f"{model.__name__} has no field {unknown[0]!r}")
    fields = [by_attname[name] for name in attnames]
    assignments = ", ".join(f"{q(f.column)} = %s" for f in fields)
    return f"UPDATE {q(model._meta.db_table)} SET {assignments} WHERE {q(model._meta.pk.column)} = %s", fields


def _send(signal: Any, obj: Model, alias: str, *, created: bool | None, update_fields: Any = None) -> None:
    """The model's save signal, as `save()` sends it (only when something listens: most models have no receiver)."""
    if not signal.has_listeners(type(obj)):
        return
    extra = {} if created is None else {"created": created}
    signal.send(sender=type(obj), instance=obj, raw=False, using=alias, update_fields=update_fields, **extra)

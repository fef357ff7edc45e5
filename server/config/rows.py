"""Rows read and written by one column's value, in SQL built once per model: a move's path.

Django's ORM builds every statement afresh from a queryset: for the few statements of a
move (the match locked, its seats, the move and its event inserted, the match updated) that
building was most of the web process's CPU for the move.  Measured on PostgreSQL: 0.84 ms to
lock the match through `select_for_update().filter(pk=...).first()` and 0.90 ms to read its
seats, against 0.20-0.22 ms each for the same statements built once; 0.41-0.45 ms an insert
or an update through `save()`, against 0.19-0.20 ms (`benchmarks/README.md`, "A move's
statements built once").

These helpers keep what the ORM gives those rows: model instances, every field's conversion
both ways (JSON, datetimes on SQLite), `auto_now_add`, the database router, and the model's
`pre_save` and `post_save` signals.  Anything else (filters on several columns, joins,
deletes) goes through the ORM.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import DatabaseError, connections, router
from django.db.models import Field, Model
from django.db.models.signals import post_save, pre_save

M = TypeVar("M", bound=Model)

# Per connection (converters are bound to its backend), per statement: the SQL and, for reads,
# each column's converters.
_built: weakref.WeakKeyDictionary[Any, dict[tuple, Any]] = weakref.WeakKeyDictionary()


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
    with connection.cursor() as cursor:
        cursor.execute(sql, [value])
        found = [_converted(row, converters, connection) for row in cursor.fetchall()]
    fields = model._meta.concrete_fields
    names = [f.attname for f in fields]
    if related is None:
        return [model.from_db(alias, names, values) for values in found]
    other = model._meta.get_field(related).related_model
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
    found = select(model, model._meta.pk.column, pk, lock=True)
    return found[0] if found else None


def insert(obj: Model) -> None:
    """Insert `obj` as a new row (every concrete field but an automatic key) and set its key."""
    model = type(obj)
    alias = router.db_for_write(model, instance=obj)
    connection = connections[alias]
    _send(pre_save, obj, alias, created=None)
    fields = [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    sql = _cached(connection, ("insert", model), _build_insert)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if model._meta.auto_field is not None:
            obj.pk = model._meta.auto_field.to_python(cursor.fetchone()[0])
    obj._state.adding, obj._state.db = False, alias
    _send(post_save, obj, alias, created=True)


def update(obj: Model, attnames: Sequence[str]) -> None:
    """Write `attnames` (fields' attribute names) of `obj` to its row, as `save(update_fields=...)`."""
    model = type(obj)
    alias = router.db_for_write(model, instance=obj)
    connection = connections[alias]
    sql, fields = _cached(connection, ("update", model, tuple(attnames)), _build_update)
    _send(pre_save, obj, alias, created=None, update_fields=frozenset(attnames))
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, obj.pk])
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")
    obj._state.db = alias
    _send(post_save, obj, alias, created=False, update_fields=frozenset(attnames))


def _cached(connection: Any, key: tuple, build: Callable[..., Any]) -> Any:
    statements = _built.setdefault(connection, {})
    if key not in statements:
        statements[key] = build(connection, *key[1:])
    return statements[key]


def _build_select(
    connection: Any, model: type[Model], column: str, order_by: str | None, lock: bool, related: str | None
) -> tuple[str, list[tuple[int, Any, list[Callable]]]]:
    q = connection.ops.quote_name
    table = model._meta.db_table
    columns = [field.get_col(table) for field in model._meta.concrete_fields]
    joins = ""
    if related is not None:
        key = model._meta.get_field(related)
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
    converters = []
    for index, col in enumerate(columns):
        # As the ORM's compiler gathers them for a column: the backend's, then the field's.
        found = [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]
        if found:
            converters.append((index, col, found))
    return sql, converters


def _converted(row: tuple, converters: list[tuple[int, Any, list[Callable]]], connection: Any) -> list[Any]:
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


def _build_update(connection: Any, model: type[Model], attnames: tuple[str, ...]) -> tuple[str, list[Field]]:
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

"""Query texts as the statements they run, whether sent by name or whole (server/db/rows.py
prepares its statements once a PostgreSQL session, and then runs them by name)."""

from __future__ import annotations

import re

from django.db import connection

_EXECUTE = re.compile(r"EXECUTE (\w+)(?:\(.*\))?", re.DOTALL)


def as_statements(queries: list[str]) -> list[str]:
    """Each of `queries` with every ``EXECUTE`` written as the statement it names (its values
    as $1, $2...), and the ``PREPARE``s sent along left out.  Statements of one text stay
    joined by ";\\n"; a text that only prepared is left out whole."""
    named = _prepared()
    texts = []
    for query in queries:
        statements = [_named(s, named) for s in query.split(";\n") if not s.startswith("PREPARE ")]
        if statements:
            texts.append(";\n".join(statements))
    return texts


def _named(statement: str, named: dict[str, str]) -> str:
    found = _EXECUTE.fullmatch(statement)
    return named[found[1]] if found else statement


def _prepared() -> dict[str, str]:
    """The statements prepared in this connection's session, by name (PostgreSQL lists them)."""
    if connection.vendor != "postgresql":
        return {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, statement FROM pg_prepared_statements")
        # `statement` is the whole query text the PREPARE came in: the statement is its part up to the next one.
        return {name: _own_part(name, text) for name, text in cursor.fetchall()}


def _own_part(name: str, text: str) -> str:
    return text.split(f"PREPARE {name} AS ", 1)[1].split(";\n", 1)[0]

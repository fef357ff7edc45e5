"""Which installation this process belongs to, so that two on one Redis never cross.

An installation is one database: every process reading and writing the same database
(daphne, Celery workers, management commands) is one installation and must share one
channel-layer prefix and one task queue; two databases are two installations and must
not.  So the id is derived from the database's identity, or set by hand:

>>> same = {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/../srv/a.sqlite3"}
>>> installation_id({"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/a.sqlite3"}) == installation_id(same)
True
"""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any

ENV_VAR = "PLYGROUND_INSTALLATION"


def database_identity(database: dict[str, Any]) -> str:
    """The SQLite file's absolute path, or the server's engine, host, port and database name."""
    engine = database.get("ENGINE", "")
    name = str(database.get("NAME", ""))
    if engine.endswith("sqlite3"):
        return f"sqlite:{os.path.realpath(name)}"
    return f"{engine}:{database.get('HOST') or 'localhost'}:{database.get('PORT') or ''}/{name}"


def installation_id(database: dict[str, Any], environ: dict[str, str] | None = None) -> str:
    """``PLYGROUND_INSTALLATION`` when set, else a short hash of the database identity."""
    given = (os.environ if environ is None else environ).get(ENV_VAR, "").strip()
    if given:
        return re.sub(r"[^A-Za-z0-9_.-]", "-", given)
    return hashlib.sha256(database_identity(database).encode()).hexdigest()[:12]

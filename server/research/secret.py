"""The secret that keys research pseudonyms: one per installation, never committed, never ``SECRET_KEY``.

``settings.RESEARCH_PSEUDONYM_SECRET`` when set (production must set it: ``settings/prod.py``
refuses to start without it).  Otherwise the secret is generated on first use into
``settings.RESEARCH_PSEUDONYM_SECRET_FILE`` (``.secrets/research_pseudonym_secret``, ignored by
git, mode 0600) and read from there after, so a development install keeps its pseudonyms
from one export to the next.

``SECRET_KEY`` is never a fallback: its development default is committed, and anyone who
knows the key can recompute every pseudonym from the public ids and undo them.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

# A pseudonym is an HMAC of a small public number (a player's or a match's id): a guessable
# key would let anyone who holds an export find it by trying keys, so no short ones.
MIN_SECRET_LENGTH = 32
GENERATE_HINT = 'python -c "import secrets; print(secrets.token_hex(32))"'


def check_secret(secret: str, secret_key: str | None = None) -> str:
    """`secret` if it is fit to key pseudonyms; `ImproperlyConfigured` saying why not otherwise."""
    if len(secret) < MIN_SECRET_LENGTH:
        raise ImproperlyConfigured(
            f"RESEARCH_PSEUDONYM_SECRET must be at least {MIN_SECRET_LENGTH} characters of random text "
            f"(it keys the pseudonyms of research exports); make one with: {GENERATE_HINT}"
        )
    if secret_key is not None and secret == secret_key:
        raise ImproperlyConfigured(
            "RESEARCH_PSEUDONYM_SECRET must not be SECRET_KEY: give research pseudonyms a secret of their own "
            f"({GENERATE_HINT})"
        )
    return secret


def pseudonym_secret() -> str:
    """The installation's secret: the setting, or the generated file (made now if it is missing)."""
    configured = getattr(settings, "RESEARCH_PSEUDONYM_SECRET", "") or ""
    if configured:
        return check_secret(configured, settings.SECRET_KEY)
    path = getattr(settings, "RESEARCH_PSEUDONYM_SECRET_FILE", None)
    if not path:
        raise ImproperlyConfigured(
            "research exports need RESEARCH_PSEUDONYM_SECRET (the key of their pseudonyms); "
            f"make one with: {GENERATE_HINT}"
        )
    return check_secret(read_or_create_secret(Path(path)), settings.SECRET_KEY)


def read_or_create_secret(path: Path) -> str:
    """The secret kept in `path`, generated there first (mode 0600) if there is none yet.

    Two processes that start at once both end up with the one secret that reached the disk
    first: each writes a complete file aside and links it into place, which fails for the
    second; nobody ever reads a half-written secret.
    """
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, aside = tempfile.mkstemp(dir=path.parent, prefix=".new-", text=True)  # mode 0600
    try:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):  # another process was first: its secret it is
            os.link(aside, path)
    finally:
        os.unlink(aside)
    return _read(path)


def _read(path: Path) -> str:
    with path.open() as kept:
        mode = os.fstat(kept.fileno()).st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ImproperlyConfigured(
                f"{path} (the research pseudonym secret) can be read by others: chmod 600 {path}"
            )
        secret = kept.read().strip()
    if not secret:
        raise ImproperlyConfigured(f"{path} is empty: delete it to have a new research pseudonym secret made")
    return secret

"""Pseudonymous ids for exports: stable across exports, not reversible without the installation's secret.

A player's pseudonym is an HMAC-SHA256 of its id under a key derived from the research
pseudonym secret (`server.research.secret`: ``RESEARCH_PSEUDONYM_SECRET`` or a file
generated per installation, never ``SECRET_KEY``), truncated to 64 bits.  The same player
gets the same pseudonym in every export; without the secret nobody can go from a
pseudonym back to the player, nor tell whether two ids belong together.

Matches get pseudonyms too: a match id is public (``/api/matches/{id}/`` shows the
players' names), so exporting it would undo the players' pseudonyms.

>>> Pseudonyms(secret="s").player(42) == Pseudonyms(secret="s").player(42)
True
>>> Pseudonyms(secret="s").player(42).startswith("p-")
True
"""

from __future__ import annotations

import hashlib
import hmac

from server.research.secret import pseudonym_secret

DIGEST_HEX = 16  # 64 bits: no collision to expect below billions of players


class Pseudonyms:
    """Derives the keys once; then one HMAC per id."""

    def __init__(self, secret: str | None = None) -> None:
        if secret is None:
            secret = pseudonym_secret()
        self._player = self._keyed(secret, b"plyground.research.player")
        self._match = self._keyed(secret, b"plyground.research.match")

    @staticmethod
    def _keyed(secret: str, purpose: bytes) -> hmac.HMAC:
        key = hmac.new(secret.encode(), purpose, hashlib.sha256).digest()  # one key per purpose
        return hmac.new(key, digestmod=hashlib.sha256)

    @staticmethod
    def _digest(base: hmac.HMAC, value: int) -> str:
        mac = base.copy()
        mac.update(str(value).encode())
        return mac.hexdigest()[:DIGEST_HEX]

    def player(self, player_id: int) -> str:
        return "p-" + self._digest(self._player, player_id)

    def match(self, match_id: int) -> str:
        return "m-" + self._digest(self._match, match_id)

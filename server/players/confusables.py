"""Unicode's confusables (UTS #39): the characters each one is read as, and a string's skeleton.

Two strings with one skeleton look alike: ``skeleton("pаypal") == skeleton("paypal")`` with
a Cyrillic ``а``.  The table is Unicode's own (``confusables.txt`` beside this module, loaded
once at import); `server.players.names` adds the folds a name needs on top (case, separators).

>>> skeleton("ΡΟLΑRΙS") == skeleton("POLARIS")  # Greek capitals
True
>>> skeleton("m") == skeleton("rn")
True
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Final

TABLE: Final = Path(__file__).with_name("confusables.txt")


def _load() -> dict[int, str]:
    prototypes: dict[int, str] = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, target = line.split(";")
            prototypes[int(source, 16)] = "".join(chr(int(cp, 16)) for cp in target.split())
    return prototypes


# A str.translate table: code point -> its prototype.
PROTOTYPES: Final[dict[int, str]] = _load()


def prototype(char: str) -> str:
    """What one character is read as (itself when Unicode lists no look-alike for it)."""
    return PROTOTYPES.get(ord(char), char)


def skeleton(text: str) -> str:
    """UTS #39 section 4: NFD, every character replaced by its prototype, NFD again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(PROTOTYPES))

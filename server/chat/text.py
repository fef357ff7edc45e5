"""What a chat message may say: one line of visible text, stripped, within a length.

Refused, so that the sender learns why: line breaks and other control characters, and the
characters that reorder the text around them (bidirectional embeddings, overrides and
isolates: a message could be made to read backwards).  Removed: the other invisible
characters (format characters such as U+200B zero-width space, the U+200E/U+200F direction
marks and U+FEFF, and the fillers that draw nothing), which hide text from readers and from
moderators' searches; but a zero-width joiner or non-joiner between two visible characters is
kept, for emoji sequences and Persian and Indic writing need it.  Names follow the stricter
rule of `server.players.names` (every invisible character refused).
"""

from __future__ import annotations

import unicodedata

from server.chat.errors import ChatInvalid, ChatTooLong
from server.players.names import FILLERS

# Characters that reorder the text around them: a name or a link can be made to read backwards.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Control characters (line breaks and tabs among them), surrogates, private use, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Zl", "Zp"})
JOINERS = frozenset("\u200c\u200d")


def _hidden(char: str) -> bool:
    return char in FILLERS or unicodedata.category(char) == "Cf"


def strip_invisible(text: str) -> str:
    """`text` without its invisible characters, but for a joiner between two visible ones.

    >>> strip_invisible("g\\u200bg\\u200f")
    'gg'
    >>> strip_invisible("\\U0001F469\\u200d\\U0001F4BB") == "\\U0001F469\\u200d\\U0001F4BB"  # woman technologist
    True
    """
    kept: list[str] = []
    for i, char in enumerate(text):
        joining = char in JOINERS and kept and not _hidden(kept[-1]) and i + 1 < len(text) and not _hidden(text[i + 1])
        if joining or not _hidden(char):
            kept.append(char)
    return "".join(kept)


def clean_text(raw: object, max_chars: int) -> str:
    """The message as stored: `raw` without invisible characters, stripped, or ChatInvalid / ChatTooLong.

    >>> clean_text("  gg\\u200f  ", 280)
    'gg'
    >>> clean_text("a\\nb", 280)
    Traceback (most recent call last):
    ...
    server.chat.errors.ChatInvalid: one line of text: line breaks and control characters are refused
    """
    if not isinstance(raw, str):
        raise ChatInvalid("a chat frame's text is a string")
    text = raw.strip()
    if any(unicodedata.category(c) in REFUSED_CATEGORIES for c in text):
        raise ChatInvalid("one line of text: line breaks and control characters are refused")
    if any(c in BIDI_CONTROLS for c in text):
        raise ChatInvalid(
            "characters that reverse or reorder text (U+202A-U+202E, U+2066-U+2069) are refused: "
            "send the text as written"
        )
    text = strip_invisible(text).strip()
    if not text:
        raise ChatInvalid("the message is empty")
    if len(text) > max_chars:
        raise ChatTooLong(f"a message has at most {max_chars} characters; this one has {len(text)}")
    return text

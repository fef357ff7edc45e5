"""What a chat message may say: one line of printable text, stripped, within a length."""

from __future__ import annotations

import unicodedata

from server.chat.errors import ChatInvalid, ChatTooLong

# Characters that reorder the text around them: a name or a link can be made to read backwards.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Control characters (line breaks and tabs among them), surrogates, private use, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Zl", "Zp"})


def clean_text(raw: object, max_chars: int) -> str:
    """The message as stored: `raw` stripped, or ChatInvalid / ChatTooLong saying what is wrong.

    >>> clean_text("  gg  ", 280)
    'gg'
    >>> clean_text("a\\nb", 280)
    Traceback (most recent call last):
    ...
    server.chat.errors.ChatInvalid: one line of text: line breaks and control characters are refused
    """
    if not isinstance(raw, str):
        raise ChatInvalid("a chat frame's text is a string")
    text = raw.strip()
    if not text:
        raise ChatInvalid("the message is empty")
    if len(text) > max_chars:
        raise ChatTooLong(f"a message has at most {max_chars} characters; this one has {len(text)}")
    if any(unicodedata.category(c) in REFUSED_CATEGORIES or c in BIDI_CONTROLS for c in text):
        raise ChatInvalid("one line of text: line breaks and control characters are refused")
    return text

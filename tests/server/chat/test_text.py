"""What a chat message may say (server/chat/text.py)."""

from __future__ import annotations

import pytest

from server.chat.errors import ChatInvalid, ChatTooLong
from server.chat.text import clean_text


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("  gg  ", "gg"),
        ("\tgood luck\u00a0", "good luck"),
        ("nice move 👍🏽", "nice move 👍🏽"),
        ("é" * 280, "é" * 280),
    ],
)
def test_a_clean_line_is_kept_stripped(raw, kept):
    assert clean_text(raw, 280) == kept


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "two\nlines",
        "bell\x07",
        "nul\x00",
        "escape \x1b[31m red",
        "evil \u202egnp.exe",  # right-to-left override: reads backwards
        "isolate \u2066x\u2069",
        "line\u2028separator",
        "private \ue000 use",
        None,
        42,
        ["gg"],
    ],
)
def test_empty_multi_line_control_characters_and_non_strings_are_invalid(raw):
    with pytest.raises(ChatInvalid) as refused:
        clean_text(raw, 280)
    assert refused.value.code == "chat_invalid" and refused.value.message


def test_too_long_is_refused_after_stripping():
    assert clean_text(" " + "a" * 280 + " ", 280) == "a" * 280
    with pytest.raises(ChatTooLong) as refused:
        clean_text("a" * 281, 280)
    assert refused.value.code == "chat_too_long" and "281" in refused.value.message

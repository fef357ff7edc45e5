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


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("gg\u200f", "gg"),  # right-to-left mark
        ("g\u200bg", "gg"),  # zero-width space
        ("\ufeffgg", "gg"),  # byte-order mark
        ("g\u2060g\u00ad", "gg"),  # word joiner, soft hyphen
        ("gg \u3164", "gg"),  # Hangul filler, then stripped
        ("\U0001f469\u200d\U0001f4bb", "\U0001f469\u200d\U0001f4bb"),  # an emoji sequence keeps its joiner
        (
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
        ),  # Persian
        ("a\u200d", "a"),  # a joiner with nothing after it
    ],
)
def test_invisible_format_characters_are_stripped_but_joiners_between_visible_ones_kept(raw, kept):
    assert clean_text(raw, 280) == kept


@pytest.mark.parametrize("raw", ["\u200f", "\u200b\u200d\ufeff", " \u3164 "])
def test_a_message_of_invisible_characters_only_is_empty(raw):
    with pytest.raises(ChatInvalid) as refused:
        clean_text(raw, 280)
    assert refused.value.message == "the message is empty"

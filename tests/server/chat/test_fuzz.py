"""Any text a client sends is stored clean or refused with a chat code (hostile input, docs/wire.md)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from server.chat import services
from server.chat.text import BIDI_CONTROLS, JOINERS, REFUSED_CATEGORIES
from server.matches.errors import MatchError
from tests.server.conftest import human_match

CHAT_CODES = {"chat_invalid", "chat_too_long"}
texts = st.one_of(
    st.text(max_size=300),
    st.text(st.sampled_from(" \t\n\r\x00\x07\u202e\u2066\u2028\u200b\u200d\u200f\ufeffa😀é"), max_size=12),
    st.integers(),
    st.none(),
    st.lists(st.text(max_size=3), max_size=2),
)


@pytest.fixture
def match(alice, bob, settings):
    settings.CHAT_RATE_LIMIT = (10**6, 10.0)  # the texts are under test here, not the pace
    return human_match("tictactoe", alice, bob)


@pytest.mark.django_db
@hypothesis_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts)
def test_any_text_is_stored_as_one_clean_line_or_refused_with_a_chat_code(match, alice, text):
    try:
        said = services.chat_post(match.pk, alice.pk, text)
    except MatchError as refused:
        assert refused.code in CHAT_CODES and refused.message
        return
    stored = said.text
    assert stored == stored.strip() and 0 < len(stored) <= 280
    assert not any(unicodedata.category(c) in REFUSED_CATEGORIES or c in BIDI_CONTROLS for c in stored)
    assert not any(unicodedata.category(c) == "Cf" and c not in JOINERS for c in stored)  # invisible ones stripped

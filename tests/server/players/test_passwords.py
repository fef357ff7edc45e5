"""Passwords a guesser tries early are refused at sign-up, with zxcvbn's advice (server/players/passwords.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from tests.server.players.test_accounts import signup

pytestmark = pytest.mark.django_db


WEAK = ["aaaaaaaaaaaa", "qwertyuiopasdf", "Password2024!", "iloveyou2024", "abcdefghijkl"]


@pytest.mark.parametrize("password", WEAK)
def test_passwords_that_pass_djangos_validators_but_are_guessed_early_are_refused(client, password):
    answer = signup(client, "Zoe Quinn", password=password)
    assert answer.status_code == 200
    assert "too easy to guess" in answer.content.decode()
    assert not get_user_model().objects.exists()


def test_the_refusal_says_why_and_what_to_do():
    with pytest.raises(ValidationError) as refused:
        validate_password("aaaaaaaaaaaa")
    words = " ".join(refused.value.messages)
    assert 'Repeats like "aaa" are easy to guess' in words and "Add another word or two" in words


def test_a_password_made_of_the_accounts_own_name_is_weak():
    user = get_user_model()(username="Tangerine Otter", email="tangerine.otter@example.org")
    with pytest.raises(ValidationError):
        validate_password("tangerineotter1", user)


def test_a_few_uncommon_words_pass_and_the_estimate_takes_long_passwords(client):
    validate_password("tangerine otter plays connect four")
    validate_password("tangerine otter plays connect four " * 4)  # past zxcvbn's 72 characters
    assert signup(client, "Zoe Quinn", password="tangerine otter plays connect four").status_code == 302

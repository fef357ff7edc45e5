"""Guessing logins (server/players/lockout.py): failures counted per account whatever the spelling,
per address over every account, and never against the owner's own browser; through the real
login views and the real database."""

from __future__ import annotations

import re

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core import mail
from django.test import Client

from server.players import accounts
from server.players.models import Player
from server.players.selectors import SESSION_KEY

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-enough-secret-9"
NAME, EMAIL = "Zoe Quinn", "zoe@example.org"
# One account, as people and guessers type it: cases, the address in any case, spaces and
# separators, full-width and Cyrillic letters, digits for letters.
SPELLINGS = [
    "Zoe Quinn", "zoe quinn", "ZOE QUINN", "ZoeQuinn", "zoe_quinn", "zoe-quinn", "  Zoe Quinn ",
    "Ｚｏｅ Ｑｕｉｎｎ", "Zое Quinn", "Z0e Quinn", "Zoe Qu1nn", "zoe@example.org", "ZOE@EXAMPLE.ORG", "Zoe@Example.Org",
]  # fmt: skip


def login(client: Client, identifier: str, password: str):
    return client.post("/login/", {"username": identifier, "password": password})


def browser(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def logged_in(client: Client) -> bool:
    return SESSION_KEY in client.session and Player.objects.get(pk=client.session[SESSION_KEY]).name == NAME


def lock(answer) -> str | None:
    found = re.search(r'data-lock="(\w+)"', answer.content.decode())
    return found.group(1) if answer.status_code == 429 and found else None


@pytest.fixture
def zoe():
    return accounts.account_create(NAME, EMAIL, PASSWORD)


@pytest.fixture
def owners_browser(zoe) -> Client:
    """A browser Zoe logged in from once (at home), then logged out of."""
    client = browser("198.51.100.1")
    assert login(client, NAME, PASSWORD).status_code == 302
    client.post("/logout/")
    assert settings.KNOWN_DEVICE_COOKIE in client.cookies
    return client


def test_every_spelling_logs_in_to_the_one_account(zoe):
    for spelling in SPELLINGS:
        client = browser("198.51.100.9")
        assert login(client, spelling, PASSWORD).status_code == 302, spelling
        assert logged_in(client), spelling


def test_wrong_passwords_spread_over_spellings_count_as_one_account(zoe):
    guesser = browser("203.0.113.5")
    for i in range(30):
        login(guesser, SPELLINGS[i % len(SPELLINGS)], f"wrong guess {i}")
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"zoequlnn"}
    answer = login(guesser, "zoe quinn", PASSWORD)
    assert answer.status_code == 429 and lock(answer) == "pair"
    assert not logged_in(guesser)


def test_guesses_from_many_addresses_pause_new_devices_but_not_the_owners_browser(zoe, owners_browser):
    limit = settings.LOGIN_ACCOUNT_FAILURE_LIMIT
    answers = [login(browser(f"203.0.113.{i + 1}"), SPELLINGS[i % len(SPELLINGS)], "wrong") for i in range(limit)]
    assert [a.status_code for a in answers] == [200] * (limit - 1) + [429]  # the last one reaches the limit
    newcomer = browser("192.0.2.50")
    answer = login(newcomer, NAME, PASSWORD)
    assert answer.status_code == 429 and lock(answer) == "account"
    assert not logged_in(newcomer)
    # Zoe's own browser, even from an address she never used (a phone on the move), still gets in.
    owners_browser.defaults["REMOTE_ADDR"] = "192.0.2.77"
    assert login(owners_browser, "zoe quinn", PASSWORD).status_code == 302
    assert logged_in(owners_browser)


def test_the_account_limit_is_one_short_of_locking_before_it_is_reached(zoe):
    limit = settings.LOGIN_ACCOUNT_FAILURE_LIMIT
    for i in range(limit - 1):
        login(browser(f"203.0.113.{i + 1}"), NAME, "wrong")
    assert login(browser("192.0.2.50"), NAME, PASSWORD).status_code == 302


def test_a_password_reset_lets_a_paused_browser_in(zoe):
    for i in range(settings.LOGIN_ACCOUNT_FAILURE_LIMIT):
        login(browser(f"203.0.113.{i + 1}"), NAME, "wrong")
    laptop = browser("192.0.2.60")
    assert lock(login(laptop, NAME, PASSWORD)) == "account"
    assert laptop.post("/password-reset/", {"email": EMAIL}).status_code == 302
    link = re.search(r"http://testserver(/password-reset/\S+/)", mail.outbox[-1].body).group(1)
    form = laptop.get(link, follow=True)
    new = "brand-new-secret-42"
    assert laptop.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}).status_code == 302
    assert login(laptop, NAME, new).status_code == 302 and logged_in(laptop)
    assert login(browser("192.0.2.61"), NAME, new).status_code == 302  # the account's failures are forgiven


def test_one_password_tried_on_many_accounts_pauses_the_address_but_not_known_browsers(zoe, owners_browser):
    sprayer = browser("198.51.100.1")  # the same address as Zoe's home
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    for i in range(limit):
        login(sprayer, f"Player {i // 2}", "Password2024!")  # two tries per name, under the per-account limit
    answer = login(browser("198.51.100.1"), NAME, PASSWORD)
    assert answer.status_code == 429 and lock(answer) == "address"
    assert login(owners_browser, NAME, PASSWORD).status_code == 302  # Zoe's browser at that address


def test_a_name_nobody_has_is_paused_the_same_way(zoe):
    guesser = browser("203.0.113.5")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        login(guesser, "Nobody Here", "wrong")
    assert lock(login(guesser, "nobody here", "wrong")) == "pair"


def test_a_forged_device_cookie_is_ignored(zoe):
    for i in range(settings.LOGIN_ACCOUNT_FAILURE_LIMIT):
        login(browser(f"203.0.113.{i + 1}"), NAME, "wrong")
    forger = browser("192.0.2.50")
    forger.cookies[settings.KNOWN_DEVICE_COOKIE] = f"[{zoe.pk}]"  # unsigned
    assert lock(login(forger, NAME, PASSWORD)) == "account"


def test_a_few_typos_do_not_lock_anyone_out(zoe):
    client = browser("198.51.100.3")
    for i in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert login(client, NAME, f"typo {i}").status_code == 200
    assert login(client, NAME, PASSWORD).status_code == 302


def test_a_browser_known_to_another_account_is_new_to_this_one(zoe):
    accounts.account_create("Mallory", "m@example.org", PASSWORD)
    mallory = browser("192.0.2.50")
    assert login(mallory, "Mallory", PASSWORD).status_code == 302
    mallory.post("/logout/")
    for i in range(settings.LOGIN_ACCOUNT_FAILURE_LIMIT):
        login(browser(f"203.0.113.{i + 1}"), NAME, "wrong")
    assert lock(login(mallory, NAME, PASSWORD)) == "account"

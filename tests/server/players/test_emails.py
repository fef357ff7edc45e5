"""E-mail addresses at sign-up and on the account page (server/players/emails.py): the same answer
whether or not an address is in use, attached only through the mailed link, login by e-mail only
with a confirmed address."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from server.players import accounts
from tests.server.players.test_accounts import PASSWORD, signup

pytestmark = pytest.mark.django_db


def link_in(message) -> str:
    return re.search(r"http://testserver(/account/email/\S+/)", message.body).group(1)


def notice(answer) -> str:
    """What the page after a sign-up tells its reader."""
    return re.search(r'data-testid="notice">(.*?)</div>', answer.content.decode(), re.S).group(1)


def test_sign_up_says_the_same_for_a_used_and_an_unused_address():
    accounts.account_create("Zoe", "zoe@example.org", PASSWORD)
    used, unused = Client(), Client()
    assert signup(used, "Yann", email="ZOE@example.org").status_code == 302
    assert signup(unused, "Xena", email="xena@example.org").status_code == 302
    used_page = notice(used.get("/account/")).replace("Yann", "N").replace("ZOE@example.org", "A")
    unused_page = notice(unused.get("/account/")).replace("Xena", "N").replace("xena@example.org", "A")
    assert used_page == unused_page and "We have sent a message to A" in used_page
    to_owner, to_newcomer = mail.outbox
    assert to_owner.to == ["ZOE@example.org"] and "Someone tried" in to_owner.subject
    assert "already belongs to your account Zoe" in to_owner.body and "/account/email/" not in to_owner.body
    assert to_newcomer.to == ["xena@example.org"] and "/account/email/" in to_newcomer.body
    users = get_user_model().objects
    assert users.get(username="Yann").email == "" and users.get(username="Zoe").email == "zoe@example.org"


def test_the_address_is_attached_by_its_link_and_then_logs_in():
    client = Client()
    assert signup(client, "Xena", email="xena@example.org").status_code == 302
    client.post("/logout/")
    stranger = Client()
    assert stranger.post("/login/", {"username": "xena@example.org", "password": PASSWORD}).status_code == 200
    link = link_in(mail.outbox[-1])
    page = stranger.get(link)
    assert page.status_code == 200 and "xena@example.org" in page.content.decode()
    assert get_user_model().objects.get(username="Xena").email == ""  # opening the link changes nothing
    assert stranger.post(link).status_code == 302
    assert get_user_model().objects.get(username="Xena").email == "xena@example.org"
    assert stranger.post("/login/", {"username": "XENA@example.org", "password": PASSWORD}).status_code == 302
    again = Client().post(link)
    assert again.status_code == 400 and "used already" in again.content.decode()


def test_a_link_that_was_tampered_with_or_raced_is_refused():
    assert signup(Client(), "Xena", email="shared@example.org").status_code == 302
    assert signup(Client(), "Yann", email="shared@example.org").status_code == 302
    xena_link, yann_link = (link_in(m) for m in mail.outbox)
    forged = Client().post(xena_link.replace("/account/email/", "/account/email/x"))
    assert forged.status_code == 400 and "not one we sent" in forged.content.decode()
    assert Client().post(xena_link).status_code == 302
    late = Client().post(yann_link)
    assert late.status_code == 400 and "confirmed this address first" in late.content.decode()
    assert get_user_model().objects.filter(email__iexact="shared@example.org").count() == 1


def test_an_old_link_has_expired(settings):
    assert signup(Client(), "Xena", email="xena@example.org").status_code == 302
    settings.EMAIL_CONFIRM_TIMEOUT = -1
    answer = Client().get(link_in(mail.outbox[-1]))
    assert answer.status_code == 400 and "too old" in answer.content.decode()


def test_the_account_page_mails_a_new_address_and_says_the_same_when_it_is_taken():
    accounts.account_create("Zoe", "zoe@example.org", PASSWORD)
    client = Client()
    assert signup(client, "Xena", email="xena@example.org").status_code == 302
    Client().post(link_in(mail.outbox[-1]))
    taken = client.post("/account/", {"name": "Xena", "email": "zoe@example.org"}, follow=True)
    assert "We have sent a message to zoe@example.org" in taken.content.decode()
    assert "Someone tried" in mail.outbox[-1].subject
    free = client.post("/account/", {"name": "Xena", "email": "xena2@example.org"}, follow=True)
    assert "We have sent a message to xena2@example.org" in free.content.decode()
    assert get_user_model().objects.get(username="Xena").email == "xena@example.org"  # until the link
    client.post(link_in(mail.outbox[-1]))
    assert get_user_model().objects.get(username="Xena").email == "xena2@example.org"
    count = len(mail.outbox)
    assert client.post("/account/", {"name": "Xena", "email": ""}).status_code == 302  # blank: kept, no mail
    assert len(mail.outbox) == count and get_user_model().objects.get(username="Xena").email == "xena2@example.org"


def test_new_addresses_on_the_account_page_are_throttled_per_address(monkeypatch):
    from server.players.throttles import AddressRateThrottle

    monkeypatch.setattr(
        AddressRateThrottle, "THROTTLE_RATES", {**AddressRateThrottle.THROTTLE_RATES, "email_change": "1/hour"}
    )
    client = Client()
    assert signup(client, "Xena", email="xena@example.org").status_code == 302
    assert client.post("/account/", {"name": "Xena", "email": "a@example.org"}).status_code == 302
    assert client.post("/account/", {"name": "Xena", "email": "b@example.org"}).status_code == 429
    assert [m.to for m in mail.outbox][-1] == ["a@example.org"]


def test_a_mail_server_that_fails_does_not_fail_the_sign_up(monkeypatch, caplog):
    import smtplib

    from server.players import emails

    def refuse(*args, **kwargs):
        raise smtplib.SMTPServerDisconnected("gone")

    monkeypatch.setattr(emails, "send_mail", refuse)
    client = Client()
    assert signup(client, "Xena", email="xena@example.org").status_code == 302
    assert get_user_model().objects.filter(username="Xena").exists()
    assert "could not mail email_confirm" in caplog.text

"""The researcher's page /account/research/: for researchers, a clear refusal for everyone else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from server.players import accounts
from server.research.permissions import RESEARCHER_GROUP

pytestmark = pytest.mark.django_db

PAGE = "/account/research/"


def signed_in(username: str, researcher: bool = False, **extra) -> Client:
    user = accounts.account_create(username, f"{username.lower()}@example.org", "a-long-enough-secret-9")
    User.objects.filter(pk=user.pk).update(**extra)
    if researcher:
        user.groups.add(Group.objects.get_or_create(name=RESEARCHER_GROUP)[0])
    client = Client()
    client.force_login(user)
    session = client.session  # as the login view leaves it: the browser is the account's player
    accounts.session_take_player(session, user)
    session.save()
    return client


def test_a_researcher_gets_the_tokens_and_the_url_builder():
    page = signed_in("Rita", researcher=True).get(PAGE)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="token-form"' in html and 'id="export-form"' in html
    assert 'value="connect4"' in html and 'value="connect4-shallow"' in html  # games and bot profiles
    assert 'value="human-vs-bot"' in html and 'value="bot-win"' in html and 'value="any"' in html
    assert "/api/exports/estimate/" in html and "/api/players/me/tokens/" in html  # for research.js
    assert "csrftoken" in page.cookies
    # Whose games an export holds, what the default is and why; the training purpose.
    assert "Only the games of people who said yes" in html and "Nobody is in by" in html and "consent" in html
    assert 'name="purpose"' in html and 'value="training"' in html


def test_staff_are_researchers_too():
    assert signed_in("Stella", is_staff=True).get(PAGE).status_code == 200


def test_an_account_without_the_permission_is_told_to_ask_staff():
    page = signed_in("Zeb").get(PAGE)
    assert page.status_code == 403
    assert "ask the site's staff for researcher access" in page.content.decode()


def test_anonymous_visitors_and_guests_are_asked_to_log_in():
    page = Client().get(PAGE)
    assert page.status_code == 403
    html = page.content.decode()
    assert "researcher access" in html and "/login/?next=/account/research/" in html


def test_the_account_page_links_to_it_for_researchers_only():
    assert PAGE in signed_in("Rita", researcher=True).get("/account/").content.decode()
    assert PAGE not in signed_in("Zeb").get("/account/").content.decode()

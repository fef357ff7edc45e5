"""Consent over the API: a person's choice for research exports and for training our bots."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from server.players.models import Player
from tests.server.players.test_accounts import PASSWORD, guest_browser, signup

pytestmark = pytest.mark.django_db
URL = "/api/players/me/consent/"


def _guest_api() -> tuple[APIClient, Player]:
    made = APIClient().post("/api/players/guest/", {}, format="json").json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {made['token']}")
    return client, Player.objects.get(pk=made["player"]["id"])


def test_nothing_is_shared_until_the_person_says_yes():
    client, player = _guest_api()
    assert client.get(URL).json() == {"research": False, "training": False, "answered": False}
    assert (player.consent_research, player.consent_training, player.consent_answered_at) == (False, False, None)


def test_a_choice_is_kept_on_the_player_and_can_be_changed():
    client, player = _guest_api()
    answer = client.put(URL, {"research": True, "training": False}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {"research": True, "training": False, "answered": True}
    player.refresh_from_db()
    assert (player.consent_research, player.consent_training) == (True, False)
    assert client.put(URL, {"research": False, "training": True}, format="json").json()["training"] is True
    assert client.get(URL).json() == {"research": False, "training": True, "answered": True}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"research": True}, "training"),
        ({"research": "true", "training": False}, "research"),
        ({"research": 1, "training": 0}, "research"),
        ({"research": True, "training": True, "everything": True}, "everything"),
    ],
)
def test_anything_but_two_booleans_is_refused_field_by_field(body, field):
    client, player = _guest_api()
    answer = client.put(URL, body, format="json")
    assert answer.status_code == 400 and field in answer.json()
    player.refresh_from_db()
    assert player.consent_answered_at is None  # nothing was recorded


def test_without_a_player_there_is_nothing_to_read_or_set():
    assert APIClient().get(URL).status_code == 401
    assert APIClient().put(URL, {"research": True, "training": True}, format="json").status_code in (401, 403)


def test_a_browser_guest_answers_with_its_session_and_keeps_the_answer_when_it_signs_up(client: Client):
    guest = guest_browser(client)
    csrf = client.cookies["csrftoken"].value
    body = {"research": True, "training": True}
    assert client.put(URL, body, content_type="application/json", HTTP_X_CSRFTOKEN=csrf).status_code == 200
    assert signup(client, "Zoe Q", password=PASSWORD).status_code == 302
    account = Player.objects.get(pk=guest.pk)
    assert not account.is_guest and account.consent_research and account.consent_training
    assert client.get(URL).json() == {"research": True, "training": True, "answered": True}


def test_the_notice_is_shown_to_a_guest_until_it_answers(client: Client):
    guest_browser(client)
    assert 'data-testid="consent-notice"' in client.get("/").content.decode()
    csrf = client.cookies["csrftoken"].value
    body = {"research": False, "training": False}
    assert client.put(URL, body, content_type="application/json", HTTP_X_CSRFTOKEN=csrf).status_code == 200
    assert 'data-testid="consent-notice"' not in client.get("/").content.decode()

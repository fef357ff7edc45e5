"""Bearer tokens expire, and their owner lists, issues, rotates and revokes them at /api/players/me/tokens/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from server.players.models import ApiToken
from server.players.services import player_create_guest_with_token

URL = "/api/players/me/tokens/"


@pytest.fixture(autouse=True)
def fresh_throttles():
    cache.clear()
    yield
    cache.clear()


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def works(token: str) -> bool:
    return bearer(token).get("/api/players/me/").status_code == 200


@pytest.mark.django_db
def test_a_guest_token_expires_after_the_configured_lifetime(settings):
    created = APIClient().post("/api/players/guest/", {}, format="json").json()
    row = ApiToken.objects.get()
    assert abs(row.expires_at - (timezone.now() + timedelta(days=settings.API_TOKEN_DAYS))) < timedelta(minutes=1)
    assert works(created["token"])
    ApiToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    expired = bearer(created["token"]).get("/api/players/me/")
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]


@pytest.mark.django_db
def test_the_owner_lists_their_tokens_without_secrets(token_client):
    bearer(player_create_guest_with_token()[1])  # someone else's
    listed = token_client.get(URL)
    assert listed.status_code == 200
    (only,) = listed.json()
    assert set(only) == {"id", "label", "created_at", "last_used_at", "expires_at", "current"}
    assert only["current"] is True and only["label"] == "guest"
    assert token_client.token not in listed.content.decode()
    assert ApiToken.objects.get(pk=only["id"]).digest not in listed.content.decode()


@pytest.mark.django_db
def test_the_owner_issues_rotates_and_revokes_tokens(token_client):
    issued = token_client.post(URL, {"label": "laptop"}, format="json")
    assert issued.status_code == 201
    new = issued.json()
    assert new["label"] == "laptop" and new["current"] is False and works(new["token"])
    assert bearer(new["token"]).get("/api/players/me/").json()["id"] == token_client.player.pk
    assert len(token_client.get(URL).json()) == 2

    rotated = token_client.post(f"{URL}{new['id']}/rotate/")
    assert rotated.status_code == 201
    assert rotated.json()["label"] == "laptop" and rotated.json()["id"] != new["id"]
    assert works(rotated.json()["token"]) and not works(new["token"])  # the old one ends at once

    assert token_client.delete(f"{URL}{rotated.json()['id']}/").status_code == 204
    assert not works(rotated.json()["token"])
    assert [t["id"] for t in token_client.get(URL).json()] == [ApiToken.objects.get().pk]

    # Revoking the token in use signs the caller out.
    own = token_client.get(URL).json()[0]["id"]
    assert token_client.delete(f"{URL}{own}/").status_code == 204
    assert token_client.get(URL).status_code == 401


@pytest.mark.django_db
def test_nobody_touches_another_players_tokens(token_client):
    other, other_token = player_create_guest_with_token()
    theirs = ApiToken.objects.get(player=other).pk
    assert token_client.delete(f"{URL}{theirs}/").status_code == 404
    assert token_client.post(f"{URL}{theirs}/rotate/").status_code == 404
    assert works(other_token)
    assert token_client.delete(f"{URL}{10**30}/").status_code == 404
    assert APIClient().get(URL).status_code == 401
    assert APIClient().post(URL, {}, format="json").status_code == 401


@pytest.mark.django_db
def test_a_player_holds_a_bounded_number_of_tokens(token_client, settings):
    settings.API_TOKENS_PER_PLAYER = 3
    codes = [token_client.post(URL, {}, format="json").status_code for _ in range(3)]
    assert codes == [201, 201, 409]
    assert token_client.post(URL, {}, format="json").json()["code"] == "too_many_tokens"
    ApiToken.objects.exclude(pk=ApiToken.objects.order_by("pk").first().pk).update(
        expires_at=timezone.now() - timedelta(days=1)
    )
    assert token_client.post(URL, {}, format="json").status_code == 201  # expired ones make room
    assert len(token_client.get(URL).json()) == 2


@pytest.mark.django_db
def test_a_browser_guest_gets_a_token_for_its_own_player():
    browser = Client(enforce_csrf_checks=True)
    browser.get("/")
    issued = browser.post(URL, {"label": "script"}, content_type="application/json",
                          HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value)  # fmt: skip
    assert issued.status_code == 201
    assert bearer(issued.json()["token"]).get("/api/players/me/").json() == browser.get("/api/players/me/").json()


@pytest.mark.django_db
def test_the_token_endpoints_have_request_and_response_schemas():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    listing = schema["paths"][URL]
    assert "TokenRequest" in listing["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert listing["post"]["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith("/TokenIssued")
    assert listing["get"]["responses"]["200"]["content"]["application/json"]["schema"]["items"]["$ref"].endswith(
        "/Token"
    )
    assert "204" in schema["paths"][URL + "{token_id}/"]["delete"]["responses"]
    rotate = schema["paths"][URL + "{token_id}/rotate/"]["post"]
    assert rotate["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith("/TokenIssued")
    issued = schema["components"]["schemas"]["TokenIssued"]
    assert {"token", "expires_at", "id"} <= set(issued["properties"])


@pytest.mark.django_db
def test_the_token_endpoints_answer_what_the_schema_declares(token_client, settings):
    from tests.server.test_schema import Contract

    contract = Contract(APIClient().get("/api/schema/", {"format": "json"}).json())
    one = URL + "{token_id}/"
    rotate = one + "rotate/"
    contract.check(token_client.get(URL), URL, "get")
    contract.check(APIClient().get(URL), URL, "get")  # 401
    issued = contract.check(token_client.post(URL, {"label": "laptop"}, format="json"), URL, "post")
    contract.check(token_client.post(URL, {"label": "x" * 41}, format="json"), URL, "post")  # 400
    settings.API_TOKENS_PER_PLAYER = 2
    contract.check(token_client.post(URL, {}, format="json"), URL, "post")  # 409
    rotated = contract.check(token_client.post(f"{URL}{issued['id']}/rotate/"), rotate, "post")
    contract.check(token_client.post(f"{URL}{issued['id']}/rotate/"), rotate, "post")  # 404: rotated away
    contract.check(token_client.delete(f"{URL}{rotated['id']}/"), one, "delete")  # 204
    contract.check(token_client.delete(f"{URL}{rotated['id']}/"), one, "delete")  # 404
    contract.check(APIClient().delete(f"{URL}1/"), one, "delete")  # 401

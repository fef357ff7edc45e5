"""A guest is shown as a guest wherever a name appears (docs/wire.md, docs/security.md "names").

Accounts' names are unique by their look, guests' are not: the marker is what tells the guest
"Dana" from an account.  Every JSON object the server sends that shows a person (`is_ai`
false, with a name) is found by walking the whole payload, and must say `is_guest` truly.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from server.chat.services import chat_post
from server.config.asgi import application
from server.pairing.models import Seek
from server.players import accounts
from server.players.models import ApiToken, Player
from server.players.services import player_create_guest_with_token
from server.ratings.models import PlayerRating
from tests.server.conftest import human_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]
GUEST, ACCOUNT = "Dana", "Erin"


def people(payload: Any) -> list[dict]:
    """Every object in `payload` that shows a person by name."""
    if isinstance(payload, dict):
        found = [payload] if payload.get("is_ai") is False and "name" in payload else []
        return found + [p for value in payload.values() for p in people(value)]
    if isinstance(payload, list):
        return [p for value in payload for p in people(value)]
    return []


def assert_marked(payload: Any, expected: set[str]) -> None:
    shown = people(payload)
    assert {p["name"] for p in shown} >= expected, shown
    for person in shown:
        assert person.get("kind", "human") == "human" and person["is_guest"] is (person["name"] == GUEST), person


@pytest.fixture
def scene(db):
    """Guest Dana and account Erin in a match, both chatting, Dana seeking, both rated (only Erin listed)."""
    dana, dana_token = player_create_guest_with_token(GUEST)
    accounts.account_create(ACCOUNT, "erin@example.org", "a-long-enough-secret-9")
    erin = Player.objects.get(name=ACCOUNT)
    match = human_match("connect4", dana, erin)
    chat_post(match.pk, dana.pk, "good luck")
    chat_post(match.pk, erin.pk, "you too")
    now = timezone.now()
    Player.objects.filter(pk=dana.pk).update(online_until=now + timedelta(minutes=5))
    Seek.objects.create(player=dana, channel="lobby-socket", game="connect4", rated=True, rating=1500)
    for player in (dana, erin):
        PlayerRating.objects.create(player=player, game="connect4", rating=1600, deviation=60, games=30, updated_at=now)
    return match, dana_token, ApiToken.issue(erin)


def test_every_http_answer_that_shows_a_person_says_whether_a_guest(scene):
    match, dana_token, _ = scene
    api = APIClient()
    assert_marked(api.get(f"/api/matches/{match.pk}/").json(), {GUEST, ACCOUNT})
    leaders = api.get("/api/leaderboards/connect4/").json()
    assert_marked(leaders, {ACCOUNT})
    assert GUEST not in {p["name"] for p in people(leaders)}  # leaderboards list accounts only
    assert_marked(api.get(f"/api/players/{GUEST}/ratings/").json(), {GUEST})
    assert_marked(api.get(f"/api/players/{ACCOUNT}/").json(), {ACCOUNT})
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {dana_token}")
    assert_marked(api.get("/api/players/me/").json(), {GUEST})


async def test_every_socket_frame_that_shows_a_person_says_whether_a_guest(scene):
    match, _, erin_token = scene
    room = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/?token={erin_token}")
    await room.connect()
    state = await room.receive_json_from()
    assert_marked(state, {GUEST, ACCOUNT})  # seats and the chat's authors
    await room.send_json_to({"type": "chat", "text": "gg"})
    said = await room.receive_json_from(timeout=5)
    while said["type"] != "chat":
        said = await room.receive_json_from(timeout=5)
    assert_marked(said, {ACCOUNT})
    lobby = WebsocketCommunicator(application, "/ws/lobby/")
    await lobby.connect()
    frames = [await lobby.receive_json_from(timeout=5) for _ in range(2)]
    seeks = next(f for f in frames if f["type"] == "seeks")
    assert_marked(seeks, {GUEST})
    await room.disconnect()
    await lobby.disconnect()


def test_the_leaderboard_and_profile_pages_mark_the_guest_and_not_the_account(scene):
    match, _, _ = scene
    rows = Client().get("/leaderboards/").content.decode().split("<tr")
    assert not [row for row in rows if f">{GUEST}</a>" in row]  # leaderboards list accounts only
    (erin,) = [row for row in rows if f">{ACCOUNT}</a>" in row]
    assert 'class="guest-badge"' not in erin
    assert 'class="guest-badge"' in Client().get(f"/players/{GUEST}/").content.decode()
    erin_page = Client().get(f"/players/{ACCOUNT}/").content.decode()  # its history shows Dana, a guest
    assert erin_page.count('class="guest-badge"') == 1 and f'>{GUEST}</a> <span class="guest-badge"' in erin_page

"""A credential that ends closes the sockets it opened (server/players/revocation.py).

Driven with WebsocketCommunicator on both channel layers (in memory, and Redis as deployed);
tests/server/test_revocation_live.py does the same through daphne, the way a client meets it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from server.config.asgi import application
from server.matches import presence
from server.matches.models import Match
from server.players import accounts, services
from server.players.models import ApiToken, Player
from server.players.ws_auth import CLOSE_SIGNED_OUT
from tests.server.conftest import human_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]
HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
PASSWORD = "a-long-enough-secret-9"


async def open_socket(path: str, token: str | None = None, cookie: str | None = None) -> WebsocketCommunicator:
    url = f"{path}?token={token}" if token else path
    headers = HEADERS + ([(b"cookie", cookie.encode())] if cookie else [])
    comm = WebsocketCommunicator(application, url, headers=headers)
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_json_from(timeout=3)  # the opening frame: state, or lobby
    return comm


async def closed_with(comm: WebsocketCommunicator) -> tuple[int, str]:
    """The close this socket gets next, skipping the frames before it; then the client goes.

    The client's side of the close lets the consumer end, and its seat's offline write is
    awaited here, in this test's event loop (left pending, it would break the next test's).
    """
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            await comm.disconnect()
            await presence.settled()
            return output.get("code"), output.get("reason", "")


def browser_login(name: str) -> tuple[Client, str, Player]:
    """An account logged in in a browser: its client, its socket's cookie header, its player."""
    user = accounts.account_create(name, f"{name.lower()}@example.org", PASSWORD)
    client = Client()
    assert client.post("/login/", {"username": name, "password": PASSWORD}).status_code == 302
    return client, f"sessionid={client.cookies['sessionid'].value}", Player.objects.get(user=user)


@database_sync_to_async
def guest_match() -> tuple[Match, Player, str, str]:
    """A waiting match of a guest holding two tokens: (match, player, token, other token)."""
    player, token = services.player_create_guest_with_token("Alice")
    _, other = services.token_issue(player, "laptop")
    return human_match("connect4", player), player, token, other


async def test_revoking_a_token_closes_its_match_and_lobby_sockets_and_no_other():
    match, player, token, other = await guest_match()
    on_match = await open_socket(f"/ws/matches/{match.pk}/", token)
    in_lobby = await open_socket("/ws/lobby/", token)
    kept = await open_socket(f"/ws/matches/{match.pk}/", other)
    token_id = await database_sync_to_async(lambda: ApiToken.objects.filter(player=player).earliest("pk").pk)()

    assert await database_sync_to_async(services.token_revoke)(player, token_id)

    for comm in (on_match, in_lobby):
        code, reason = await closed_with(comm)
        assert code == CLOSE_SIGNED_OUT == 4401 and "signed out" in reason
    assert await kept.receive_nothing(timeout=0.3)  # its token still holds
    await kept.disconnect()


async def test_rotating_a_token_closes_the_old_ones_sockets():
    match, player, token, _ = await guest_match()
    on_match = await open_socket(f"/ws/matches/{match.pk}/", token)
    token_id = await database_sync_to_async(lambda: ApiToken.objects.filter(player=player).earliest("pk").pk)()

    await database_sync_to_async(services.token_rotate)(player, token_id)

    assert (await closed_with(on_match))[0] == CLOSE_SIGNED_OUT


async def test_a_token_closes_its_sockets_when_it_expires():
    match, player, token, _ = await guest_match()
    await database_sync_to_async(
        lambda: ApiToken.objects.filter(player=player).update(expires_at=timezone.now() + timedelta(seconds=1))
    )()
    on_match = await open_socket(f"/ws/matches/{match.pk}/", token)
    assert (await closed_with(on_match))[0] == CLOSE_SIGNED_OUT


async def test_logging_out_closes_the_sessions_sockets():
    client, cookie, player = await sync_to_async(browser_login)("Zoe")
    match = await database_sync_to_async(human_match)("connect4", player)
    on_match = await open_socket(f"/ws/matches/{match.pk}/", cookie=cookie)
    in_lobby = await open_socket("/ws/lobby/", cookie=cookie)

    assert (await sync_to_async(client.post)("/logout/")).status_code == 302

    for comm in (on_match, in_lobby):
        assert (await closed_with(comm))[0] == CLOSE_SIGNED_OUT


async def test_a_password_change_closes_the_accounts_other_sessions_sockets():
    client, cookie, player = await sync_to_async(browser_login)("Zoe")
    elsewhere = Client()  # the same account, logged in on another computer
    login = {"username": "Zoe", "password": PASSWORD}
    assert (await sync_to_async(elsewhere.post)("/login/", login)).status_code == 302
    other_cookie = f"sessionid={elsewhere.cookies['sessionid'].value}"
    other_socket = await open_socket("/ws/lobby/", cookie=other_cookie)

    new = "another-long-secret-7"
    form = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    assert (await sync_to_async(client.post)("/account/password/", form)).status_code == 302

    assert (await closed_with(other_socket))[0] == CLOSE_SIGNED_OUT


async def test_deactivating_an_account_closes_its_sockets_and_refuses_its_token_everywhere():
    _, cookie, player = await sync_to_async(browser_login)("Zoe")
    token = await database_sync_to_async(lambda: services.token_issue(player, "bot")[1])()
    by_session = await open_socket("/ws/lobby/", cookie=cookie)
    by_token = await open_socket("/ws/lobby/", token)

    def deactivate() -> None:
        user = get_user_model().objects.get(pk=player.user_id)
        user.is_active = False
        user.save()

    await database_sync_to_async(deactivate)()

    for comm in (by_session, by_token):
        assert (await closed_with(comm))[0] == CLOSE_SIGNED_OUT
    again = WebsocketCommunicator(application, f"/ws/lobby/?token={token}", headers=HEADERS)
    await again.connect()
    assert (await closed_with(again))[0] == CLOSE_SIGNED_OUT
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    answer = await sync_to_async(api.get)("/api/players/me/tokens/")
    assert answer.status_code == 401


async def test_a_socket_reads_no_frame_once_its_credential_ended():
    match, player, token, _ = await guest_match()
    on_match = await open_socket(f"/ws/matches/{match.pk}/", token)
    await database_sync_to_async(ApiToken.objects.filter(player=player).delete)()
    await on_match.send_json_to({"type": "sync"})  # sent as the revocation lands: not answered
    output = await on_match.receive_output(timeout=5)
    assert output["type"] == "websocket.close" and output["code"] == CLOSE_SIGNED_OUT, output
    assert await on_match.receive_nothing(timeout=0.5)  # no state frame after the close either
    await on_match.disconnect()
    await presence.settled()

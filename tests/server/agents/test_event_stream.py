"""The event stream /ws/agents/ and a bot's match socket, driven with WebsocketCommunicator on both layers."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.agents import services
from server.agents.consumers import CLOSE_NOT_A_BOT
from server.config.asgi import application
from server.matches import presence
from server.players import conduct
from server.players.models import ApiToken
from server.players.services import player_create_guest, player_create_guest_with_token
from server.players.ws_auth import CLOSE_SIGNED_OUT
from tests.server.conftest import with_account

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]
HEADERS = [(b"host", b"127.0.0.1")]  # a program, not a browser: no Origin


async def open_socket(path: str, token: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"{path}?token={token}", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def next_of(comm: WebsocketCommunicator, wanted: str, timeout: float = 3) -> dict:
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        if frame["type"] == wanted:
            return frame


async def closed_with(comm: WebsocketCommunicator) -> int:
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            await comm.disconnect()
            await presence.settled()
            return output.get("code")


@database_sync_to_async
def a_bot_with_token() -> tuple[object, str]:
    owner = with_account(player_create_guest("Margot"))
    bot = services.bot_account_create(owner, "Quokka")
    return bot, ApiToken.issue(bot)


@database_sync_to_async
def challenge(bot: object, game: str = "connect4", seat: int = 0) -> tuple[int, str]:
    person, token = player_create_guest_with_token("Carol")
    return services.challenge_create(person, bot, services.ChallengeRequest(game, seat)).pk, token  # type: ignore[arg-type]


async def test_only_a_bot_accounts_token_opens_the_event_stream():
    _, token = await database_sync_to_async(player_create_guest_with_token)("Carol")
    comm = await open_socket("/ws/agents/", token)
    assert await closed_with(comm) == CLOSE_NOT_A_BOT


async def test_a_bot_hears_a_challenge_accepts_it_and_plays_on_the_match_socket():
    bot, token = await a_bot_with_token()
    events = await open_socket("/ws/agents/", token)
    hello = await next_of(events, "hello")
    assert hello["bot"]["name"] == "Quokka" and hello["bot"]["is_ai"] is True and hello["limits"]["games_per_bot"]
    challenge_id, person_token = await challenge(bot, seat=1)
    heard = await next_of(events, "challenge")
    assert heard["challenge"]["id"] == challenge_id and heard["challenge"]["challenger"]["name"] == "Carol"
    await events.send_json_to({"type": "accept", "challenge": challenge_id})
    start = await next_of(events, "game_start")
    assert start["game"] == "connect4" and start["seat"] == 0
    game = await open_socket(f"/ws/matches/{start['match']}/", token)
    state = await next_of(game, "state")
    assert state["you"] == {"seat": 0} and state["match"]["seats"][0]["player"]["kind"] == "agent"
    await game.send_json_to({"type": "move", "move": "9", "ply": 0})  # the browser's legality checks
    assert (await next_of(game, "error"))["code"] == "illegal_move"
    await game.send_json_to({"type": "move", "move": "4", "ply": 0})
    moved = await next_of(game, "move")
    assert moved["seat"] == 0 and moved["by"]["is_ai"] is True and moved["by"].get("owner", "Margot") == "Margot"
    await game.send_json_to({"type": "resign"})
    assert (await next_of(game, "game_over"))["result"]["winner"] == 1
    await game.disconnect()
    await events.disconnect()
    await presence.settled()


async def test_answers_are_checked_with_stable_codes():
    bot, token = await a_bot_with_token()
    events = await open_socket("/ws/agents/", token)
    await next_of(events, "hello")
    for frame, code in (
        ({"type": "accept"}, "bad_message"),
        ({"type": "accept", "challenge": 10**30}, "bad_message"),
        ({"type": "accept", "challenge": 99}, "not_found"),
        ({"type": "decline", "challenge": 99, "reason": "because"}, "bad_message"),
        ({"type": "launch"}, "bad_message"),
    ):
        await events.send_json_to(frame)
        assert (await next_of(events, "error"))["code"] == code, frame
    await events.send_to(text_data="{not json")
    assert (await next_of(events, "error"))["code"] == "bad_message"
    await events.disconnect()


async def test_a_reconnect_hears_waiting_challenges_and_live_games_again():
    bot, token = await a_bot_with_token()
    waiting, _ = await challenge(bot)
    accepted, _ = await challenge(bot, game="tictactoe")
    match = await database_sync_to_async(services.challenge_accept)(bot, accepted)
    events = await open_socket("/ws/agents/", token)
    await next_of(events, "hello")
    assert (await next_of(events, "challenge"))["challenge"]["id"] == waiting
    assert (await next_of(events, "game_start"))["match"] == match.pk
    await events.disconnect()


async def test_revoking_the_bots_token_closes_its_sockets():
    bot, token = await a_bot_with_token()
    events = await open_socket("/ws/agents/", token)
    await next_of(events, "hello")
    await database_sync_to_async(ApiToken.objects.filter(player=bot).delete)()
    assert await closed_with(events) == CLOSE_SIGNED_OUT


async def test_a_flooding_bot_is_blocked_and_its_sockets_closed(settings):
    settings.BOT_STRIKES = 5
    bot, token = await a_bot_with_token()
    challenge_id, _ = await challenge(bot)
    match = await database_sync_to_async(services.challenge_accept)(bot, challenge_id)
    game = await open_socket(f"/ws/matches/{match.pk}/", token)
    await next_of(game, "state")
    for _ in range(5):
        await game.send_to(text_data="garbage")
    assert await closed_with(game) == conduct.CLOSE_BLOCKED
    again = await open_socket("/ws/agents/", token)
    assert await closed_with(again) == conduct.CLOSE_BLOCKED
    await database_sync_to_async(conduct.unblock)(bot.pk)  # type: ignore[attr-defined]

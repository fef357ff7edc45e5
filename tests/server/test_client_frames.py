"""Every socket reads its client's frames one way (`server.realtime.client_frames`): each frame counts
against the rate limit, one that is not JSON text is a `bad_message` saying what a frame is, one over
the limit is `rate_limited`, and the socket stays open and answers the next good frame."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.agents.services import bot_account_create
from server.config.asgi import application
from server.players.models import ApiToken
from server.players.services import player_create_guest, player_create_guest_with_token
from server.realtime.client_frames import RATE_LIMITED, RateLimiter, ReadsClientFrames
from tests.server.conftest import human_match, with_account
from tests.server.tournaments.support import tournament

HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
AMBIENT = {"presence", "online", "heartbeat", "seeks", "challenge", "game_start"}  # heard whatever is sent
NOT_JSON = 'frames are JSON objects such as {"type": "sync"}: '
NOT_TEXT = 'frames are text: JSON objects such as {"type": "sync"}'


# --- the reading itself, without a socket -------------------------------------------------------


class Reader(ReadsClientFrames):
    """A consumer's reading alone: moves draw on a budget of their own, as on the match socket."""

    def __init__(self) -> None:
        self.limiter, self.move_limiter = RateLimiter(2, 60), RateLimiter(1, 60)
        self.sent: list[dict[str, Any]] = []
        self.read: list[Any] = []

    def limiter_for(self, content: Any) -> RateLimiter:
        return self.move_limiter if isinstance(content, dict) and content.get("type") == "move" else self.limiter

    async def send_json(self, frame: dict[str, Any]) -> None:
        self.sent.append(frame)

    async def receive_json(self, content: Any) -> None:
        self.read.append(content)


async def test_a_frame_is_read_counted_and_refused_with_a_clear_error():
    reader = Reader()
    await reader.receive(text_data='{"type": "move"}')
    await reader.receive(text_data='{"type": "move"}')  # the moves' budget is spent
    await reader.receive(text_data="{not json")
    await reader.receive(bytes_data=b"\x00")  # the other budget is spent by these two
    await reader.receive(text_data='{"type": "sync"}')
    assert reader.read == [{"type": "move"}]
    assert reader.sent[0] == RATE_LIMITED and reader.sent[3] == RATE_LIMITED
    bad_json, not_text = reader.sent[1], reader.sent[2]
    assert bad_json["code"] == not_text["code"] == "bad_message"
    assert bad_json["message"].startswith(NOT_JSON) and not_text["message"] == NOT_TEXT
    reader.signed_out = True  # type: ignore[attr-defined]  # a credential ended: nothing more is read
    reader.limiter = RateLimiter(5, 60)
    await reader.receive(text_data='{"type": "sync"}')
    assert reader.read == [{"type": "move"}] and len(reader.sent) == 4


# --- on each socket ------------------------------------------------------------------------------


@database_sync_to_async
def socket_path(kind: str) -> str:
    if kind == "match":
        alice, token = player_create_guest_with_token("Alice")
        match = human_match("connect4", alice, player_create_guest("Bob"))
        return f"/ws/matches/{match.pk}/?token={token}"
    if kind == "lobby":
        return "/ws/lobby/"
    if kind == "tournament":
        return f"/ws/tournaments/{tournament('swiss').pk}/"
    bot = bot_account_create(with_account(player_create_guest("Margot")), "Quokka")
    return f"/ws/agents/?token={ApiToken.issue(bot)}"


async def answer(comm: WebsocketCommunicator) -> dict[str, Any]:
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] not in AMBIENT:
            return frame


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
@pytest.mark.parametrize(
    ("kind", "opening"),
    [("match", "state"), ("lobby", "lobby"), ("tournament", "tournament"), ("agents", "hello")],
)
async def test_every_socket_refuses_what_is_not_json_and_what_is_over_the_limit_alike(settings, kind, opening):
    settings.SOCKET_RATE_LIMIT = (4, 60.0)
    comm = WebsocketCommunicator(application, await socket_path(kind), headers=HEADERS)
    assert (await comm.connect())[0]
    assert (await answer(comm))["type"] == opening
    await comm.send_to(text_data="{not json")
    refused = await answer(comm)
    assert refused["type"] == "error" and refused["code"] == "bad_message" and refused["message"].startswith(NOT_JSON)
    await comm.send_to(bytes_data=b"{}")
    assert (await answer(comm)) == {"type": "error", "code": "bad_message", "message": NOT_TEXT}
    await comm.send_to(text_data="[" * 100_000)  # too deep: refused before the parser recurses
    assert (await answer(comm))["code"] == "bad_message"
    await comm.send_json_to({"type": "sync"})  # the fourth frame of the window: still answered
    assert (await answer(comm))["type"] != "error"
    await comm.send_json_to({"type": "sync"})  # the fifth: over the limit, good or not
    assert (await answer(comm)) == RATE_LIMITED
    await comm.disconnect()

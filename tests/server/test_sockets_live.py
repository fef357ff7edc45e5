"""Sockets as a client meets them, on the real stack (daphne, the Redis channel layer, a worker):
a credential that ends closes its sockets, the socket caps, and unknown socket paths."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import urllib.parse
import urllib.request

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.support import LiveStack

pytestmark = pytest.mark.fullstack
PER_VISITOR, PER_ADDRESS = 3, 6
PASSWORD = "a-long-enough-secret-9"


@pytest.fixture(scope="module")
def stack():
    caps = {"SOCKETS_PER_VISITOR": str(PER_VISITOR), "SOCKETS_PER_ADDRESS": str(PER_ADDRESS)}
    with LiveStack(extra_env=caps) as live:
        yield live


async def close_of(ws) -> tuple[int, str]:
    """The code and reason this socket is closed with, skipping the frames before it."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code, closed.rcvd.reason


def test_the_sockets_of_a_visitor_and_of_an_address_are_capped(stack):
    """First in the module: every socket here is from 127.0.0.1."""
    _, token = stack.guest()

    async def scenario() -> None:
        lobby = f"{stack.ws_url}/ws/lobby/"
        mine = [await websockets.connect(f"{lobby}?token={token}") for _ in range(PER_VISITOR)]
        for ws in mine:
            assert json.loads(await ws.recv())["type"] == "lobby"
        async with websockets.connect(f"{lobby}?token={token}") as one_more:
            code, reason = await close_of(one_more)
            assert code == 4429 and f"you have {PER_VISITOR} live connections open" in reason

        others = [await websockets.connect(lobby) for _ in range(PER_ADDRESS - PER_VISITOR)]  # no player
        for ws in others:
            assert json.loads(await ws.recv())["type"] == "lobby"
        async with websockets.connect(lobby) as one_more:
            code, reason = await close_of(one_more)
            assert code == 4429 and "from your address" in reason
        for ws in mine + others:
            await ws.close()

    asyncio.run(scenario())


def test_revoking_a_token_closes_its_match_socket_and_it_moves_no_more(stack):
    _, token = stack.guest()
    other = stack.api("POST", "/api/players/me/tokens/", {"label": "laptop"}, token)
    own_id = next(t["id"] for t in stack.api("GET", "/api/players/me/tokens/", token=token) if t["current"])
    seats = [{"kind": "human"}, {"kind": "bot", "profile": "connect4-shallow"}]
    match = stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, token)

    async def scenario() -> None:
        url = f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}"
        async with websockets.connect(url) as ws:
            state = json.loads(await ws.recv())
            assert state["you"] == {"seat": 0}
            await asyncio.to_thread(stack.api, "DELETE", f"/api/players/me/tokens/{own_id}/", None, other["token"])
            code, reason = await close_of(ws)
            assert code == 4401 and "signed out" in reason
            with pytest.raises(ConnectionClosed):
                await ws.send(json.dumps({"type": "move", "move": state["match"]["legal_moves"][0], "ply": 0}))
        async with websockets.connect(url) as again:  # the revoked token opens nothing more
            assert (await close_of(again))[0] == 4401

    asyncio.run(scenario())
    assert stack.api("GET", f"/api/matches/{match['id']}/", token=other["token"])["ply"] == 0


class Browser:
    """A browser's cookies and the site's forms, over plain HTTP."""

    def __init__(self, stack: LiveStack) -> None:
        self.stack, self.jar = stack, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name)

    def post_form(self, page: str, fields: dict[str, str], action: str | None = None) -> None:
        """Open `page`, then post its form (to `action`, or back to the page) with `fields`."""
        text = self.opener.open(self.stack.url + page, timeout=10).read().decode()
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)
        body = {**fields, "csrfmiddlewaretoken": csrf.group(1)}
        request = urllib.request.Request(self.stack.url + (action or page), data=urllib.parse.urlencode(body).encode())
        request.add_header("Referer", self.stack.url + page)
        self.opener.open(request, timeout=10).read()

    def post_json(self, path: str, body: dict) -> dict:
        """An API request as the site's scripts send it: the session, and the CSRF cookie's value."""
        request = urllib.request.Request(self.stack.url + path, data=json.dumps(body).encode())
        request.add_header("Content-Type", "application/json")
        request.add_header("X-CSRFToken", self.cookie("csrftoken"))
        request.add_header("Referer", self.stack.url + "/")
        return json.loads(self.opener.open(request, timeout=10).read())

    def socket_headers(self) -> dict[str, str]:
        return {"Cookie": f"sessionid={self.cookie('sessionid')}", "Origin": self.stack.url}


def test_logging_out_closes_the_sessions_sockets_and_they_move_no_more(stack):
    browser = Browser(stack)
    fields = {"name": "Zoe", "email": "zoe@example.org", "password1": PASSWORD, "password2": PASSWORD}
    browser.post_form("/signup/", fields)
    seats = [{"kind": "human"}, {"kind": "bot", "profile": "connect4-shallow"}]
    match = browser.post_json("/api/matches/", {"game": "connect4", "seats": seats})

    async def scenario() -> None:
        headers = browser.socket_headers()
        async with (
            websockets.connect(f"{stack.ws_url}/ws/lobby/", additional_headers=headers) as lobby,
            websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/", additional_headers=headers) as room,
        ):
            assert json.loads(await lobby.recv())["type"] == "lobby"
            state = json.loads(await room.recv())
            assert state["you"] == {"seat": 0}
            await asyncio.to_thread(browser.post_form, "/", {}, "/logout/")  # the page's "Log out" button
            assert (await close_of(lobby))[0] == (await close_of(room))[0] == 4401
            with pytest.raises(ConnectionClosed):
                await room.send(json.dumps({"type": "move", "move": state["match"]["legal_moves"][0], "ply": 0}))

    asyncio.run(scenario())
    assert stack.api("GET", f"/api/matches/{match['id']}/")["ply"] == 0


def test_an_unknown_socket_path_is_closed_with_4404_not_answered_500(stack):
    async def scenario() -> None:
        async with websockets.connect(f"{stack.ws_url}/ws/nothing/") as ws:
            code, reason = await close_of(ws)
            assert code == 4404 and "/ws/matches/" in reason

    asyncio.run(scenario())
    assert "No route found" not in stack.server_log()

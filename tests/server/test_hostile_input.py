"""Hostile input (docs/security.md): nothing a client sends crashes a socket, 500s the API or stalls a stream.

Each test is one finding: a frame or body that crashed something, a parameter that raised,
a socket that should have been refused.  The property-based fuzzing is tests/server/test_fuzz.py.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from server.config.asgi import application
from server.http.parsers import MAX_BODY_BYTES, MAX_DEPTH, MAX_FRAME_BYTES, BadJSON, loads_bounded
from server.matches import presence, services
from server.matches.models import Match, Seat
from server.players.models import ApiToken, Player
from server.research.permissions import RESEARCHER_GROUP

HOST = (b"host", b"127.0.0.1")
ORIGIN = (b"origin", b"http://127.0.0.1")
NESTED = "[" * 100_000


async def connect(path: str, token: str | None = None, headers=None) -> WebsocketCommunicator:
    sep = "&" if "?" in path else "?"
    url = f"{path}{sep}token={token}" if token else path
    comm = WebsocketCommunicator(application, url, headers=headers or [ORIGIN, HOST])
    connected, _ = await comm.connect()
    assert connected
    return comm


def seat_online(match_id: int, index: int) -> bool:
    return Seat.objects.get(match_id=match_id, index=index).online


# --- bounded parsing ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ids=["arrays", "objects", "keys", "one-too-deep"],
    argvalues=[
        "[" * 100_000,
        "{" * 100_000,
        '{"a":' * 5000 + "1" + "}" * 5000,
        "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    ],
)
def test_too_deep_json_is_refused_before_the_parser_recurses(text):
    with pytest.raises(BadJSON, match="nested"):
        loads_bounded(text, max_bytes=10**6)


def test_brackets_inside_strings_do_not_count_and_shallow_json_parses():
    deep_string = json.dumps({"type": "sync", "note": "[" * 1000 + '\\"[{'})
    assert loads_bounded(deep_string, max_bytes=10**6)["type"] == "sync"
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads_bounded(nested, max_bytes=10**6) is not None
    with pytest.raises(BadJSON, match="bytes"):
        loads_bounded(" " * 101, max_bytes=100)
    with pytest.raises(BadJSON):
        loads_bounded("NaN", max_bytes=100)  # not JSON, whatever Python's json module says


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_a_deeply_nested_frame_is_a_bad_message_and_the_seat_goes_offline_after(two_players):
    match, alice_token, _ = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await comm.receive_json_from()
    assert await database_sync_to_async(seat_online)(match.pk, 0)
    for frame in (NESTED, "{" * 100_000, json.dumps({"type": "sync", "pad": "x" * MAX_FRAME_BYTES})):
        await comm.send_to(text_data=frame)
        error = await comm.receive_json_from()
        assert error["type"] == "error" and error["code"] == "bad_message", error
    await comm.send_json_to({"type": "sync"})  # the consumer is healthy
    assert (await comm.receive_json_from())["type"] == "state"
    await comm.disconnect()
    await presence.settled()
    assert not await database_sync_to_async(seat_online)(match.pk, 0)
    assert (await database_sync_to_async(Match.objects.get)(pk=match.pk)).ply == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_the_lobby_answers_a_deeply_nested_frame_with_bad_message(db):
    lobby = await connect("/ws/lobby/")
    assert (await lobby.receive_json_from())["type"] == "lobby"
    await lobby.receive_json_from()  # its own arrival in the online count
    for frame in (NESTED, "x" * (MAX_FRAME_BYTES + 1)):
        await lobby.send_to(text_data=frame)
        error = await lobby.receive_json_from()
        assert error["type"] == "error" and error["code"] == "bad_message", error
    await lobby.send_json_to({"type": "sync"})
    assert (await lobby.receive_json_from())["type"] == "lobby"
    await lobby.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/players/guest/", "/api/matches/"], ids=["guest", "matches"])
@pytest.mark.parametrize(
    "body",
    ["[" * 100_000, '{"name":' * 10_000, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)],
    ids=["arrays", "objects", "one-too-deep"],
)
def test_a_deeply_nested_json_body_is_a_400_that_says_why(token_client, path, body):
    client = token_client if path == "/api/matches/" else APIClient()  # a guest is made anonymously
    response = client.post(path, body, content_type="application/json")
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]


@pytest.mark.django_db
def test_an_oversized_json_body_is_refused():
    body = json.dumps({"name": "x" * MAX_BODY_BYTES})
    response = APIClient().post("/api/players/guest/", body, content_type="application/json")
    assert response.status_code == 413 and "bytes" in response.json()["detail"]


@pytest.mark.django_db
def test_bad_json_bodies_are_400s():
    for body in (b"\xff\xfe", b"NaN", b'{"name": Infinity}', b"{"):
        response = APIClient().post("/api/players/guest/", body, content_type="application/json")
        assert response.status_code == 400, body


# --- ?v= on a match socket -------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
@pytest.mark.parametrize("v", ["%C2%B2", "%D9%A3", "99", "1" * 40, "-1", "", "1e3"])
async def test_any_v_not_a_version_we_hold_gets_the_state(two_players, v):
    match, alice_token, _ = two_players
    await database_sync_to_async(services.submit_move)(match.pk, 0, "4", 0)
    comm = await connect(f"/ws/matches/{match.pk}/?v={v}", alice_token)
    frame = await comm.receive_json_from()
    assert frame["type"] == "state" and frame["match"]["ply"] == 1
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_a_match_id_beyond_any_row_is_not_found(db):
    comm = WebsocketCommunicator(application, f"/ws/matches/{10**25}/", headers=[ORIGIN, HOST])
    connected, _ = await comm.connect()
    assert connected and await comm.receive_output() == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()


# --- ids beyond a BigAutoField ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "suffix"),
    [
        ("get", ""),
        ("get", "analysis/"),
        ("post", "analysis/"),
        ("get", "positions/"),
        ("post", "join/"),
        ("post", "resign/"),
        ("post", "resume/"),
        ("post", "hint/"),
    ],
)
@pytest.mark.parametrize("match_id", [10**25, 2**63, 9_999_999_999_999_999_999])
def test_ids_that_no_row_can_have_are_404(token_client, method, suffix, match_id):
    response = getattr(token_client, method)(f"/api/matches/{match_id}/{suffix}", {}, format="json")
    assert response.status_code == 404


@pytest.mark.django_db
def test_the_largest_id_is_still_an_id():
    assert APIClient().get(f"/api/matches/{2**63 - 1}/").status_code == 404
    schema = APIClient().get("/api/schema/?format=json").json()
    (param,) = [p for p in schema["paths"]["/api/matches/{match_id}/"]["get"]["parameters"] if p["in"] == "path"]
    assert param["schema"]["type"] == "integer" and param["schema"]["maximum"] == 2**63 - 1


# --- export dates -------------------------------------------------------------------------


@pytest.fixture
def researcher(db) -> APIClient:
    user = User.objects.create_user("rita", password="pw")
    user.groups.add(Group.objects.get_or_create(name=RESEARCHER_GROUP)[0])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(Player.objects.create(name='Rita', user=user))}")
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    [
        "since=0001-01-01T00:00:00%2B14:00",
        "until=9999-12-31T23:59:59-14:00",
        "since=0001-01-01T00:00:00%2B00:01",
        "until=9999-12-31T23:59:59.999999-00:01",
    ],
)
@pytest.mark.parametrize("export", ["games.jsonl", "moves.csv"])
def test_dates_beyond_the_calendar_in_utc_are_a_400_before_streaming(researcher, query, export):
    response = researcher.get(f"/api/exports/{export}?{query}")
    assert response.status_code == 400
    (field,) = response.json()
    assert field in ("since", "until")


@pytest.mark.django_db
def test_the_calendar_edges_themselves_still_export(researcher):
    response = researcher.get("/api/exports/games.jsonl?since=0001-01-01&until=9999-12-31T23:59:59Z")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b""


# --- who a socket is ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
@pytest.mark.parametrize("path", ["/ws/lobby/", "/ws/matches/{id}/"])
async def test_an_unknown_token_is_refused_with_a_fatal_close(two_players, path):
    match, _, _ = two_players
    comm = await connect(path.format(id=match.pk), "bogus")
    assert await comm.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}
    await comm.wait()


# --- rate limits ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_frames_that_are_not_json_count_against_the_rate_limit(two_players):
    match, alice_token, _ = two_players
    comm = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await comm.receive_json_from()
    for _ in range(25):
        await comm.send_to(text_data="{not json")
    codes = [(await comm.receive_json_from())["code"] for _ in range(25)]
    assert codes.count("rate_limited") >= 5
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_the_lobby_socket_is_rate_limited(db):
    lobby = await connect("/ws/lobby/")
    await lobby.receive_json_from()
    await lobby.receive_json_from()
    for i in range(25):
        if i % 2:
            await lobby.send_to(text_data="not json")
        else:
            await lobby.send_json_to({"type": "sync"})
    codes = [(await lobby.receive_json_from()).get("code") for _ in range(25)]
    assert codes.count("rate_limited") >= 5
    await lobby.disconnect()


# --- origins ----------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
@pytest.mark.parametrize(
    ("host", "origin", "allowed"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000", True),
        ("localhost:8000", "http://localhost:8000", True),
        ("127.0.0.1", "http://127.0.0.1:80", True),
        ("127.0.0.1:8000", "http://127.0.0.1:9999", False),  # another port on our host
        ("127.0.0.1:8000", "http://127.0.0.1", False),
        ("127.0.0.1:8000", "https://127.0.0.1:8000", False),  # another scheme
        ("127.0.0.1:8000", "http://localhost:8000", False),  # another allowed host is another site
        ("127.0.0.1:8000", "http://evil.example:8000", False),
        ("evil.example:8000", "http://evil.example:8000", False),  # not one of our hosts
        ("127.0.0.1:8000", "null", False),
        (None, "http://127.0.0.1:8000", False),
    ],
)
async def test_a_browser_socket_comes_from_the_page_s_own_origin(host, origin, allowed):
    headers = [(b"origin", origin.encode())] + ([(b"host", host.encode())] if host else [])
    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await comm.connect()
    assert connected is allowed
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "allowed"),
    [("https://127.0.0.1", True), ("http://127.0.0.1", False), ("https://127.0.0.1:8443", False)],
)
async def test_behind_a_tls_proxy_the_page_is_https(origin, allowed):
    headers = [(b"origin", origin.encode()), HOST, (b"x-forwarded-proto", b"https")]
    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await comm.connect()
    assert connected is allowed
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_trusted_origins_and_clients_without_an_origin_are_let_in(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org"]
    for headers in ([(b"origin", b"https://play.example.org"), HOST], [HOST], []):
        comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
        connected, _ = await comm.connect()
        assert connected, headers
        await comm.disconnect()


@pytest.mark.django_db
def test_an_id_too_large_is_the_api_s_json_404():
    for path in (f"/api/matches/{10**25}/", f"/api/matches/{10**25}/analysis/", "/api/no-such-thing/"):
        response = APIClient().get(path)
        assert response.status_code == 404 and response.json()["code"] == "not_found", path
    assert APIClient().get("/no-such-page/").status_code == 404  # pages keep Django's page


# --- NUL in a URL ------------------------------------------------------------------
# PostgreSQL cannot store NUL: a name or filter carrying one reached the database as a 500.
@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/api/players/a%00b/",
        "/api/players/a%00b/matches/",
        "/api/players/a%00b/ratings/",
        "/api/players/ann/matches/?opponent=a%00b",
        "/api/matches/?game=connect4&x%00=1",
    ],
)
def test_a_nul_in_an_api_path_or_query_is_a_400_that_says_why(url):
    response = APIClient().get(url)
    assert response.status_code == 400
    assert response.json() == {"detail": "a URL may not contain a NUL character (%00)", "code": "bad_request"}


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/players/a%00b/", "/leaderboards/?game=a%00b"])
def test_a_nul_in_a_page_url_is_a_plain_400(client, url):
    response = client.get(url)
    assert response.status_code == 400
    assert b"NUL" in response.content


@pytest.mark.django_db
def test_an_ordinary_name_still_reaches_the_profile(client):
    assert client.get("/api/players/nobody-here/").status_code == 404

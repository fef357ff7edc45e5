"""Property-based fuzzing: arbitrary frames at both sockets, arbitrary bodies at every endpoint.

Whatever a client sends, the answer is a clean error (an ``error`` frame with a known code,
or a 4xx) or the ordinary answer, the connection stays healthy, and a match the sender
cannot act on is unchanged.  Examples are bounded and derandomized, so a run takes seconds
and every run tries the same inputs; schemathesis (tests/server/test_schemathesis.py) does
the same from the OpenAPI schema.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import caches
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient
from rest_framework.views import APIView

from server.config.asgi import application
from server.http.parsers import MAX_BODY_BYTES, MAX_FRAME_BYTES
from server.matches import frames as match_frames
from server.matches.models import Match, Move
from server.players.models import ApiToken
from server.players.services import player_create_guest, player_create_guest_with_token
from tests.server.conftest import human_match

FUZZ = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
ERROR_CODES = {
    "bad_message",
    "illegal_move",
    "not_your_turn",
    "stale_ply",
    "not_seated",
    "game_over",
    "rate_limited",
    "not_found",
    "no_offer",
    "offer_not_allowed",
    "bad_request",
}
AMBIENT = {"presence", "online", "heartbeat"}  # frames a socket hears whatever it sends
# Every frame a client may send, from the module that defines the wire (docs/wire.md): a frame added
# there is fuzzed here without a word.  The seat not to move sends those that change nothing it may not.
FRAME_TYPES = list(match_frames.CLIENT_FRAMES)
NOT_TO_MOVE_TYPES = ["move", "sync", "accept", "decline", "claim_draw", "resign_offer"]
LOBBY_TYPES = list(match_frames.LOBBY_CLIENT_FRAMES)

# --- what a client can send ------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def shaped_frames(types: list[str]) -> st.SearchStrategy[str]:
    """Frames that look like the real ones: a known or made-up type, fields of any JSON value."""
    return st.fixed_dictionaries(
        {"type": st.sampled_from(types) | st.text(max_size=12)},
        optional={
            "move": json_values | st.sampled_from([*"01234567", "99", "4 ", "１"]),
            "ply": json_values | st.integers(-2, 3),
            "extra": json_values,
        },
    ).map(json.dumps)


hostile_text = st.one_of(
    json_values.map(json.dumps),
    st.text(max_size=200),
    st.integers(1, 200_000).map(lambda n: "[" * n),
    st.integers(1, 20_000).map(lambda n: '{"type":' * n),
    st.sampled_from(["NaN", "Infinity", '{"type": NaN}', "", " ", "\x00", "null", '"sync"', "1e999999"]),
    st.builds(lambda n, pad: pad * n, st.integers(MAX_FRAME_BYTES // 2 - 4, MAX_FRAME_BYTES + 4), st.just("é")),
)


def frames(types: list[str]) -> st.SearchStrategy[tuple[str, Any]]:
    text = st.one_of(shaped_frames(types), hostile_text)
    return st.lists(
        st.one_of(text.map(lambda t: ("text", t)), st.binary(max_size=64).map(lambda b: ("bytes", b))),
        min_size=1,
        max_size=6,
    )


# --- sockets ----------------------------------------------------------------------------------


@pytest.fixture
def fuzz_match(db, settings):
    """An active connect4 match between Alice (to move) and Bob, and a stranger; no rate limit in the way."""
    settings.SOCKET_RATE_LIMIT = settings.SOCKET_MOVE_RATE_LIMIT = (100_000, 1.0)
    (alice, _), (bob, bob_token) = player_create_guest_with_token("Alice"), player_create_guest_with_token("Bob")
    _, stranger_token = player_create_guest_with_token("Eve")
    match = human_match("connect4", alice, bob)
    return match, bob_token, stranger_token


def snapshot(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    moves = Move.objects.filter(match_id=match_id).count()
    return match.status, match.state, match.ply, match.to_move, match.result, match.offer, moves


async def reply(comm: WebsocketCommunicator) -> dict[str, Any]:
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame.get("type") not in AMBIENT:
            return frame


async def send(comm: WebsocketCommunicator, kind: str, data: Any) -> None:
    await comm.send_input({"type": "websocket.receive", kind: data})  # empty frames too


def assert_clean(frame: dict[str, Any], answers: set[str]) -> None:
    assert frame["type"] in {"error", *answers}, frame
    if frame["type"] == "error":
        assert frame["code"] in ERROR_CODES and isinstance(frame["message"], str) and frame["message"], frame


async def fuzz_match_socket(match_id: int, token: str, sent: list[tuple[str, Any]]) -> None:
    before = await database_sync_to_async(snapshot)(match_id)
    comm = WebsocketCommunicator(application, f"/ws/matches/{match_id}/?token={token}", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    assert (await reply(comm))["type"] == "state"
    for kind, data in sent:
        await send(comm, kind, data)
        assert_clean(await reply(comm), {"state"})
    await comm.send_json_to({"type": "sync"})  # still healthy
    assert (await reply(comm))["type"] == "state"
    assert await database_sync_to_async(snapshot)(match_id) == before
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@FUZZ
@given(sent=frames(FRAME_TYPES))
async def test_a_stranger_s_frames_get_clean_errors_and_leave_the_match_alone(fuzz_match, sent):
    match, _, stranger_token = fuzz_match
    await fuzz_match_socket(match.pk, stranger_token, sent)


@pytest.mark.django_db(transaction=True)
@FUZZ
@given(sent=frames(NOT_TO_MOVE_TYPES))
async def test_the_seat_not_to_move_gets_clean_errors_and_the_match_is_unchanged(fuzz_match, sent):
    match, bob_token, _ = fuzz_match
    await fuzz_match_socket(match.pk, bob_token, sent)


@pytest.mark.django_db(transaction=True)
@FUZZ
@given(sent=frames(LOBBY_TYPES))
async def test_the_lobby_answers_any_frame_with_the_lobby_or_a_clean_error(fuzz_match, sent):
    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    assert (await reply(comm))["type"] == "lobby"
    for kind, data in sent:
        await send(comm, kind, data)
        assert_clean(await reply(comm), {"lobby"})
    await comm.send_json_to({"type": "sync"})
    assert (await reply(comm))["type"] == "lobby"
    await comm.disconnect()


# --- every endpoint -----------------------------------------------------------------------------

CONTENT_TYPES = [
    "application/json",
    "application/json",
    "application/json; charset=latin-1",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "text/plain",
]

bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    shaped_frames(["human", "bot", "connect4"]).map(str.encode),
    st.fixed_dictionaries(
        {},
        optional={
            "game": json_values | st.sampled_from(["connect4", "tictactoe", "chess"]),
            "seats": json_values | st.lists(st.fixed_dictionaries({"kind": json_values}), max_size=3),
            "name": json_values,
            "seat": json_values,
        },
    ).map(lambda d: json.dumps(d).encode()),
    st.binary(max_size=300),
    st.integers(1, 100_000).map(lambda n: b"[" * n),
    st.sampled_from(
        [b"[" * 33 + b"]" * 33, b"[" * 100_000, b'{"name":' * 5000, b'{"game": "connect4", "seats": [[[[[[[[']
    ),
    st.just(b"x" * (MAX_BODY_BYTES + 1)),
)


def api_operations() -> list[tuple[str, str]]:
    """(method, path template) of every API view's handlers, from the URL patterns (no database at collection).

    The same operations /api/schema/ declares, with ``{name}`` for each path parameter.
    """
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns, prefix):
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern) and route.startswith("api/"):
                view = getattr(entry.callback, "view_class", None) or getattr(entry.callback, "cls", None)
                for method in ("get", "post", "put", "patch", "delete"):
                    if view is not None and hasattr(view, method):
                        yield method, "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)

    return sorted(set(walk(get_resolver().url_patterns, "")))


@pytest.fixture
def unthrottled(monkeypatch):
    """Every request reaches its view (a throttled one would answer 429 before reading the body),
    and no throttle count is left in the cache for the tests after."""
    monkeypatch.setattr(APIView, "check_throttles", lambda self, request: None)
    yield
    for cache in caches.all():
        cache.clear()


ids = st.sampled_from(["{match}", "0", "1", str(2**63 - 1), str(2**63), str(10**25), "00000000000000000001"])


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "template"), [*api_operations(), ("delete", "/api/games/")])
def test_every_endpoint_answers_arbitrary_bodies_without_a_server_error(unthrottled, method, template):
    alice, bob = player_create_guest("Alice"), player_create_guest("Bob")
    match = human_match("connect4", alice, bob)
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(player_create_guest('Eve'))}")
    callers = {"anonymous": APIClient(), "stranger": stranger}
    before = snapshot(match.pk)

    @FUZZ
    @given(
        caller=st.sampled_from(sorted(callers)),
        content_type=st.sampled_from(CONTENT_TYPES),
        body=bodies,
        query=st.dictionaries(st.sampled_from(["game", "status", "player", "since", "v", "x"]), st.text(max_size=12)),
        path_id=ids,
        slug=st.sampled_from(["connect4-shallow", "nobody", "x" * 300]),
    )
    # Inputs known to have crashed or stalled something are tried on every endpoint, whatever the generated examples.
    @example("stranger", "application/json", b"[" * 100_000, {}, "{match}", "nobody")
    @example("anonymous", "application/json", b'{"name":' * 5000, {}, "{match}", "nobody")
    @example("stranger", "application/json", b"{}", {"since": "0001-01-01T00:00:00+14:00"}, str(10**25), "nobody")
    def fuzz(caller, content_type, body, query, path_id, slug):
        path = re.sub(r"\{\w*slug\w*\}", slug, template)
        path = re.sub(r"\{\w+\}", path_id.format(match=match.pk), path)
        response = callers[caller].generic(method.upper(), path, body, content_type=content_type)
        assert response.status_code < 500, (path, content_type, body[:200], response.content[:300])
        if method == "get":
            response = callers[caller].get(path, query)
            assert response.status_code < 500, (path, query, response.content[:300])

    fuzz()
    assert snapshot(match.pk) == before

"""docs/wire.md is the wire as built: its json examples against the frame builders.

Each server → client example has exactly the keys, in the order sent, of one builder's
frame (with `v` last for frames the event log stores); every builder is documented and
every documented frame has a builder.  The client → server frames are the ones the
consumers take, and the error table lists every code the server can answer.
"""

from __future__ import annotations

import inspect
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

import server.agents.errors  # noqa: F401 - the Bot API's codes extend the match domain's
import server.analysis.api  # noqa: F401 - the caps on analyses and hints (fair share)
import server.analysis.errors  # noqa: F401 - its codes extend the match domain's
import server.bots.fair_share  # noqa: F401 - the fair share's refusals
import server.chat.errors  # noqa: F401 - and the chat's
import server.pairing.errors  # noqa: F401 - and quick pairing's
from server.lobby.consumers import FRAME_TYPES as LOBBY_FRAME_TYPES
from server.lobby.consumers import LobbyConsumer
from server.matches import frames, selectors, services
from server.matches.consumers import FRAME_TYPES, MatchConsumer
from server.matches.errors import MatchError
from server.realtime.client_frames import RATE_LIMITED

WIRE = Path(__file__).resolve().parents[3] / "docs" / "wire.md"
CLOCK = {"initial_ms": 300000, "increment_ms": 2000, "remaining_ms": [300000, 300000], "running": 1, "elapsed_ms": 0}
MOVED = dict(
    ply=7,
    seat=1,
    move="3",
    notation="3",
    by={"kind": "bot", "is_ai": True},
    state={},
    to_move=0,
    legal_moves=["1"],
    think_ms=4,
)

# Every builder called with every optional part it can add (twice where a frame has two forms).
CASES = [
    ("state", dict(match={"v": 5}, seat=0, chat={"room": "players", "messages": [], "refused": None})),
    ("state_changed", dict(match={"v": 9})),
    ("seat_taken", dict(seat_json={"index": 1, "player": None})),
    ("move", dict(MOVED, fallback=None, queue_wait_ms=12, bot=True, stats={"depth": 7, "nodes": 5120})),
    ("move", dict(MOVED, fallback=None, clock=CLOCK)),
    ("takeback", dict(seat=0, ply=6, state={}, to_move=0, legal_moves=["1"], clock=CLOCK)),
    ("offer", dict(offer={"kind": "draw", "seat": 0, "ply": 20, "awaiting": [1]})),
    (
        "offer",
        dict(
            offer={
                "kind": "resign",
                "seat": 1,
                "ply": 31,
                "awaiting": [0],
                "level": "gammon",
                "points": 4,
                "says": "resigned a gammon: 2 points x cube 2 = 4",
            }
        ),
    ),  # fmt: skip
    ("offer_answered", dict(kind="draw", seat=0, by=1, accepted=True, offer=None)),
    ("offer_answered", dict(kind="takeback", seat=0, by=1, accepted=False, offer=None, cancelled="a move was played")),
    ("game_over", dict(result={"returns": [], "winner": None, "reason": "nobody joined", "ranking": []}, status="x")),
    ("presence", dict(seat=1, online=False, abandon_after_ms=60000)),
    ("heartbeat", dict(v=30, interval_ms=12000)),
    ("bot_queued", dict(seat=1, ply=7)),
    ("bot_thinking", dict(seat=1, ply=7, budget_ms=500)),
    ("bot_thinking", dict(seat=1, ply=7, budget_ms=500, stats={"depth": 6, "nodes": 20480})),
    ("analysis", dict(status="running", progress=12, total=40)),
    ("hint", dict(seat=0, ply=8, move="4", value=0.5, depth=9, nodes=40960, profile="connect4-deep")),
    ("chat_message", dict(message={"id": 12})),
    ("chat_deleted", dict(message_id=12, room="players")),
    ("chat_history", dict(chat={"room": "spectators"})),
    ("chat_muted", dict(until="2026-11-27T12:00:00+00:00", message="you are muted in chat until ...")),
    ("chat_unmuted", {}),
    ("error", dict(code="stale_ply", message="ply 7 is not the current ply 8")),
    ("lobby", dict(open=[], active=[], online=3)),
    ("lobby_match", dict(summary={"id": 42})),
    ("online", dict(count=4)),
    ("seeks", dict(seeks=[{"id": 12}])),
    ("seek", dict(seek={"id": 12})),
    ("seek_gone", dict(seek_id=12)),
    ("paired", dict(match_id=43, seat=1)),
    ("rematch_offer", dict(seat=0, awaiting=[1])),
    ("rematch_answered", dict(seat=0, by=1, accepted=False)),
    ("rematch_answered", dict(seat=0, by=0, accepted=False, reason="left")),
    ("rematch", dict(match_id=43)),
]


def sections() -> dict[str, list[dict]]:
    """The json examples under each heading of docs/wire.md."""
    found = {}
    for part in re.split(r"^#{2,3} ", WIRE.read_text(), flags=re.MULTILINE)[1:]:
        title, _, body = part.partition("\n")
        found[title.strip()] = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", body, re.DOTALL)]
    return found


def documented(direction: str) -> dict[str, list[list[str]]]:
    """frame type -> the key lists of its examples, from the sections ending in `direction`."""
    by_type = defaultdict(list)
    for title, examples in sections().items():
        if title.endswith(direction):
            for example in examples:
                by_type[example["type"]].append(list(example))
    return by_type


def sent(name: str, kwargs: dict) -> tuple[str, list[str]]:
    """A builder's frame type and its keys as they reach a socket."""
    builder = getattr(frames, name)
    frame = builder(**kwargs)
    return frame["type"], list(frame) + (["v"] if builder in frames.VERSIONED else [])


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=[name for name, _ in CASES])
def test_each_builder_makes_a_documented_frame(name, kwargs):
    kind, keys = sent(name, kwargs)
    assert keys in documented("server → client")[kind], f"{name}: {keys} is no example of docs/wire.md"


def test_every_documented_frame_has_a_builder():
    made = defaultdict(list)
    for name, kwargs in CASES:
        kind, keys = sent(name, kwargs)
        made[kind].append(keys)
    for kind, examples in documented("server → client").items():
        for keys in examples:
            assert keys in made[kind], f"docs/wire.md shows a {kind} frame {keys} that no builder makes"


def test_every_builder_is_documented():
    builders = {name for name, fn in inspect.getmembers(frames, inspect.isfunction) if fn.__module__ == frames.__name__}
    assert builders == {name for name, _ in CASES}


def test_client_frames_are_the_ones_the_consumers_take():
    match_socket = documented("Match socket: client → server")
    assert set(match_socket) == set(FRAME_TYPES.split(", "))
    for kind, examples in match_socket.items():
        fields = {"move": ["type", "move", "ply"], "chat": ["type", "text"], "resign_offer": ["type", "level"]}
        assert examples == [fields.get(kind, ["type"])]
    lobby_socket = documented("Lobby socket: client → server")
    assert set(lobby_socket) == set(LOBBY_FRAME_TYPES.split(", "))
    assert lobby_socket["seek"] == [["type", "game", "clock", "rated", "range"]]
    assert lobby_socket["seek_accept"] == [["type", "id"]]


def test_each_client_frame_of_the_frames_module_has_its_handler():
    """The consumers take exactly the frames `server.matches.frames` lists (the fuzzing tests send those)."""
    for consumer, kinds in ((MatchConsumer, frames.CLIENT_FRAMES), (LobbyConsumer, frames.LOBBY_CLIENT_FRAMES)):
        assert set(consumer.HANDLERS) == set(kinds) and len(kinds) == len(set(kinds))
        for name in consumer.HANDLERS.values():
            assert callable(getattr(consumer, name)), name


def _codes(cls: type[MatchError]) -> set[str]:
    own = {cls.code} | set(getattr(cls, "codes", ()))  # WorkCapped: one code per declared cap
    return own | {code for sub in cls.__subclasses__() for code in _codes(sub)}


def test_every_error_code_is_in_the_table():
    table = set(re.findall(r"^\| `(\w+)` \|", WIRE.read_text().split("## Error codes")[1], flags=re.MULTILINE))
    assert table == _codes(MatchError) | {RATE_LIMITED["code"]}


@pytest.mark.django_db
def test_the_match_object_is_as_documented(alice):
    match = services.match_create("tictactoe", [services.SeatRequest("human")] * 2, alice)
    match = selectors.match_get(match.pk)
    example = sections()["The match object"][0]
    assert list(selectors.match_json(match)) == list(example)
    assert list(selectors.match_summary_json(match)) == list(example)[:12]

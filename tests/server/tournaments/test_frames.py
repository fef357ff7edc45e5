"""The tournament socket's frames are the ones docs/wire.md shows, and its codes are in the table."""

from __future__ import annotations

import inspect

from server.tournaments import errors, frames
from server.tournaments.consumers import TournamentConsumer  # noqa: F401 - the socket that sends them
from tests.server.matches.test_frames import WIRE, sections

SECTION = "Tournament socket `/ws/tournaments/{id}/`"


def test_each_frame_is_documented_with_its_keys():
    documented = {example["type"]: list(example) for example in sections()[SECTION]}
    made = {"tournament": frames.tournament({"id": 1}), "error": frames.error("bad_message", "...")}
    assert list(made["tournament"]) == documented["tournament"]
    assert list(made["error"]) == ["type", "code", "message"], "as on the match socket"
    builders = {name for name, fn in inspect.getmembers(frames, inspect.isfunction) if fn.__module__ == frames.__name__}
    assert builders == set(made)


def test_every_error_code_is_in_the_table():
    text = WIRE.read_text()
    codes = {cls.code for _, cls in inspect.getmembers(errors, inspect.isclass) if cls.__module__ == errors.__name__}
    assert codes and all(f"| `{code}` |" in text for code in codes), codes

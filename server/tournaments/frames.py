"""Every frame of the tournament socket ``/ws/tournaments/{id}/``, one builder per frame (docs/wire.md).

The socket is read-only for its clients (a page, a bot's program): it sends the whole
tournament on connect, on `sync`, and after every change (an entrant came or went, a round
was paired, a game ended, the tournament started or finished).  A tournament is small (at
most `TOURNAMENT_MAX_ENTRANTS` rows), so the whole of it is simpler than deltas and never
leaves a page with a gap to repair.
"""

from __future__ import annotations

from typing import Any

Frame = dict[str, Any]
JSON = dict[str, Any]

CLIENT_FRAMES: tuple[str, ...] = ("sync",)  # what a client sends: the whole tournament again


def tournament(detail: JSON) -> Frame:
    """The whole tournament: its settings, standings, crosstable and current pairings."""
    return {"type": "tournament", "tournament": detail}


def error(code: str, message: str) -> Frame:
    return {"type": "error", "code": code, "message": message}

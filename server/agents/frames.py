"""Every frame the Bot API's event stream ``/ws/agents/`` sends, one builder each (docs/bots.md).

Errors use the match socket's builder (`server.matches.frames.error`): one shape of error on
every socket.
"""

from __future__ import annotations

from typing import Any

Frame = dict[str, Any]
JSON = dict[str, Any]

CLIENT_FRAMES: tuple[str, ...] = ("accept", "decline", "sync")  # what a bot's program sends (docs/bots.md)


def hello(bot: JSON, limits: JSON) -> Frame:
    """First on every (re)connect: who the token plays as, and the limits it plays under."""
    return {"type": "hello", "bot": bot, "limits": limits}


def challenge(challenge: JSON) -> Frame:
    """A challenge waits for this bot's answer (`accept` or `decline`), until its `expires_at`."""
    return {"type": "challenge", "challenge": challenge}


def challenge_gone(challenge: JSON) -> Frame:
    """A challenge this bot made or received was declined or cancelled (one that expired is not
    told: it is simply no longer among the challenges a (re)connect repeats, and `accept` says so)."""
    return {"type": "challenge_gone", "challenge": challenge}


def game_start(match_id: int, game: str, seat: int) -> Frame:
    """A match of this bot is live: play it on ``/ws/matches/{match}/`` with the same token.

    Sent when a challenge is accepted, and again on every (re)connect for each match not over.
    """
    return {"type": "game_start", "match": match_id, "game": game, "seat": seat}

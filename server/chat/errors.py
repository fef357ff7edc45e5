"""Why a chat message is refused, each with the stable code the wire uses (docs/wire.md)."""

from __future__ import annotations

from server.matches.errors import MatchError


class ChatInvalid(MatchError):
    """Empty once stripped, several lines, or control characters."""

    code = "chat_invalid"


class ChatTooLong(MatchError):
    code = "chat_too_long"


class ChatNoPlayer(MatchError):
    """A visitor with no player yet: nobody to name as the author."""

    code = "chat_no_player"
    http_status = 403


class ChatClosed(MatchError):
    """The players' room of a match whose other seats are bots: bots never chat."""

    code = "chat_closed"
    http_status = 409


class ChatMuted(MatchError):
    code = "chat_muted"
    http_status = 403


class ChatRateLimited(MatchError):
    code = "chat_rate_limited"
    http_status = 429

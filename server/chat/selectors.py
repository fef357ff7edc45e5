"""Reads: which room a person is in, whether they may post there, and what they may read."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from server.chat.errors import ChatClosed, ChatMuted, ChatNoPlayer
from server.chat.models import ChatMessage, ChatMute
from server.db import rows
from server.matches.errors import MatchError
from server.matches.models import Match, Seat
from server.players.selectors import person_json

PLAYERS, SPECTATORS = ChatMessage.Room.PLAYERS.value, ChatMessage.Room.SPECTATORS.value


def chat_group(match_id: int, room: str) -> str:
    """The channel group of one room: players and spectators never share one (docs/wire.md)."""
    return f"match.{match_id}.chat.{room}"


def person_group(player_id: int) -> str:
    """The channel group of one person's match sockets, in every match: where their mutes are told."""
    return f"chat.player.{player_id}"


def room_of(match: Match, player_id: int | None) -> str:
    """The seated people talk in the players' room; everyone else in the spectators'."""
    seated = player_id is not None and any(s.player_id == player_id for s in match.seats.all())
    return PLAYERS if seated else SPECTATORS


def mute_of(player_id: int, now: datetime | None = None) -> ChatMute | None:
    """The mute in force for this person, the longest first (one for good outlasts any other).

    Asked on every socket's opening: a person's mutes (a handful at most) are read in SQL built
    once (server/db/rows.py) and the ones in force kept here.
    """
    now = now or timezone.now()
    mutes = [m for m in rows.select(ChatMute, "player_id", player_id) if m.in_force(now)]
    for_good = next((m for m in mutes if m.until is None), None)
    return for_good or max(mutes, key=lambda m: m.until, default=None)  # type: ignore[arg-type,return-value]  # no `until` is None here: `for_good` took those


def refusal(match: Match, player_id: int | None, now: datetime | None = None) -> MatchError | None:
    """Why this person could not post in their room of `match` now, or None when they can."""
    if player_id is None:
        return ChatNoPlayer("chat needs a name: join the chat as a guest, or log in")
    if room_of(match, player_id) == PLAYERS and not _other_people(match, player_id):
        return ChatClosed("your opponents are bots, and bots never chat")
    mute = mute_of(player_id, now)
    if mute is not None:
        return ChatMuted(mute_message(mute))
    return None


def mute_message(mute: ChatMute) -> str:
    """What the muted person reads, in the refusal and in the live `chat_muted` frame alike."""
    until = f"until {mute.until:%Y-%m-%d %H:%M} UTC" if mute.until else "until staff lift it"
    return f"you are muted in chat {until}"


def _other_people(match: Match, player_id: int) -> bool:
    """Another human seat, taken or still open: someone to talk to, now or once they join."""
    return any(s.kind == Seat.Kind.HUMAN and s.player_id != player_id for s in match.seats.all())


def message_json(message: ChatMessage) -> dict[str, Any]:
    """A message as the wire shows it; the author is always a person (`is_ai` false)."""
    seats = {s.player_id: s.index for s in message.match.seats.all() if s.player_id is not None}
    author = message.author
    owner = author.bot_owner.name if author.bot_owner is not None else None
    return _line(
        message.pk,
        message.room,
        author.pk,
        author.name,
        author.is_guest,
        owner,
        message.text,
        message.created_at,
        seats,
    )


def _line(
    pk: int,
    room: str,
    author_id: int,
    name: str,
    is_guest: bool,
    bot_owner: str | None,
    text: str,
    at: datetime,
    seats: dict[int, int],
) -> dict[str, Any]:
    return {
        "id": pk,
        "room": room,
        "author": person_json(author_id, name, is_guest, bot_owner),
        "seat": seats.get(author_id) if room == PLAYERS else None,  # the author's seat in the players' room
        "text": text,
        "at": at.isoformat(),
    }


def recent_messages(match: Match, room: str) -> list[dict[str, Any]]:
    """The room's last `CHAT_HISTORY` messages staff have not hidden, oldest first.

    Read as plain rows: the state frame carries them on every connect and `sync`.
    """
    columns = ("id", "author_id", "author__name", "author__is_guest", "author__bot_owner__name", "text", "created_at")
    rows = (
        ChatMessage.objects.filter(match=match, room=room, deleted=False)
        .order_by("-id")
        .values_list(*columns)[: settings.CHAT_HISTORY]
    )
    seats = {s.player_id: s.index for s in match.seats.all() if s.player_id is not None}
    return [_line(pk, room, *person, text, at, seats) for pk, *person, text, at in reversed(list(rows))]  # type: ignore[call-arg]  # `person` is the four author columns


def chat_json(match: Match, player_id: int | None) -> dict[str, Any]:
    """What one viewer's page shows of the chat: their room, its recent lines, and whether they may post."""
    room = room_of(match, player_id)
    refused = refusal(match, player_id, timezone.now())
    return {
        "room": room,
        "messages": recent_messages(match, room),
        "refused": None if refused is None else {"code": refused.code, "message": refused.message},
    }


def chat_of(match_id: int, player_id: int | None) -> dict[str, Any] | None:
    """`chat_json` for a match known by its id; None when there is no such match."""
    match = Match.objects.prefetch_related("seats").filter(pk=match_id).first()
    return None if match is None else chat_json(match, player_id)


def chat_to_resume(match_id: int, player_id: int | None, room: str) -> dict[str, Any] | None:
    """`chat_json` for a socket resuming with ``?v=`` in `room`, or None when that room never had a line.

    Chat lines are not in the event log; a room where nobody spoke has nothing to catch up on,
    and a resuming socket learns it from one query.
    """
    if not ChatMessage.objects.filter(match_id=match_id, room=room).exists():
        return None
    return chat_of(match_id, player_id)

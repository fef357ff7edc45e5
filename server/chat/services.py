"""Writes: posting a message, staff hiding messages and muting people.  Frames go out after commit:
to one room's group, or to one person's sockets for their mutes."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from server.chat.errors import ChatRateLimited
from server.chat.models import ChatMessage, ChatMute
from server.chat.selectors import chat_group, message_json, mute_message, mute_of, person_group, refusal, room_of
from server.chat.text import clean_text
from server.matches import broadcast, frames
from server.matches.errors import NotFound
from server.matches.models import Match
from server.players.models import Player


@transaction.atomic
def chat_post(match_id: int, player_id: int | None, text: object) -> ChatMessage:
    """`player_id` says `text` in their room of the match: the players' if seated, else the spectators'.

    Refused with a stable code when the text is not one clean line within `CHAT_MAX_CHARS`, the
    person has no player, the room has no other person (bots never chat), the person is muted,
    or they posted `CHAT_RATE_LIMIT` messages in its window.
    """
    clean = clean_text(text, settings.CHAT_MAX_CHARS)
    match = Match.objects.prefetch_related("seats").filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {match_id}")
    now = timezone.now()
    refused = refusal(match, player_id, now)
    if refused is not None:
        raise refused
    # One post at a time per person, in any process: the count below then holds.  It is counted
    # in the database, which every web process shares (the throttles' cache is per process).
    assert player_id is not None  # refused above: nobody has no room
    author = Player.objects.select_for_update().get(pk=player_id)
    _check_rate(author, now)
    message = ChatMessage.objects.create(
        match=match, room=room_of(match, player_id), author=author, text=clean, created_at=now
    )
    frame, group = frames.chat_message(message_json(message)), chat_group(match_id, message.room)
    transaction.on_commit(lambda: broadcast.send_to_group(group, frame))
    return message


def _check_rate(author: Player, now: datetime) -> None:
    limit, window = settings.CHAT_RATE_LIMIT
    recent = ChatMessage.objects.filter(author=author, created_at__gt=now - timedelta(seconds=window))
    if recent.count() >= limit:
        raise ChatRateLimited(f"at most {limit} messages in {window:g} seconds: wait a moment")


@transaction.atomic
def chat_hide(message_ids: Iterable[int]) -> int:
    """Staff hide messages: gone from every page at once (`chat_deleted`) and from every history.

    Answers how many were hidden now (those hidden already are left as they are).
    """
    rows = list(ChatMessage.objects.select_for_update().filter(pk__in=list(message_ids), deleted=False))
    ChatMessage.objects.filter(pk__in=[m.pk for m in rows]).update(deleted=True)
    for message in rows:
        frame, group = frames.chat_deleted(message.pk, message.room), chat_group(message.match_id, message.room)
        transaction.on_commit(partial(broadcast.send_to_group, group, frame))
    return len(rows)


@transaction.atomic
def chat_mute(player_ids: Iterable[int], until: datetime | None, reason: str, by: Any = None) -> int:
    """Staff mute these people until `until` (for good when None); each hears it live.  Answers how many."""
    people = set(player_ids)
    ChatMute.objects.bulk_create(ChatMute(player_id=p, until=until, reason=reason, created_by=by) for p in people)
    chat_mutes_changed(people)
    return len(people)


def chat_mutes_changed(player_ids: Iterable[int]) -> None:
    """Staff added, changed or lifted mutes of these people: after commit, each person's open match
    sockets (in any match, any room) hear whether they may post now, without waiting for a refusal.

    The frame says the mute in force once the change is in, so lifting one of two mutes still
    says muted, and a mute whose end staff moved into the past says unmuted.
    """
    for player_id in set(player_ids):
        transaction.on_commit(partial(_tell_mute, player_id))


def _tell_mute(player_id: int) -> None:
    mute = mute_of(player_id)
    if mute is None:
        frame = frames.chat_unmuted()
    else:
        frame = frames.chat_muted(mute.until.isoformat() if mute.until else None, mute_message(mute))
    broadcast.send_to_group(person_group(player_id), frame)

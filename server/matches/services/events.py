"""The match's event log: versions, the frames stored in it, and what is sent after commit.

Every write holds a row lock on the match (`locked`) for its transaction; the frames it
produces are stored as events in that transaction and broadcast only after commit, so
nobody hears of a change that is not in the database (docs/design.md §6).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import JSONField

from server.db import rows
from server.matches import broadcast, frames
from server.matches.errors import GameOver, NotFound, StalePly
from server.matches.models import Match, MatchEvent, Seat
from server.matches.selectors import match_get, match_json, match_summary_json
from server.matches.signals import turn_started


def locked(match_id: int) -> Match:
    """The match, its row locked until the transaction ends: one writer per match at a time."""
    return _held(rows.select_for_update(Match, match_id), match_id)


def locked_with_seats(match_id: int) -> tuple[Match, dict[int, Seat]]:
    """`locked`, with the match's seats (by index) read in the same statement."""
    match, seats = rows.select_for_update_with(Match, match_id, Seat, order_by="index")
    return _held(match, match_id), {seat.index: seat for seat in seats}


def _held(match: Match | None, match_id: int) -> Match:
    if match is None:
        raise NotFound(f"no match {match_id}")
    match._as_read = _columns(match)  # type: ignore[attr-defined]  # for `save_changes`: not a field
    return match


def save_changes(match: Match) -> None:
    """Save the columns that changed since `locked` read the match (all of them otherwise).

    A move changes five or six of the match's twenty columns; writing only those saves
    Django building, and PostgreSQL parsing, the rest (the position and the clock as JSON
    among them) on every move.  The copy taken when it was read sees changes made in place.
    """
    as_read = getattr(match, "_as_read", None)
    if as_read is None:
        match.save()
        return
    values = match.__dict__
    changed = [name for name in _PLAIN_COLUMNS if as_read[name] != values[name]]
    changed += [name for name in _JSON_COLUMNS if _json_changed(as_read[name], values[name])]
    if changed:
        rows.update(match, changed)
    # Saved: a later save in the transaction writes every column (none does on a move's path;
    # a snapshot taken again was the position written out as JSON once more, every move).
    del match._as_read  # type: ignore[attr-defined]  # not a field


def _columns(match: Match) -> dict[str, Any]:
    values = match.__dict__  # a field's value is its instance's attribute: read straight
    snapshot: dict[str, Any] = {name: values[name] for name in _PLAIN_COLUMNS}
    for name in _JSON_COLUMNS:
        value = values[name]
        snapshot[name] = None if value is None else _Snapshot(value)  # most are null: nothing to copy
    return snapshot


# The match's columns but its key, by attribute name: those whose values are immutable (numbers,
# text, datetimes), and the JSON ones, whose dicts and lists may change in place.
_PLAIN_COLUMNS = tuple(
    f.attname for f in Match._meta.concrete_fields if not f.primary_key and not isinstance(f, JSONField)
)
_JSON_COLUMNS = tuple(f.attname for f in Match._meta.concrete_fields if isinstance(f, JSONField))


class _Snapshot:
    """A JSON column's value as read, and what it was then, untouched by later changes in place.

    Kept as its JSON text, which `json.dumps` writes in C.  Copied item by item in Python, a
    position twice a move was the largest share of a move's CPU in the service.  Equal texts
    are equal values; a dict whose keys changed order only writes the same value again.
    """

    __slots__ = ("value", "text")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.text = _text(value)


def _json_changed(read: _Snapshot | None, now: Any) -> bool:
    """Whether a JSON column holds another value than when it was read (None: null): another
    object (a move's new position: not written out again to be compared), or the same one
    changed in place."""
    if read is None:
        return now is not None
    return now is not read.value or read.text != _text(now)


def _text(value: Any) -> Any:
    if isinstance(value, dict | list | tuple):
        if not value:  # the options of most games: {}
            return "{}" if isinstance(value, dict) else "[]"
        try:
            return json.dumps(value)
        except (TypeError, ValueError):  # not plain JSON: compared as a copy of itself
            return copy.deepcopy(value)
    return value


def record(match: Match, frame: dict[str, Any]) -> None:
    """Give `frame` the next version, store it, and broadcast it after commit."""
    match.v += 1
    event = rows.new(MatchEvent, match=match, v=match.v, frame=frame)
    rows.insert(event)
    kept = settings.MATCH_EVENTS_KEPT
    if match.v % 50 == 0 and match.v > kept:
        MatchEvent.objects.filter(match=match, v__lte=match.v - kept).delete()
    group, out = broadcast.match_group(match.pk), event.as_frame()
    rows.on_commit(lambda: broadcast.send_to_group(group, out))


def record_state(match: Match) -> None:
    """Record the whole match as a `state` frame (its status changed: adjourned, resumed).

    It carries the version it is stored at, as every state frame does.
    """
    match.save()
    fresh = match_get(match.pk)
    record(match, frames.state_changed({**match_json(fresh), "v": match.v + 1}))  # type: ignore[arg-type]  # just saved: it exists


@transaction.atomic
def match_log(match_id: int, ply: int, frame: dict[str, Any]) -> Match:
    """Record `frame` (a hint, say) in the match's event log at `ply`; refused once the match moved on."""
    match = locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    if match.ply != ply:
        raise StalePly(f"ply {ply} is not the current ply {match.ply}; sync to catch up")
    record(match, frame)
    match.save(update_fields=["v"])
    return match


def lobby_after_commit(match: Match) -> None:
    """The lobby hears the match's new summary once the change is committed."""
    match_id = match.pk

    def push() -> None:
        fresh = Match.objects.prefetch_related("seats__player").filter(pk=match_id).first()
        if fresh is not None:
            broadcast.send_to_group(broadcast.LOBBY_GROUP, frames.lobby_match(match_summary_json(fresh)))

    transaction.on_commit(push)


def announce_turn(match: Match, *, bot: bool | None = None) -> None:
    """After commit, say whose turn it is (`turn_started`): bots listen and queue their search.

    `bot` is whether that seat is a bot's, when the caller has the seats at hand (None: it
    does not know, and a listener looks).
    """
    match_id, ply, seat = match.pk, match.ply, match.to_move
    rows.on_commit(lambda: turn_started.send(sender=Match, match_id=match_id, ply=ply, seat=seat, bot=bot))

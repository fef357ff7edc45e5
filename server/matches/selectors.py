"""Reads: matches as the wire shows them (docs/design.md §5)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from games import CHANCE, registry
from games.base import parts_json, places
from server.db import rows
from server.matches.models import Match, MatchEvent, Move, Seat
from server.players.selectors import player_json


def seat_player_json(seat: Seat) -> dict[str, Any] | None:
    """Who sits in a seat; a bot always says it is one (docs/design.md §6.1)."""
    if seat.kind == Seat.Kind.BOT:
        snap = seat.bot_snapshot or {}
        profile = {k: snap.get(k) for k in ("slug", "name", "level", "algorithm", "time_budget_ms", "rating")}
        profile["is_ai"] = True
        return {"name": snap.get("name", "Bot"), "kind": "bot", "is_ai": True, "profile": profile}
    if seat.player_id is None or seat.player is None:
        return None
    return player_json(seat.player)


def seat_json(seat: Seat, game: str | None = None) -> dict[str, Any]:
    """A seat: its index, its name as the game calls it ("white", "X": the spec's), who sits in it."""
    seats = registry.get(game or seat.match.game).spec.seats
    name = seats[seat.index].name if seat.index < len(seats) else f"seat {seat.index + 1}"
    return {"index": seat.index, "name": name, "player": seat_player_json(seat)}


def result_json(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """The result as the wire shows it: the stored one (`Outcome.to_json`) and each seat's place
    (`games.base.places`: 1 first, equal returns shared), read from its returns."""
    if not result:
        return result
    return {**result, "places": list(places(result.get("returns") or []))}


def move_json(move: Move, seats: dict[int, Seat]) -> dict[str, Any]:
    return {
        "ply": move.ply,
        "seat": move.seat,
        "move": move.move,
        "notation": move.notation or move.move,
        "by": by_json(seats.get(move.seat)),
        "think_ms": move.think_ms,
        "at": move.created_at.isoformat() if move.created_at else None,
        # Why no search chose this move (the watchdog's last resort); null for searched and people's moves.
        "fallback": move.fallback or None,
        **({"queue_wait_ms": move.queue_wait_ms} if _is_bot(seats.get(move.seat)) else {}),
        **({"stats": move.stats} if move.stats else {}),
    }


def _is_bot(seat: Seat | None) -> bool:
    return seat is not None and seat.kind == Seat.Kind.BOT


def by_json(seat: Seat | None) -> dict[str, Any]:
    if seat is None:  # chance
        return {"kind": "chance", "is_ai": False}
    if (seat.bot_snapshot or {}).get("kind") == "agent":  # a bot account's seat, from its snapshot: no query
        return {"kind": "agent", "is_ai": True}
    return by_kind_json(seat.kind)


def by_kind_json(kind: str) -> dict[str, Any]:
    """Who played a move, from its seat's kind: every bot's move says it is an AI's."""
    return {"kind": kind, "is_ai": kind == Seat.Kind.BOT}


def _no_bot_turn_status(match_id: int, ply: int) -> tuple[str, datetime | None] | None:
    return None


# Where a bot's turn stands: ("queued", None) while it waits for a free worker, ("thinking",
# search start) once a worker searches.  Bots install theirs (server/bots/apps.py), so matches
# reads it without importing bots.
bot_turn_status: Callable[[int, int], tuple[str, datetime | None] | None] = _no_bot_turn_status


def thinking_json(match: Match, seats: dict[int, Seat]) -> dict[str, Any] | None:
    """The bot to move, if any, so a page that (re)loads shows it waiting for a computer or thinking."""
    seat = seats.get(match.to_move) if match.status == Match.Status.ACTIVE else None  # type: ignore[arg-type]  # an active match has a seat to move
    if seat is None or seat.kind != Seat.Kind.BOT:
        return None
    status, since = bot_turn_status(match.pk, match.ply) or ("thinking", match.turn_started_at)
    return {
        "seat": seat.index,
        "status": status,
        "budget_ms": (seat.bot_snapshot or {}).get("time_budget_ms"),
        "since": since.isoformat() if since else None,
    }


def clock_runs(match: Match, seat: int) -> bool:
    """Whether `seat`'s clock runs on its turns: from its first move on (services/clocks.py).

    A first move costs nothing and adds no increment, so a seat whose time left is not its
    initial time has moved; only one whose time is still whole is looked up.
    """
    if match.clock_ms is None or match.clock is None or seat < 0:
        return False
    moved = match.moves.filter(seat=seat, ply__gte=match.opening_plies)  # an opening's moves start no clock
    return match.clock_ms[seat] != match.clock["initial_ms"] or moved.exists()


def clock_json(match: Match, now: datetime | None = None) -> dict[str, Any] | None:
    """The clocks: each seat's time left when the turn started, and how much of it is used since.

    `running` is the seat to move once its clock runs (after its first move), else null.
    """
    if match.clock_ms is None:
        return None
    running = match.to_move if match.status == Match.Status.ACTIVE and match.to_move not in (None, CHANCE) else None
    if running is not None and not clock_runs(match, running):
        running = None
    elapsed = 0
    if running is not None and match.turn_started_at is not None:
        elapsed = max(0, int(((now or timezone.now()) - match.turn_started_at).total_seconds() * 1000))
    return {**(match.clock or {}), "remaining_ms": list(match.clock_ms), "running": running, "elapsed_ms": elapsed}


def presence_json(match: Match) -> list[dict[str, Any]]:
    """Whether each seated person has a socket open (bots are always there)."""
    return [
        {"seat": s.index, "online": s.online}
        for s in match.seats.all()
        if s.kind == Seat.Kind.HUMAN and s.player_id is not None
    ]


def match_summary_json(match: Match) -> dict[str, Any]:
    """What the lobby shows: everything but the position and the moves."""
    seats = list(match.seats.all())
    return {
        "id": match.id,
        "game": match.game,
        "status": match.status,
        "seats": [seat_json(s, match.game) for s in seats],
        "ply": match.ply,
        "to_move": match.to_move,
        "result": result_json(match.result),
        "rated": match.rated,
        "hints_allowed": match.hints_allowed,
        "options": match.options or {},
        "v": match.v,
        "created_at": match.created_at.isoformat(),
    }


def match_json(match: Match) -> dict[str, Any]:
    """The full match object of docs/design.md §5."""
    seats = {s.index: s for s in match.seats.all()}
    game = match.rules()
    live = match.status == Match.Status.ACTIVE and match.to_move not in (None, CHANCE)
    return {
        **match_summary_json(match),
        "state": match.state,
        "legal_moves": game.legal_moves(game.from_json(match.state)) if live else [],
        "move_parts": parts_json(game.move_parts(game.from_json(match.state))) if live else None,
        "moves": [move_json(m, seats) for m in match.moves.all()],
        "thinking": thinking_json(match, seats),
        "offer": match.offer,
        "clock": clock_json(match),
        "presence": presence_json(match),
        "abandon_after_ms": settings.ABANDON_GRACE_MS,
        "opening_plies": match.opening_plies,
    }


def matches_with_seats() -> QuerySet[Match]:
    """Matches with their seats and the seats' players, in two queries (not three: the players
    come joined to the seats)."""
    return Match.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))


def match_list(
    status: str | None = None, game: str | None = None, limit: int = 50, player_id: int | None = None
) -> list[Match]:
    qs = matches_with_seats()
    if player_id is not None:
        qs = qs.filter(seats__player_id=player_id)
    if status == "open":
        qs = qs.filter(status=Match.Status.WAITING)
    elif status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    return list(qs[:limit])


def match_get(match_id: int) -> Match | None:
    """The match with its seats (their people joined) and its moves in ply order, in three queries.

    As `matches_with_seats().prefetch_related("moves")` gives it, but read in SQL built once
    (server/db/rows.py) and handed to the match as its prefetched seats and moves: Django's
    building and prefetching cost a socket's opening more CPU than the queries.
    """
    found = rows.select(Match, "id", match_id)
    if not found:
        return None
    match = found[0]
    _prefetched(match, "seats", rows.select(Seat, "match_id", match_id, order_by="index", related="player"))
    _prefetched(match, "moves", rows.select(Move, "match_id", match_id, order_by="ply"))
    return match


def _prefetched(match: Match, related: str, objects: list[Any]) -> None:
    """`objects` become what `match.<related>.all()` returns, as `prefetch_related` leaves it
    (a filter on the manager still queries, with the match's own condition)."""
    queryset = getattr(match, related).get_queryset()
    queryset._result_cache, queryset._prefetch_done = objects, True
    for obj in objects:
        obj.match = match  # as prefetching does: no query back to the match
    match.__dict__.setdefault("_prefetched_objects_cache", {})[related] = queryset


def seat_of(match: Match, player_id: int | None) -> int | None:
    if player_id is None:
        return None
    for seat in match.seats.all():
        if seat.player_id == player_id:
            return seat.index
    return None


def events_after(match_id: int, v: int) -> list[dict[str, Any]] | None:
    """Frames after version `v`, or None when the client needs a fresh state.

    None when some were not kept, and when `v` is no version this match has had (beyond
    its current one): a client that claims to be ahead has a state from somewhere else.
    """
    current = Match.objects.filter(pk=match_id).values_list("v", flat=True).first()
    if current is None or v < 0 or v > current:
        return None
    if current == v:  # the client is up to date (a reconnect storm after a restart is mostly this)
        return []
    events = list(MatchEvent.objects.filter(match_id=match_id, v__gt=v).order_by("v"))
    if events and events[0].v != v + 1:
        return None
    if current > v and not events:
        return None
    return [e.as_frame() for e in events]


def match_positions(match: Match) -> list[dict[str, Any]]:
    """The position before the first move and after every move (the state JSON), for browsing a game."""
    game = match.rules()
    state = game.initial_state()
    positions = [game.to_json(state)]
    for move in match.moves.order_by("ply").values_list("move", flat=True):
        state = game.apply(state, move)
        positions.append(game.to_json(state))
    return positions

"""`submit_move`: the one path every move takes, human or bot (docs/design.md §4); and dice.

It validates (seated, to move, legal, `ply` is the current ply) and stores the move and
the new state in one transaction holding the match's row lock; its frames go out after
commit.  A second submission for the same ply is refused with `stale_ply`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError
from django.utils import timezone

from games import CHANCE, IllegalMove
from games.base import Game, State, parts_json
from server.db import rows
from server.matches import frames
from server.matches.errors import BadMessage, GameOver, IllegalMoveError, NotSeated, NotYourTurn, StalePly
from server.matches.models import Match, MatchEvent, Move, Seat
from server.matches.selectors import by_json, clock_json, clock_runs
from server.matches.services.clocks import charged, flag_if_out_of_time
from server.matches.services.endings import finish
from server.matches.services.events import announce_turn, locked_with_seats, record, save_changes
from server.matches.services.offers import cancel_offer_on_move

_dice = secrets.SystemRandom()  # chance events are rolled from a secure source


@dataclass(frozen=True)
class MoveTiming:
    """A bot move's own think time and queue wait, and why no search chose it (a fallback)."""

    think_ms: int | None = None  # None: from the turn's start (people)
    queue_wait_ms: int | None = None
    fallback: str = ""


_NO_TIMING = MoveTiming()  # a person's move: from the turn's start, no queue, searched by nobody


def submit_move(
    match_id: int,
    seat: int,
    move: Any,
    ply: Any,
    *,
    stats: dict[str, Any] | None = None,
    position: dict[str, Any] | None = None,
    think_ms: int | None = None,
    queue_wait_ms: int | None = None,
    fallback: str = "",
) -> Move:
    """Validate and apply one move for `seat` at `ply`; exactly once, whatever the races.

    `position` (bots) is the state the move was computed for: a ply number comes back
    after a takeback, so a move for another position at the same ply is refused too.
    Bots also give their `think_ms` (the search's time, without the wait for a worker,
    which is `queue_wait_ms`), and a move no search chose says why in `fallback`.
    Raises a `MatchError` (with its wire code) and changes nothing when the move is refused;
    a mover whose clock ran out loses on time instead.
    """
    _check_arguments(move, ply)
    timing = MoveTiming(think_ms, queue_wait_ms, fallback)
    return _submit(match_id, lambda seats: seat, move, ply, stats, position, timing)


def submit_player_move(
    match_id: int, player_id: int | None, move: Any, ply: Any, stats: dict[str, Any] | None = None
) -> Move:
    """A person's move from their socket: `submit_move` for the seat `player_id` holds.

    The seat is found among the seats the move loads anyway, under the match's lock, rather
    than by reading the match, its seats, players and moves first; the errors come in the
    same order as that (`not_found`, `not_seated`, then the move's own).  `stats`: a bot
    account's search figures, checked by the socket (`server.matches.move_stats`), kept with the move.
    """
    return _submit(match_id, lambda seats: _seat_held_by(seats, player_id), move, ply, stats)


def _seat_held_by(seats: dict[int, Seat], player_id: int | None) -> int:
    """As `require_seat`, over seats already loaded (in index order)."""
    for seat in seats.values():
        if player_id is not None and seat.player_id == player_id:
            return seat.index
    raise NotSeated("you have no seat in this match: spectators watch, they don't move")


def _check_arguments(move: Any, ply: Any) -> None:
    if not _good_ply(ply):
        raise BadMessage("ply must be a non-negative integer: the number of moves already played")
    if not _good_move(move):
        raise BadMessage("move must be a non-empty string in the game's notation")


def _good_ply(ply: Any) -> bool:
    return isinstance(ply, int) and not isinstance(ply, bool) and ply >= 0


def _good_move(move: Any) -> bool:
    return isinstance(move, str) and 0 < len(move) <= 200


def _submit(
    match_id: int,
    seat_of: Callable[[dict[int, Seat]], int],
    move: Any,
    ply: Any,
    stats: dict[str, Any] | None = None,
    position: dict[str, Any] | None = None,
    timing: MoveTiming | None = None,
) -> Move:
    try:
        # The move's writes (the move, its events, the match) reach the database in one round
        # trip with the commit (`rows.atomic`).
        with rows.atomic():
            # Read with the match, once a move: the mover's seat, the frame's `by`, and whether
            # a bot is to move next (the bots app then needs no query of its own for a person's turn).
            match, seats = locked_with_seats(match_id)
            seat = seat_of(seats)
            _check_arguments(move, ply)
            if not flag_if_out_of_time(match, seats=seats):
                return _submit_locked(match, seats, seat, move, ply, stats, position, timing)
            save_changes(match)
    except IntegrityError:
        # The unique (match, ply) constraint: another submission for this ply won the race.
        raise StalePly(f"ply {ply} has already been played") from None
    raise GameOver("the match is over: out of time")


def _submit_locked(
    match: Match,
    seats: dict[int, Seat],
    seat: int,
    move: str,
    ply: int,
    stats: dict[str, Any] | None,
    position: dict[str, Any] | None,
    timing: MoveTiming | None = None,
) -> Move:
    if match.is_over:
        raise GameOver("the match is over")
    if match.status == Match.Status.WAITING:
        raise NotYourTurn("the match has not started: a seat is still open")
    if ply != match.ply:
        raise StalePly(f"ply {ply} is not the current ply {match.ply}; sync to catch up")
    if position is not None and position != match.state:
        raise StalePly(f"the position at ply {ply} is not the one this move was computed for (a takeback)")
    if seat != match.to_move:
        raise NotYourTurn(f"it is seat {match.to_move}'s turn, not seat {seat}'s")
    game = match.rules()
    state = game.from_json(match.state)
    try:
        move = game.canonical_move(state, move)  # stored and shown as the game writes it
        new_state = game.play(state, move)
    except IllegalMove as exc:
        raise IllegalMoveError(str(exc)) from None
    notation = game.move_notation(state, move)
    stored = _store_move(match, game, seats, seat, move, new_state, stats, timing, notation)
    play_chance(match, game, new_state, seats)
    save_changes(match)
    return stored


def _store_move(
    match: Match,
    game: Game[Any],
    seats: dict[int, Seat],
    seat: int,
    move: str,
    new_state: State,
    stats: dict[str, Any] | None,
    timing: MoveTiming | None = None,
    notation: str | None = None,
) -> Move:
    """Store `move` (written `notation` for players, where that differs) and send its frame."""
    now = timezone.now()
    timing = timing or _NO_TIMING
    think_ms = int((now - match.turn_started_at).total_seconds() * 1000) if match.turn_started_at else 0
    if timing.think_ms is not None:  # a bot's search time: its wait for a worker is not charged
        think_ms = timing.think_ms
    stored = rows.new(
        Move,
        match=match,
        ply=match.ply,
        seat=seat,
        move=move,
        notation="" if notation in (None, move) else notation,
        think_ms=max(0, think_ms),
        stats=_with_hint(match, seat, stats) if match.hints_allowed and seat != CHANCE else stats,
        queue_wait_ms=timing.queue_wait_ms,
        fallback=timing.fallback[:200],
    )
    # Before the insert: `clock_runs` may look up the seat's earlier moves.
    if match.clock_ms is not None and seat != CHANCE and clock_runs(match, seat):
        match.clock_ms = charged(match.clock_ms, seat, think_ms, match.clock["increment_ms"])  # type: ignore[index]  # clocked: it has its clock
    rows.insert(stored)
    match.ply += 1
    match.state = game.to_json(new_state)
    match.turn_started_at = now
    finished = game.is_terminal(new_state)
    match.to_move = None if finished else game.to_move(new_state)
    seat_obj = seats.get(seat) if seat != CHANCE else None
    frame = frames.move(
        ply=stored.ply,
        seat=seat,
        move=move,
        notation=stored.notation or move,
        by=by_json(seat_obj),
        state=match.state,
        to_move=match.to_move,
        legal_moves=[] if finished or match.to_move == CHANCE else game.legal_moves(new_state),
        think_ms=stored.think_ms,
        fallback=stored.fallback or None,
        queue_wait_ms=stored.queue_wait_ms,
        bot=seat_obj is not None and seat_obj.kind == Seat.Kind.BOT,
        stats=stats,
        clock=clock_json(match, now) if match.clock_ms is not None else None,
        move_parts=None if finished or match.to_move == CHANCE else parts_json(game.move_parts(new_state)),
    )
    record(match, frame)
    cancel_offer_on_move(match, seat)
    if finished:
        finish(match, game.outcome(new_state))
    return stored


def store_agreed_move(
    match: Match, game: Game[Any], seats: dict[int, Seat], seat: int, move: str, new_state: State
) -> Move:
    """A move the players agreed on outside the turn order (an accepted resignation: `resignations`),
    under the match's lock: stored and sent as any move of `seat`, then the dice that are due."""
    notation = game.move_notation(game.from_json(match.state), move)
    stored = _store_move(match, game, seats, seat, move, new_state, None, MoveTiming(think_ms=0), notation)
    play_chance(match, game, new_state, seats)
    return stored


def _with_hint(match: Match, seat: int, stats: dict[str, Any] | None) -> dict[str, Any] | None:
    """`stats` with the hint `seat` was given for this ply, if any (the latest): a move carries
    the hint its player saw, so exports show it.  Part of the insert, not a write after it:
    the move's writes go with the commit (`rows.atomic`)."""
    event = (
        MatchEvent.objects.filter(match_id=match.pk, frame__type="hint", frame__ply=match.ply, frame__seat=seat)
        .order_by("-v")
        .first()
    )
    if event is None:
        return stats
    hint = {k: event.frame[k] for k in ("move", "value", "depth", "nodes", "profile") if k in event.frame}
    return {**(stats or {}), "hint": hint}


def play_chance(match: Match, game: Game[Any], state: State, seats: dict[int, Seat] | None = None) -> None:
    """Roll every chance event that is due (dice), logged as moves of seat -1; then announce the turn.

    With the match's `seats` (by index) the announcement says whether a bot is to move.
    """
    rolls = game.has_chance  # a game without dice never has chance to move: nothing to ask of its state
    while (
        rolls and match.status == Match.Status.ACTIVE and not game.is_terminal(state) and game.to_move(state) == CHANCE
    ):
        outcomes, weights = zip(*game.chance_outcomes(state), strict=True)
        roll = _dice.choices(outcomes, weights)[0]
        notation = game.move_notation(state, roll)
        state = game.apply(state, roll)
        _store_move(match, game, seats or {}, CHANCE, roll, state, None, notation=notation)
    if match.status == Match.Status.ACTIVE:
        match.to_move = game.to_move(state)
        match.turn_started_at = match.turn_started_at or timezone.now()
        to_move = None if seats is None else seats.get(match.to_move)
        announce_turn(match, bot=None if seats is None else to_move is not None and to_move.kind == Seat.Kind.BOT)

"""Writes to matches.  `submit_move` is the one path every move takes, human or bot (DESIGN §4).

Each write runs in one transaction holding a row lock on the match; the frames it
produces are stored as events in that transaction and broadcast only after commit,
so nobody hears of a move that is not in the database.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import CHANCE, IllegalMove, registry
from games.base import Game, State
from server.matches import broadcast
from server.matches.errors import (
    BadMessage,
    GameOver,
    IllegalMoveError,
    NotFound,
    NotSeated,
    NotYourTurn,
    SeatTaken,
    StalePly,
)
from server.matches.models import Match, MatchEvent, Move, Seat
from server.matches.selectors import by_json, match_summary_json, seat_json
from server.matches.signals import match_finished, turn_started
from server.players.models import Player

_dice = secrets.SystemRandom()  # chance events are rolled from a secure source


@dataclass(frozen=True)
class SeatRequest:
    kind: str  # "human" or "bot"
    bot_profile: Any = None  # a bots.BotProfile for bot seats


# --- creating and joining -------------------------------------------------------


@transaction.atomic
def match_create(game_id: str, seats: list[SeatRequest], creator: Player | None, source: str = "play") -> Match:
    """A new match; `creator` takes the first human seat.  Starts at once if no seat is open.

    `source` says where it came from ("play" on the site; "selfplay", "calibration", ...).
    """
    game = registry.get(game_id)
    if len(seats) != game.num_players:
        raise BadMessage(f"{game.name} is played by {game.num_players} seats, not {len(seats)}")
    has_bot = any(request.kind == Seat.Kind.BOT for request in seats)
    match = Match.objects.create(
        game=game_id,
        state=game.to_json(game.initial_state()),
        created_by=creator,
        source=source,
        rated=not has_bot or settings.BOT_GAMES_RATED_FOR_HUMANS,
    )
    creator_seated = False
    for index, request in enumerate(seats):
        seat = Seat(match=match, index=index, kind=request.kind)
        if request.kind == Seat.Kind.BOT:
            seat.bot_profile = request.bot_profile
            seat.bot_snapshot = request.bot_profile.snapshot()
        elif creator is not None and not creator_seated:
            seat.player, creator_seated = creator, True
        seat.save()
    if not any(s.is_open for s in match.seats.all()):
        _start(match, game)
    _after_commit_lobby(match)
    return match


@transaction.atomic
def match_join(match_id: int, player: Player, seat_index: int | None = None) -> Match:
    """`player` takes an open seat (the first one unless `seat_index` says which)."""
    match = _locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    seats = list(match.seats.all())
    if any(s.player_id == player.pk for s in seats):
        raise SeatTaken("you already have a seat in this match")
    open_seats = [s for s in seats if s.is_open and (seat_index is None or s.index == seat_index)]
    if not open_seats:
        raise SeatTaken("no open seat" if seat_index is None else f"seat {seat_index} is not open")
    seat = open_seats[0]
    seat.player = player
    seat.save(update_fields=["player"])
    _record(match, {"type": "seat", "seat": seat_json(seat)})
    if not any(s.is_open for s in match.seats.all()):
        _start(match, registry.get(match.game))
    match.save()
    _after_commit_lobby(match)
    return match


def _start(match: Match, game: Game) -> None:
    now = timezone.now()
    match.status = Match.Status.ACTIVE
    match.started_at = now
    state = game.from_json(match.state)
    _play_chance(match, game, state)
    match.save()


# --- the one move path ----------------------------------------------------------


def submit_move(
    match_id: int,
    seat: int,
    move: Any,
    ply: Any,
    *,
    stats: dict[str, Any] | None = None,
) -> Move:
    """Validate and apply one move for `seat` at `ply`; exactly once, whatever the races.

    Raises a `MatchError` (with its wire code) and changes nothing when the move is refused.
    """
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise BadMessage("ply must be a non-negative integer: the number of moves already played")
    if not isinstance(move, str) or not move or len(move) > 200:
        raise BadMessage("move must be a non-empty string in the game's notation")
    try:
        with transaction.atomic():
            return _submit_locked(match_id, seat, move, ply, stats)
    except IntegrityError:
        # The unique (match, ply) constraint: another submission for this ply won the race.
        raise StalePly(f"ply {ply} has already been played") from None


def _submit_locked(match_id: int, seat: int, move: str, ply: int, stats: dict[str, Any] | None) -> Move:
    match = _locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    if match.status == Match.Status.WAITING:
        raise NotYourTurn("the match has not started: a seat is still open")
    if ply != match.ply:
        raise StalePly(f"ply {ply} is not the current ply {match.ply}; sync to catch up")
    if seat != match.to_move:
        raise NotYourTurn(f"it is seat {match.to_move}'s turn, not seat {seat}'s")
    game = registry.get(match.game)
    state = game.from_json(match.state)
    try:
        new_state = game.play(state, move)
    except IllegalMove as exc:
        raise IllegalMoveError(str(exc)) from None
    stored = _store_move(match, game, seat, move, new_state, stats)
    _play_chance(match, game, new_state)
    match.save()
    return stored


def _store_move(match: Match, game: Game, seat: int, move: str, new_state: State, stats: dict[str, Any] | None) -> Move:
    now = timezone.now()
    think_ms = int((now - match.turn_started_at).total_seconds() * 1000) if match.turn_started_at else 0
    stored = Move.objects.create(
        match=match, ply=match.ply, seat=seat, move=move, think_ms=max(0, think_ms), stats=stats
    )
    match.ply += 1
    match.state = game.to_json(new_state)
    match.turn_started_at = now
    finished = game.is_terminal(new_state)
    match.to_move = None if finished else game.to_move(new_state)
    seat_obj = match.seats.filter(index=seat).first() if seat != CHANCE else None
    frame = {
        "type": "move",
        "ply": stored.ply,
        "seat": seat,
        "move": move,
        "by": by_json(seat_obj),
        "state": match.state,
        "to_move": match.to_move,
        "legal_moves": [] if finished or match.to_move == CHANCE else game.legal_moves(new_state),
        "think_ms": stored.think_ms,
    }
    if stats:
        frame["stats"] = stats
    _record(match, frame)
    if finished:
        _finish(match, game.outcome(new_state).to_json())
    return stored


def _play_chance(match: Match, game: Game, state: State) -> None:
    """Roll every chance event that is due (dice), logged as moves of seat -1; then announce the turn."""
    while match.status == Match.Status.ACTIVE and not game.is_terminal(state) and game.to_move(state) == CHANCE:
        outcomes, weights = zip(*game.chance_outcomes(state), strict=True)
        roll = _dice.choices(outcomes, weights)[0]
        state = game.apply(state, roll)
        _store_move(match, game, CHANCE, roll, state, None)
    if match.status == Match.Status.ACTIVE:
        match.to_move = game.to_move(state)
        match.turn_started_at = match.turn_started_at or timezone.now()
        _announce_turn(match)


def _announce_turn(match: Match) -> None:
    match_id, ply, seat = match.pk, match.ply, match.to_move
    transaction.on_commit(lambda: turn_started.send(sender=Match, match_id=match_id, ply=ply, seat=seat))


# --- ending ---------------------------------------------------------------------


@transaction.atomic
def match_resign(match_id: int, seat: int) -> Match:
    match = _locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    if match.status == Match.Status.WAITING:
        return match_abort(match_id, "abandoned before it started")
    n = match.seats.count()
    # The resigning seat loses; the others share the win (zero-sum, as the games score it).
    returns = [1.0 / (n - 1)] * n
    returns[seat] = -1.0
    winner = 1 - seat if n == 2 else None
    ranking = [i for i in range(n) if i != seat] + [seat]
    _finish(match, {"returns": returns, "winner": winner, "reason": "resigned", "ranking": ranking})
    match.save()
    return match


@transaction.atomic
def match_abort(match_id: int, reason: str) -> Match:
    match = _locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    match.status = Match.Status.ABORTED
    match.finished_at = timezone.now()
    match.to_move = None
    match.result = {"returns": [], "winner": None, "reason": reason, "ranking": []}
    _record(match, {"type": "game_over", "result": match.result, "status": match.status})
    match.save()
    _after_commit_lobby(match)
    return match


def _finish(match: Match, result: dict[str, Any]) -> None:
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.to_move = None
    match.result = result
    _record(match, {"type": "game_over", "result": result, "status": match.status})
    _after_commit_lobby(match)
    match_id = match.pk
    transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match_id))


# --- events ---------------------------------------------------------------------


def _record(match: Match, frame: dict[str, Any]) -> None:
    """Give `frame` the next version, store it, and broadcast it after commit."""
    match.v += 1
    event = MatchEvent.objects.create(match=match, v=match.v, frame=frame)
    kept = settings.MATCH_EVENTS_KEPT
    if match.v % 50 == 0 and match.v > kept:
        MatchEvent.objects.filter(match=match, v__lte=match.v - kept).delete()
    group, out = broadcast.match_group(match.pk), event.as_frame()
    transaction.on_commit(lambda: broadcast.send_to_group(group, out))


def _after_commit_lobby(match: Match) -> None:
    match_id = match.pk

    def push() -> None:
        fresh = Match.objects.prefetch_related("seats__player").filter(pk=match_id).first()
        if fresh is not None:
            broadcast.send_to_group(broadcast.LOBBY_GROUP, {"type": "match", "match": match_summary_json(fresh)})

    transaction.on_commit(push)


def _locked(match_id: int) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {match_id}")
    return match


def require_seat(match: Match, player_id: int | None) -> int:
    for seat in match.seats.all():
        if player_id is not None and seat.player_id == player_id:
            return seat.index
    raise NotSeated("you have no seat in this match: spectators watch, they don't move")

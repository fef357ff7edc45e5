"""Creating a match, taking its seats, and starting it when no seat is open."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import CHANCE, IllegalMove, registry
from games.base import Game
from server.matches import frames
from server.matches.errors import (
    RATED_NEEDS_ACCOUNT,
    BadMessage,
    GameOver,
    HumanOnly,
    NotRatable,
    NotSeated,
    RatedNeedsAccount,
    SeatTaken,
)
from server.matches.models import Match, Move, Seat
from server.matches.selectors import seat_json
from server.matches.services.clocks import Clock
from server.matches.services.events import lobby_after_commit, locked, record
from server.matches.services.moves import play_chance
from server.players.models import Player
from server.players.selectors import bot_account_snapshot


@dataclass(frozen=True)
class SeatRequest:
    kind: str  # "human" or "bot"
    bot_profile: Any = None  # a bots.BotProfile for bot seats


@transaction.atomic
def match_create(
    game_id: str,
    seats: list[SeatRequest],
    creator: Player | None,
    source: str = "play",
    clock: Clock | None = None,
    hints: bool = False,
    rated: bool = False,
    options: Mapping[str, object] | None = None,
    seated: Sequence[Player] = (),
    opening: Sequence[str] = (),
) -> Match:
    """A new match; `creator` takes the first human seat.  Starts at once if no seat is open.

    `source` says where it came from ("play" on the site; "selfplay", "calibration", ...).
    `clock` runs for every seat; a bot's is charged its search time and never flags
    (services/clocks.py).  `hints` are for one person against bots, unrated.
    `rated`: the result changes the people's ratings (server/ratings); never with hints, nor
    with a bot seat unless `BOT_GAMES_RATED_FOR_HUMANS`, and only between accounts (a guest
    costs nothing, so rated games against guests would farm ratings).
    `options` are the game's options (`GameSpec.options`), checked by `Game.with_options`; the
    match stores every declared option with its value and plays the game they configure.
    `seated`: when given, the player of each human seat in seat order (an accepted challenge
    seats both sides at once); `creator` then takes no seat of its own.
    `opening`: moves played from the initial position before the match starts (a measurement's
    opening), stored as its first plies (`opening_plies`); they start no clock.
    """
    game = configured_game(game_id, options or {})
    if len(seats) != game.num_players:
        raise BadMessage(f"{game.name} is played by {game.num_players} seats, not {len(seats)}")
    has_bot = any(request.kind == Seat.Kind.BOT for request in seats)
    if hints and (not has_bot or sum(r.kind == Seat.Kind.HUMAN for r in seats) != 1):
        raise BadMessage("hints are for one person playing against bots: they would help against another person")
    if rated and hints:
        raise NotRatable("rated games never allow hints")
    if rated and has_bot and not settings.BOT_GAMES_RATED_FOR_HUMANS:
        raise NotRatable("games against bots are casual: only games between people are rated")
    if rated and creator is not None and creator.is_guest and any(r.kind == Seat.Kind.HUMAN for r in seats):
        raise RatedNeedsAccount(RATED_NEEDS_ACCOUNT)
    state, opening_moves = _opening(game, opening)
    match = Match.objects.create(
        game=game_id,
        state=game.to_json(state),
        ply=len(opening_moves),
        opening_plies=len(opening_moves),
        created_by=creator,
        source=source,
        rated=rated,
        hints_allowed=hints,
        options=game.options,
        clock=clock.to_json() if clock else None,
        clock_ms=[clock.to_json()["initial_ms"]] * len(seats) if clock else None,
    )
    Move.objects.bulk_create(Move(match=match, ply=ply, **move) for ply, move in enumerate(opening_moves))
    creator_seated = bool(seated)
    waiting = list(seated)
    for index, request in enumerate(seats):
        seat = Seat(match=match, index=index, kind=request.kind)
        if request.kind == Seat.Kind.BOT:
            seat.bot_profile = request.bot_profile
            seat.bot_snapshot = request.bot_profile.snapshot()
        elif waiting:
            seat.player = waiting.pop(0)
            seat.bot_snapshot = bot_account_snapshot(seat.player)  # a bot account's moves say so; None for people
        elif creator is not None and not creator_seated:
            seat.player, creator_seated = creator, True
        seat.save()
    if not any(s.is_open for s in match.seats.all()):
        _start(match, game)
    lobby_after_commit(match)
    return match


def _opening(game: Game[Any], moves: Sequence[str]) -> tuple[Any, list[dict[str, Any]]]:
    """The position after `moves` from the start, and each move as stored: `BadMessage` if one is
    illegal, a chance event is due, or the game is over by its end."""
    state, stored = game.initial_state(), list[dict[str, Any]]()
    for move in moves:
        seat = game.to_move(state)
        if seat == CHANCE:
            raise BadMessage(f"{game.name}'s openings cannot hold its chance events")
        try:
            canonical = game.canonical_move(state, move)
            after = game.play(state, canonical)
        except IllegalMove as exc:
            raise BadMessage(f"opening move {move[:20]!r} at ply {len(stored)}: {exc}") from None
        notation = game.move_notation(state, canonical)
        stored.append({"seat": seat, "move": canonical, "notation": "" if notation == canonical else notation})
        state = after
    if moves and game.is_terminal(state):
        raise BadMessage("an opening leaves something to play")
    return state, stored


def configured_game(game_id: str, options: Mapping[str, object]) -> Game[Any]:
    """The game `options` configure (`Game.with_options`); `BadMessage` saying what is wrong with them."""
    try:
        return registry.get(game_id).with_options(options)
    except ValueError as exc:
        raise BadMessage(str(exc)) from exc


@transaction.atomic
def match_join(match_id: int, player: Player, seat_index: int | None = None) -> Match:
    """`player` takes an open seat (the first one unless `seat_index` says which)."""
    match = locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    seats = list(match.seats.all())
    if player.is_bot:
        raise HumanOnly("a bot account takes no open seat: it plays the challenges it accepts (docs/bots.md)")
    if any(s.player_id == player.pk for s in seats):
        raise SeatTaken("you already have a seat in this match")
    open_seats = [s for s in seats if s.is_open and (seat_index is None or s.index == seat_index)]
    if not open_seats:
        raise SeatTaken("no open seat" if seat_index is None else f"seat {seat_index} is not open")
    if match.rated and player.is_guest:
        raise RatedNeedsAccount(RATED_NEEDS_ACCOUNT)
    seat = open_seats[0]
    seat.player = player
    seat.save(update_fields=["player"])
    record(match, frames.seat_taken(seat_json(seat, match.game)))
    if not any(s.is_open for s in match.seats.all()):
        _start(match, match.rules())
    match.save()
    lobby_after_commit(match)
    return match


def _start(match: Match, game: Game[Any]) -> None:
    now = timezone.now()
    match.status = Match.Status.ACTIVE
    match.started_at = now
    state = game.from_json(match.state)
    play_chance(match, game, state)
    match.save()


def require_seat(match: Match, player_id: int | None) -> int:
    """The seat `player_id` holds in `match`; `not_seated` for spectators."""
    for seat in match.seats.all():
        if player_id is not None and seat.player_id == player_id:
            return seat.index
    raise NotSeated("you have no seat in this match: spectators watch, they don't move")

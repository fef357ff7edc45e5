"""Writes to matches.  `submit_move` is the one path every move takes, human or bot (DESIGN §4).

Each write runs in one transaction holding a row lock on the match; the frames it
produces are stored as events in that transaction and broadcast only after commit,
so nobody hears of a move that is not in the database.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import CHANCE, IllegalMove, registry
from games.base import Game, State
from server.matches import broadcast, presence
from server.matches.errors import (
    BadMessage,
    GameOver,
    IllegalMoveError,
    NoOffer,
    NotFound,
    NothingToTakeBack,
    NotSeated,
    NotYourTurn,
    OfferNotAllowed,
    OfferPending,
    SeatTaken,
    StalePly,
)
from server.matches.models import Match, MatchEvent, Move, Seat
from server.matches.selectors import by_json, clock_json, match_get, match_json, match_summary_json, seat_json
from server.matches.signals import match_finished, turn_started
from server.players.models import Player
from server.players.services import player_seen

_dice = secrets.SystemRandom()  # chance events are rolled from a secure source


@dataclass(frozen=True)
class SeatRequest:
    kind: str  # "human" or "bot"
    bot_profile: Any = None  # a bots.BotProfile for bot seats


# --- creating and joining -------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    """A time control: each seat starts with `minutes` and gains `increment` seconds per move."""

    minutes: float
    increment: int

    def to_json(self) -> dict[str, int]:
        return {"initial_ms": round(self.minutes * 60_000), "increment_ms": self.increment * 1000}


@transaction.atomic
def match_create(
    game_id: str,
    seats: list[SeatRequest],
    creator: Player | None,
    source: str = "play",
    clock: Clock | None = None,
    hints: bool = False,
) -> Match:
    """A new match; `creator` takes the first human seat.  Starts at once if no seat is open.

    `source` says where it came from ("play" on the site; "selfplay", "calibration", ...).
    `clock` is for games between people only; `hints` for one person against bots, unrated.
    """
    game = registry.get(game_id)
    if len(seats) != game.num_players:
        raise BadMessage(f"{game.name} is played by {game.num_players} seats, not {len(seats)}")
    has_bot = any(request.kind == Seat.Kind.BOT for request in seats)
    if clock is not None and has_bot:
        raise BadMessage("clocks are for games between people: bots have their own time budget")
    rated = not has_bot or settings.BOT_GAMES_RATED_FOR_HUMANS
    if hints and (not has_bot or sum(r.kind == Seat.Kind.HUMAN for r in seats) != 1):
        raise BadMessage("hints are for one person playing against bots: they would help against another person")
    if hints and rated:
        raise BadMessage("rated games never allow hints")
    match = Match.objects.create(
        game=game_id,
        state=game.to_json(game.initial_state()),
        created_by=creator,
        source=source,
        rated=rated,
        hints_allowed=hints,
        clock=clock.to_json() if clock else None,
        clock_ms=[clock.to_json()["initial_ms"]] * len(seats) if clock else None,
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
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise BadMessage("ply must be a non-negative integer: the number of moves already played")
    if not isinstance(move, str) or not move or len(move) > 200:
        raise BadMessage("move must be a non-empty string in the game's notation")
    try:
        with transaction.atomic():
            match = _locked(match_id)
            if not _flag_if_out_of_time(match):
                timing = MoveTiming(think_ms, queue_wait_ms, fallback)
                return _submit_locked(match, seat, move, ply, stats, position, timing)
            match.save()
    except IntegrityError:
        # The unique (match, ply) constraint: another submission for this ply won the race.
        raise StalePly(f"ply {ply} has already been played") from None
    raise GameOver("the match is over: out of time")


@dataclass(frozen=True)
class MoveTiming:
    """A bot move's own think time and queue wait, and why no search chose it (a fallback)."""

    think_ms: int | None = None  # None: from the turn's start (people)
    queue_wait_ms: int | None = None
    fallback: str = ""


def _submit_locked(
    match: Match,
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
    game = registry.get(match.game)
    state = game.from_json(match.state)
    try:
        new_state = game.play(state, move)
    except IllegalMove as exc:
        raise IllegalMoveError(str(exc)) from None
    stored = _store_move(match, game, seat, move, new_state, stats, timing)
    _play_chance(match, game, new_state)
    match.save()
    return stored


def _store_move(
    match: Match,
    game: Game,
    seat: int,
    move: str,
    new_state: State,
    stats: dict[str, Any] | None,
    timing: MoveTiming | None = None,
) -> Move:
    now = timezone.now()
    timing = timing or MoveTiming()
    think_ms = int((now - match.turn_started_at).total_seconds() * 1000) if match.turn_started_at else 0
    if timing.think_ms is not None:  # a bot's search time: its wait for a worker is not charged
        think_ms = timing.think_ms
    stored = Move.objects.create(
        match=match,
        ply=match.ply,
        seat=seat,
        move=move,
        think_ms=max(0, think_ms),
        stats=stats,
        queue_wait_ms=timing.queue_wait_ms,
        fallback=timing.fallback[:200],
    )
    if match.clock_ms is not None and seat != CHANCE:
        left = max(0, match.clock_ms[seat] - think_ms) + match.clock["increment_ms"]
        match.clock_ms = [left if i == seat else ms for i, ms in enumerate(match.clock_ms)]
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
        "fallback": stored.fallback or None,  # why no search chose this move; null for a searched or a person's move
    }
    if seat_obj is not None and seat_obj.kind == Seat.Kind.BOT:
        frame["queue_wait_ms"] = stored.queue_wait_ms
    if stats:
        frame["stats"] = stats
    if match.clock_ms is not None:
        frame["clock"] = clock_json(match, now)
    _record(match, frame)
    _cancel_offer_on_move(match, seat)
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


# --- takebacks and offers ---------------------------------------------------------

OFFER_KINDS = ("takeback", "draw")


@transaction.atomic
def match_takeback(match_id: int, seat: int) -> Match:
    """Against bots: `seat` takes back its last move and the replies after it, at once.

    Between people a takeback is a request the others answer (`match_offer`).
    """
    match = _locked(match_id)
    _require_live(match)
    if _other_humans(match, seat):
        raise OfferNotAllowed("between people a takeback is a request: the others accept or decline it")
    _take_back(match, seat)
    match.save()
    return match


@transaction.atomic
def match_offer(match_id: int, seat: int, kind: str) -> Match:
    """`seat` asks for a takeback or offers a draw; against bots alone a takeback is granted at once."""
    if kind not in OFFER_KINDS:
        raise BadMessage(f"an offer is one of {', '.join(OFFER_KINDS)}")
    match = _locked(match_id)
    _require_live(match)
    others = _other_humans(match, seat)
    if kind == "draw" and len(others) < match.seats.count() - 1:
        raise OfferNotAllowed("a bot does not agree to draws: play on or resign")
    if not others:  # only bots to ask: they let you
        _take_back(match, seat)
        match.save()
        return match
    if match.offer is not None:
        mine = match.offer["seat"] == seat
        raise OfferPending("your offer is still waiting" if mine else "answer the offer made to you first")
    if kind == "takeback" and not match.moves.filter(seat=seat).exists():
        raise NothingToTakeBack("you have not moved yet: there is nothing to take back")
    match.offer = {"kind": kind, "seat": seat, "ply": match.ply, "awaiting": others}
    _record(match, {"type": "offer", "offer": match.offer})
    match.save()
    return match


@transaction.atomic
def match_answer(match_id: int, seat: int, accept: bool) -> Match:
    """Accept or decline the offer waiting for `seat`; the offering seat may decline (withdraw) its own."""
    match = _locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    offer = match.offer
    if offer is None:
        raise NoOffer("there is no offer to answer (a move since may have cancelled it)")
    if seat == offer["seat"] and accept:
        raise NoOffer("you cannot accept your own offer; decline withdraws it")
    if seat != offer["seat"] and seat not in offer["awaiting"]:
        raise NoOffer("this offer is not waiting for your answer")
    awaiting = [s for s in offer["awaiting"] if s != seat] if accept else []
    match.offer = {**offer, "awaiting": awaiting} if awaiting else None
    frame = {"type": "offer_answered", "kind": offer["kind"], "seat": offer["seat"], "by": seat, "accepted": accept}
    _record(match, {**frame, "offer": match.offer})
    if accept and not awaiting:
        if offer["kind"] == "takeback":
            _take_back(match, offer["seat"])
        else:
            n = match.seats.count()
            _finish(match, {"returns": [0.0] * n, "winner": None, "reason": "draw agreed", "ranking": []})
    match.save()
    return match


def _require_live(match: Match) -> None:
    if match.is_over:
        raise GameOver("the match is over")
    if match.status == Match.Status.WAITING:
        raise OfferNotAllowed("the match has not started: a seat is still open")


def _other_humans(match: Match, seat: int) -> list[int]:
    return [s.index for s in match.seats.all() if s.index != seat and s.kind == Seat.Kind.HUMAN]


def _take_back(match: Match, seat: int) -> None:
    """Back to the position before `seat`'s last move: that move and every later one are deleted.

    The plies are numbered again from there (exactly once still holds: one Move per ply),
    and the state is replayed from the initial position through the game's rules.
    """
    last = match.moves.filter(seat=seat).order_by("-ply").first()
    if last is None:
        raise NothingToTakeBack("you have not moved yet: there is nothing to take back")
    game = registry.get(match.game)
    state = game.initial_state()
    for move in match.moves.filter(ply__lt=last.ply).order_by("ply").values_list("move", flat=True):
        state = game.apply(state, move)
    match.moves.filter(ply__gte=last.ply).delete()
    now = timezone.now()
    match.ply = last.ply
    match.state = game.to_json(state)
    match.to_move = game.to_move(state)
    match.turn_started_at = now
    match.offer = None
    frame = {
        "type": "takeback",
        "seat": seat,
        "ply": match.ply,
        "state": match.state,
        "to_move": match.to_move,
        "legal_moves": game.legal_moves(state),
    }
    if match.clock_ms is not None:
        frame["clock"] = clock_json(match, now)
    _record(match, frame)
    _announce_turn(match)


def _cancel_offer_on_move(match: Match, seat: int) -> None:
    """A move cancels a takeback request (the position changed) and a draw offer its answerer played on."""
    offer = match.offer
    if offer is None or (offer["kind"] == "draw" and seat not in offer["awaiting"]):
        return
    match.offer = None
    frame = {"type": "offer_answered", "kind": offer["kind"], "seat": offer["seat"], "by": seat, "accepted": False}
    _record(match, {**frame, "offer": None, "cancelled": "a move was played"})


# --- clocks and presence ------------------------------------------------------------


def _flag_if_out_of_time(match: Match, now=None) -> bool:
    """End the match "out of time" when the seat to move has used its time plus the grace."""
    if match.status != Match.Status.ACTIVE or match.clock_ms is None or match.to_move in (None, CHANCE):
        return False
    if match.turn_started_at is None:
        return False
    now = now or timezone.now()
    used_ms = (now - match.turn_started_at).total_seconds() * 1000
    if used_ms <= match.clock_ms[match.to_move] + settings.CLOCK_FLAG_GRACE_MS:
        return False
    seat = match.to_move
    match.clock_ms = [0 if i == seat else ms for i, ms in enumerate(match.clock_ms)]
    _forfeit(match, seat, "out of time")
    return True


def flag_fallen_clocks(now=None) -> int:
    """End every clocked match whose seat to move ran out of time; how many ended."""
    now = now or timezone.now()
    live = Match.objects.filter(status=Match.Status.ACTIVE, clock_ms__isnull=False, turn_started_at__isnull=False)
    grace = settings.CLOCK_FLAG_GRACE_MS
    overdue = [
        pk
        for pk, clock_ms, seat, started in live.values_list("pk", "clock_ms", "to_move", "turn_started_at")
        if seat is not None and seat >= 0 and (now - started).total_seconds() * 1000 > clock_ms[seat] + grace
    ]
    flagged = 0
    for match_id in overdue:  # checked again under the lock: a move may have come in meanwhile
        with transaction.atomic():
            match = _locked(match_id)
            if _flag_if_out_of_time(match, now):
                match.save()
                flagged += 1
    return flagged


def seat_presence(match_id: int, seat: int, online: bool, now=None) -> bool:
    """A human seat's sockets came or went; True (and a `presence` frame) when that changed."""
    return presence.seat_presence(match_id, seat, online, now)


def socket_arrived(match_id: int, player_id: int | None, now=None) -> tuple[bool, int | None]:
    """A match socket opened: whether the match exists, and the seat of `player_id` in it (or None).

    Everything its arrival writes, in one call (a connect storm pays one database round per
    socket, not one per write): a seated person's seat is online (their adjourned match
    resumes), and the person is seen and online.
    """
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    if status is None:
        return False, None
    seat = None
    if player_id is not None:
        seat = Seat.objects.filter(match_id=match_id, player_id=player_id).values_list("index", flat=True).first()
        if seat is not None:
            seat_presence(match_id, seat, True, now)
            if status == Match.Status.ADJOURNED:
                match_resume(match_id, seat, now)  # re-checks under the match's lock
        player_seen(player_id)
        person_presence(player_id, True, now)
    return True, seat


def person_presence(player_id: int, online: bool, now=None) -> None:
    """A person's first socket in this web process opened, or their last one here closed."""
    presence.person_presence(player_id, online, now)


def presence_heartbeat(seats: set[tuple[int, int]], people: Iterable[int] = (), now=None) -> None:
    """The (match id, seat) pairs and the people this process has sockets for are still here:
    refreshed in the presence store; the database hears only those the store had lost."""
    presence.heartbeat(seats, people, now)


LIVE_STATUSES = (Match.Status.WAITING, Match.Status.ACTIVE)


def presence_expire_stale(now=None) -> int:
    """Seats and people whose process stopped refreshing them (it died) go offline; returns how many seats."""
    return presence.expire_stale(now)


def _gone_since(seat: Seat, match: Match) -> Any:
    """When this human seat was last known to have a socket (the match's start if never)."""
    start = match.started_at or match.created_at
    return max(seat.last_seen_at or start, start)


def abandon_gone_seats(now=None) -> int:
    """Matches between people where a seat's sockets are gone past the grace: that seat loses.

    When every person is gone the match is aborted instead.  Returns how many matches ended.
    Stale seats (a dead process) are taken offline first by `presence_expire_stale`.
    """
    now = now or timezone.now()
    ended = 0
    since = now - timedelta(milliseconds=settings.ABANDON_GRACE_MS)
    candidates = Match.objects.filter(
        status=Match.Status.ACTIVE, seats__kind=Seat.Kind.HUMAN, seats__online=False
    ).distinct()
    for match in candidates.prefetch_related("seats"):
        humans = [s for s in match.seats.all() if s.kind == Seat.Kind.HUMAN]
        if len(humans) < 2:
            continue  # one person against bots: adjourned, never lost (`adjourn_gone_matches`)
        if not any(not s.online and _gone_since(s, match) < since for s in humans):
            continue
        with transaction.atomic():
            locked = _locked(match.pk)
            if locked.status != Match.Status.ACTIVE:
                continue
            humans = [s for s in locked.seats.all() if s.kind == Seat.Kind.HUMAN]
            gone = [s for s in humans if not s.online and _gone_since(s, locked) < since]
            if not gone:
                continue
            if len(gone) == len(humans):
                _abort(locked, "abandoned", now)
            else:
                _forfeit(locked, gone[0].index, "abandoned")
            locked.save()
            ended += 1
    return ended


def adjourn_gone_matches(now=None) -> int:
    """A match of one person against bots, whose person has had no socket and which has seen
    no move for `ADJOURN_AFTER_MS`, is adjourned: off the live list, kept, resumable.

    Only unclocked matches adjourn (clocks are for games between people: a clock decides
    those).  "No move for as long" means no bot search can still be running for it.
    Returns how many matches were adjourned.
    """
    now = now or timezone.now()
    since = now - timedelta(milliseconds=settings.ADJOURN_AFTER_MS)
    candidates = (
        Match.objects.filter(status=Match.Status.ACTIVE, clock__isnull=True, turn_started_at__lt=since)
        .filter(seats__kind=Seat.Kind.BOT)
        .filter(seats__kind=Seat.Kind.HUMAN, seats__online=False)
        .distinct()
    )
    adjourned = 0
    for match in candidates.prefetch_related("seats"):
        if not _person_gone(match, since):
            continue
        with transaction.atomic():
            locked = _locked(match.pk)
            if locked.status != Match.Status.ACTIVE or not locked.turn_started_at or locked.turn_started_at >= since:
                continue
            if not _person_gone(locked, since):
                continue
            locked.status, locked.adjourned_at = Match.Status.ADJOURNED, now
            _record_state(locked)
            locked.save()
            _after_commit_lobby(locked)
            adjourned += 1
    return adjourned


def _person_gone(match: Match, since: Any) -> bool:
    humans = [s for s in match.seats.all() if s.kind == Seat.Kind.HUMAN]
    return len(humans) == 1 and not humans[0].online and _gone_since(humans[0], match) < since


@transaction.atomic
def match_resume(match_id: int, seat: int, now=None) -> Match:
    """`seat`'s person is back: their adjourned match is active again, where it stopped.

    The turn starts again now (so does a bot's budget, so its search is queued afresh
    through `turn_started`).  A match that is running or waiting is left as it is.
    """
    match = _locked(match_id)
    if match.is_over:
        raise GameOver("the match is over: nothing to resume")
    if not any(s.index == seat and s.kind == Seat.Kind.HUMAN for s in match.seats.all()):
        raise NotSeated("you have no seat in this match: only its players resume it")
    if match.status != Match.Status.ADJOURNED:
        return match
    match.status, match.adjourned_at = Match.Status.ACTIVE, None
    match.turn_started_at = now or timezone.now()
    _record_state(match)
    match.save()
    _announce_turn(match)
    _after_commit_lobby(match)
    return match


def expire_open_matches(now=None) -> int:
    """A waiting match whose seated people have had no socket for `OPEN_MATCH_EXPIRE_MS`
    is aborted ("nobody joined"): its creator is gone, nobody would play it.  Returns how many."""
    now = now or timezone.now()
    since = now - timedelta(milliseconds=settings.OPEN_MATCH_EXPIRE_MS)
    expired = 0
    for match in Match.objects.filter(status=Match.Status.WAITING, created_at__lt=since).prefetch_related("seats"):
        if not _everyone_gone(match, since):
            continue
        with transaction.atomic():
            locked = _locked(match.pk)
            if locked.status != Match.Status.WAITING or not _everyone_gone(locked, since):
                continue
            _abort(locked, "nobody joined", now)
            locked.save()
            expired += 1
    return expired


def _everyone_gone(match: Match, since: Any) -> bool:
    seated = [s for s in match.seats.all() if s.kind == Seat.Kind.HUMAN and s.player_id is not None]
    return all(not s.online and (s.last_seen_at or match.created_at) < since for s in seated)


def _abort(match: Match, reason: str, now: Any) -> None:
    match.status = Match.Status.ABORTED
    match.offer = None
    match.finished_at, match.to_move = now, None
    match.result = {"returns": [], "winner": None, "reason": reason, "ranking": []}
    _record(match, {"type": "game_over", "result": match.result, "status": match.status})
    _after_commit_lobby(match)


def _record_state(match: Match) -> None:
    """Record the whole match as a `state` frame (its status changed: adjourned, resumed).

    It carries the version it is stored at, as every state frame does.
    """
    match.save()
    fresh = match_get(match.pk)
    _record(match, {"type": "state", "match": {**match_json(fresh), "v": match.v + 1}})


def _send_presence(match_id: int, seat: int, online: bool) -> None:
    presence.send_presence(match_id, seat, online)


# --- ending ---------------------------------------------------------------------


@transaction.atomic
def match_resign(match_id: int, seat: int) -> Match:
    match = _locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    if match.status == Match.Status.WAITING:
        return match_abort(match_id, "abandoned before it started")
    _forfeit(match, seat, "resigned")
    match.save()
    return match


def _forfeit(match: Match, seat: int, reason: str) -> None:
    """`seat` loses (resigned, out of time, abandoned); the others share the win (zero-sum)."""
    n = match.seats.count()
    returns = [1.0 / (n - 1)] * n
    returns[seat] = -1.0
    winner = 1 - seat if n == 2 else None
    ranking = [i for i in range(n) if i != seat] + [seat]
    _finish(match, {"returns": returns, "winner": winner, "reason": reason, "ranking": ranking})


@transaction.atomic
def match_abort(match_id: int, reason: str) -> Match:
    match = _locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    match.status = Match.Status.ABORTED
    match.offer = None
    match.finished_at = timezone.now()
    match.to_move = None
    match.result = {"returns": [], "winner": None, "reason": reason, "ranking": []}
    _record(match, {"type": "game_over", "result": match.result, "status": match.status})
    match.save()
    _after_commit_lobby(match)
    return match


def _finish(match: Match, result: dict[str, Any]) -> None:
    match.offer = None
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


@transaction.atomic
def match_log(match_id: int, ply: int, frame: dict[str, Any]) -> Match:
    """Record `frame` (a hint, say) in the match's event log at `ply`; refused once the match moved on."""
    match = _locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    if match.ply != ply:
        raise StalePly(f"ply {ply} is not the current ply {match.ply}; sync to catch up")
    _record(match, frame)
    match.save(update_fields=["v"])
    return match


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

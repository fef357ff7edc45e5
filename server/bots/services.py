"""Bot turns: read the match, search, submit through the one move path (docs/design.md §4).

A turn is idempotent: a duplicate or late delivery for a ply already played does
nothing, and a move computed for a position that is no longer current is dropped.
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone

import ai
from games import CHANCE, registry
from server.bots import adaptive
from server.bots.models import AdaptiveStrength, BotTurnRecord
from server.bots.turn import BotTurn, ThinkingReporter, compute_move
from server.matches import broadcast, frames
from server.matches.errors import MatchError
from server.matches.models import Match, MatchEvent, Seat
from server.matches.services import match_resign_offer, submit_move

log = logging.getLogger("plyground.bots")

# The `ai.SearchConfig` fields a seat's bot snapshot carries (the seed is set per turn).
CONFIG_FIELDS = tuple(f.name for f in dataclasses.fields(ai.SearchConfig) if f.name != "seed")


def turn_seed(match_id: int, ply: int) -> int:
    """Deterministic per match and ply, so a logged game can be searched again identically."""
    return (match_id * 1_000_003 + ply * 7919) % 2**31


def bot_seat_to_move(match_id: int, ply: int) -> tuple[Match, Seat] | None:
    """The match and its bot seat, if a bot is to move at exactly `ply`; None otherwise."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or match.ply != ply:
        return None
    seat = match.seats.filter(index=match.to_move, kind=Seat.Kind.BOT).first()  # type: ignore[misc]  # no seat has index None: no bot found
    return (match, seat) if seat is not None else None


def budget_ms_of(seat: Seat) -> int:
    return int((seat.bot_snapshot or {}).get("time_budget_ms") or 1000)


def bot_turn_prepare(match_id: int, ply: int, deadline: float, queued_at: float) -> BotTurn | None:
    """The search to run for the bot to move at `ply`, or None when no bot is to move there."""
    found = bot_seat_to_move(match_id, ply)
    if found is None:
        return None
    return _turn_for(*found, deadline, queued_at, queued_at)


def _turn_for(match: Match, seat: Seat, deadline: float, queued_at: float, started_at: float) -> BotTurn:
    match_id, ply = match.pk, match.ply
    snapshot = seat.bot_snapshot or {}
    config = {k: snapshot[k] for k in CONFIG_FIELDS if k in snapshot}
    config["seed"] = turn_seed(match_id, ply)
    notes: dict[str, Any] = {}
    # The match id lets MCTS reuse its tree from move to move and models remember the opponent;
    # the seat too: two bots in one match never share a tree, whatever their settings.
    config["options"] = {**(config.get("options") or {}), "match_id": match_id, "seat": seat.index}
    if config.get("opponent_model") == "adaptive":
        config["options"]["opponent_moves"] = opponent_moves(match, seat.index)
    if snapshot.get("adaptive"):
        strength = adaptive_strength_now(match, seat)
        config = adaptive.config_for(config, strength)
        notes["adaptive_strength"] = round(strength, 3)
    min_think = min(snapshot.get("min_think_ms") or 0, snapshot.get("time_budget_ms") or 0)
    return BotTurn(
        match_id,
        ply,
        seat.index,
        match.game,
        match.state,
        config,
        deadline,
        queued_at,
        min_think,
        notes,
        started_at,
        match.options or {},
    )


def opponent_moves(match: Match, bot_seat: int, last: int = 40) -> list[dict[str, Any]]:
    """The other seats' moves in this match with the position each was played in (for opponent models)."""
    game = match.rules()
    state = game.initial_state()
    seen = []
    for seat, move in match.moves.order_by("ply").values_list("seat", "move"):
        if seat not in (bot_seat, CHANCE):
            seen.append({"state": game.to_json(state), "move": move})
        state = game.apply(state, move)
    return seen[-last:]


def adaptive_strength_now(match: Match, seat: Seat) -> float:
    """The strength against the match's human opponent, eased or tightened by the bot's last evaluation."""
    opponent = match.seats.filter(kind=Seat.Kind.HUMAN, player__isnull=False).first()
    stored = None
    if opponent is not None and seat.bot_profile_id is not None:
        stored = AdaptiveStrength.objects.filter(profile_id=seat.bot_profile_id, player_id=opponent.player_id).first()  # type: ignore[misc]  # `player__isnull=False` above
    strength = stored.strength if stored else adaptive.clamp(0.5)
    last = match.moves.filter(seat=seat.index).order_by("-ply").values_list("stats", flat=True).first()
    last_value = (last or {}).get("value") if isinstance(last, dict) else None
    return adaptive.in_match_strength(strength, last_value, match.rules().max_utility)


def adaptive_strengths_update(match_id: int) -> int:
    """After a match: move each adaptive bot's strength against each human it played."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None or not match.result or not match.result.get("returns"):
        return 0
    returns = match.result["returns"]
    seats = list(match.seats.all())
    bots = [s for s in seats if s.kind == Seat.Kind.BOT and (s.bot_snapshot or {}).get("adaptive") and s.bot_profile_id]
    humans = [s for s in seats if s.kind == Seat.Kind.HUMAN and s.player_id]
    updated = 0
    for bot in bots:
        for human in humans:
            diff = returns[human.index] - returns[bot.index]
            score = 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
            row, _ = AdaptiveStrength.objects.get_or_create(profile_id=bot.bot_profile_id, player_id=human.player_id)  # type: ignore[misc]  # people's seats: a player each
            row.strength = adaptive.strength_after(row.strength, score)
            row.games += 1
            row.player_score += score
            row.save()
            updated += 1
    return updated


def bot_turn_finish(turn: BotTurn, stats: dict[str, Any]) -> bool:
    """Submit the computed move; False when the position moved on meanwhile (then it is dropped).

    The position goes with the ply: after a takeback the same ply number can come back
    with another position on the board, and a move searched for the old one must not land there.
    The move's think time is the search's (from its start to its move), and the time the
    turn waited for a worker is its queue wait: an outage or a busy worker is not thinking.
    """
    stats = dict(stats)
    think_ms = stats.pop("think_ms", None)
    queued_ms = stats.get("queued_ms")
    try:
        submit_move(
            turn.match_id,
            turn.seat,
            stats["move"],
            turn.ply,
            stats=stats,
            position=turn.state,
            think_ms=None if think_ms is None else max(0, round(think_ms)),
            queue_wait_ms=None if queued_ms is None else max(0, round(queued_ms)),
        )
    except MatchError as exc:
        log.info("bot move for match %s ply %s dropped: %s", turn.match_id, turn.ply, exc.message)
        return False
    if registry.get(turn.game).resignation_levels:
        bot_resigns_if_lost(turn.match_id, turn.seat)
    return True


def bot_resigns_if_lost(match_id: int, seat: int) -> None:
    """After its move, a bot whose game is lost offers a person its resignation (`ai.resign`: the
    smallest level the person should accept), once a match: a person who declines it, or plays on,
    wants the game played out.  Nor to bots, house bots or bot accounts: their games measure strength."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE, offer__isnull=True).first()
    if match is None:
        return
    game = match.rules()
    people = match.seats.filter(kind=Seat.Kind.HUMAN, player__bot_owner__isnull=True).exclude(index=seat)
    if not game.resignation_levels or not people.exists() or _declined_before(match_id, seat):
        return
    level = ai.resignation_to_offer(game, game.from_json(match.state), seat)
    if level is None:
        return
    try:
        match_resign_offer(match_id, seat, level)
    except MatchError as exc:  # a move or an offer came first
        log.info("bot resignation in match %s not offered: %s", match_id, exc.message)


def _declined_before(match_id: int, seat: int) -> bool:
    answers = MatchEvent.objects.filter(
        match_id=match_id, frame__type="offer_answered", frame__kind="resign", frame__seat=seat
    ).exclude(frame__by=seat)
    return answers.exists()


def bot_turn_run(match_id: int, ply: int, token: str = "") -> bool:
    """The whole turn in this process: what a Celery worker and the inline runner do."""
    send = thinking_sender(match_id)
    turn = bot_turn_begin(match_id, ply, token, send)
    if turn is None:
        return False
    return bot_turn_finish(turn, compute_move(turn, on_progress=ThinkingReporter(turn, send)))


def thinking_sender(match_id: int) -> Callable[[dict[str, Any]], None]:
    """Where a bot's thinking frames go from this process: the match's sockets."""
    group = broadcast.match_group(match_id)
    return lambda frame: broadcast.send_to_group(group, frame)


# --- a bot turn's timing: queued, then searched ------------------------------------


def bot_turn_queued(match_id: int, ply: int, budget_ms: int, now: datetime | None = None) -> BotTurnRecord:
    """Record that the turn at `ply` waits for a worker from now (again, after a takeback)."""
    record, _ = BotTurnRecord.objects.update_or_create(
        match_id=match_id,
        ply=ply,
        defaults={
            "budget_ms": budget_ms,
            "queued_at": now or timezone.now(),
            "started_at": None,
            "searches": 0,
            "search_token": "",
            "requeued_at": None,
        },
    )
    return record


def trim_bot_turn_records(now: datetime | None = None, keep: timedelta = timedelta(hours=1), batch: int = 5000) -> int:
    """Delete the turn records of matches that ended, once older than `keep`; returns how many.

    A record serves only while its match is played (the watchdog, the thinking status):
    the move keeps its own timing.  Recent ones stay for the watchdog's "has any worker
    started a search lately" look.  At most `batch` a call, so a backlog never holds a
    long lock.
    """
    before = (now or timezone.now()) - keep
    ended = (Match.Status.FINISHED, Match.Status.ABORTED)
    ids = list(
        BotTurnRecord.objects.filter(match__status__in=ended, queued_at__lt=before).values_list("pk", flat=True)[:batch]
    )
    return BotTurnRecord.objects.filter(pk__in=ids).delete()[0] if ids else 0


def bot_turn_announce(match_id: int, seat: int, ply: int) -> None:
    """`bot_queued`: the bot's turn waits for a free worker; its budget has not started."""
    broadcast.send_to_group(broadcast.match_group(match_id), frames.bot_queued(seat, ply))


def bot_turn_claim(
    match_id: int, ply: int, token: str, budget_ms: int, now: datetime | None = None
) -> BotTurnRecord | None:
    """Start the turn's search now, or None when another search of it is running.

    The same task delivered again (its worker died) takes over at once; a second task
    for the turn (the watchdog's) stands aside while the first one is within its budget
    plus the grace, and takes over after that.
    """
    now = now or timezone.now()
    grace = timedelta(milliseconds=settings.BOT_WATCHDOG_GRACE_MS)
    with transaction.atomic():
        record = BotTurnRecord.objects.select_for_update().filter(match_id=match_id, ply=ply).first()
        if record is None:  # queued before it could be recorded: its wait is unknown, it starts now
            record = BotTurnRecord(match_id=match_id, ply=ply, budget_ms=budget_ms, queued_at=now)
        elif (
            record.started_at is not None
            and token != record.search_token
            and now < record.started_at + timedelta(milliseconds=record.budget_ms) + grace
        ):
            return None
        record.started_at, record.search_token = now, token
        record.searches += 1
        record.save()
    return record


def bot_turn_begin(match_id: int, ply: int, token: str, send: Callable[[dict[str, Any]], None]) -> BotTurn | None:
    """A worker starts the turn: its budget runs from now, and the match hears `bot_thinking`.

    None when no bot is to move at `ply` (played, resigned, taken back) or when another
    search of this turn is running.
    """
    found = bot_seat_to_move(match_id, ply)
    if found is None:
        return None
    match, seat = found
    budget_ms = budget_ms_of(seat)
    record = bot_turn_claim(match_id, ply, token, budget_ms)
    if record is None:
        log.info("bot turn %s/%s: another search is running, this one stands aside", match_id, ply)
        return None
    assert record.started_at is not None  # a claimed turn has started
    started = record.started_at.timestamp()
    send(frames.bot_thinking(seat.index, ply, budget_ms))
    return _turn_for(match, seat, started + budget_ms / 1000, record.queued_at.timestamp(), started)


# --- the watchdog: a match never hangs waiting for a bot, and never pretends ------------


@dataclass(frozen=True)
class Rescue:
    """What the watchdog does for one bot turn: queue it (again), or play a fallback move."""

    match_id: int
    ply: int
    action: str  # "queue" (never queued), "requeue" or "fallback"
    reason: str
    seat: int
    source: str
    lost_search: bool = False  # a search started and never answered: players see the bot waiting again


FALLBACK_LOST_TWICE = "the search was lost twice: no worker answered"
FALLBACK_NO_WORKER = "no worker started a search in {s} s"


def bot_turns_to_rescue(now: datetime | None = None) -> list[Rescue]:
    """The bot turns the watchdog acts on now, by these rules (a turn is one match's ply):

    - queued and not started (every worker busy): never overdue, players see it waiting.
      Queued once more every ``BOT_REQUEUE_MS`` while it waits, in case its message was
      lost (a Redis restart); the copy stands aside if the first one starts.
    - started and not answered by start + budget + grace (its worker died): queued once
      more, a real search again;
    - a fallback move only when that second search is lost too, or when the turn has
      waited ``BOT_QUEUE_CAP_MS`` without any bot search starting anywhere in that time
      (no worker alive);
    - never recorded as queued (the web process stopped between the commit and the
      queueing): queued after the grace.
    """
    now = now or timezone.now()
    grace = timedelta(milliseconds=settings.BOT_WATCHDOG_GRACE_MS)
    requeue = timedelta(milliseconds=settings.BOT_REQUEUE_MS)
    cap = timedelta(milliseconds=settings.BOT_QUEUE_CAP_MS)
    found: list[Rescue] = []
    # Only the bot seats to move, and their matches without the position: this runs every second.
    to_move = (
        Seat.objects.filter(kind=Seat.Kind.BOT, index=models.F("match__to_move"), match__status=Match.Status.ACTIVE)
        .select_related("match")
        .defer("match__state")
    )
    bots = {(seat.match.pk, seat.match.ply): (seat.match, seat) for seat in to_move}
    if not bots:
        return found
    records = {
        (r.match_id, r.ply): r
        for r in BotTurnRecord.objects.filter(match_id__in={k[0] for k in bots}, ply__in={k[1] for k in bots})
    }
    workers_silent = None
    for key, (match, seat) in bots.items():
        record = records.get(key)

        def rescue(action: str, reason: str, lost: bool = False) -> None:
            found.append(Rescue(key[0], key[1], action, reason, seat.index, match.source, lost))  # noqa: B023

        turn_start = match.turn_started_at or now
        if record is None or record.queued_at < turn_start - grace:
            if now > turn_start + grace:
                rescue("queue", "the turn was never queued")
            continue
        requeued_since_start = record.requeued_at is not None and record.requeued_at > (record.started_at or now)
        if record.started_at is None or requeued_since_start:  # waiting for a worker
            if now - record.queued_at > cap:
                if workers_silent is None:
                    workers_silent = not BotTurnRecord.objects.filter(started_at__gt=now - cap).exists()
                if workers_silent:
                    rescue("fallback", FALLBACK_NO_WORKER.format(s=round(cap.total_seconds())))
                    continue
            if now - (record.requeued_at or record.queued_at) > requeue:
                rescue("requeue", "still waiting for a worker: queued again in case its message was lost")
            continue
        if now > record.started_at + timedelta(milliseconds=record.budget_ms) + grace:
            if record.searches >= 2:
                rescue("fallback", FALLBACK_LOST_TWICE)
            else:
                rescue("requeue", "its search was lost: queued once more", lost=True)
    return found


def bot_turn_requeued(match_id: int, ply: int, now: datetime | None = None) -> None:
    BotTurnRecord.objects.filter(match_id=match_id, ply=ply).update(requeued_at=now or timezone.now())


def bot_turn_fallback(match_id: int, ply: int, reason: str = FALLBACK_LOST_TWICE) -> bool:
    """Play a quick legal move for a bot whose search never answered, marked as a fallback with `reason`."""
    found = bot_seat_to_move(match_id, ply)
    if found is None:
        return False
    match, seat = found
    game = match.rules()
    moves = game.legal_moves(game.from_json(match.state))
    move = random.Random(turn_seed(match_id, ply)).choice(moves)
    log.warning("bot in match %s missed ply %s (%s): playing fallback move %s", match_id, ply, reason, move)
    record = BotTurnRecord.objects.filter(match_id=match_id, ply=ply).first()
    waited = None
    if record is not None:
        waited = ((record.started_at or timezone.now()) - record.queued_at).total_seconds() * 1000
    try:
        submit_move(
            match_id,
            seat.index,
            move,
            ply,
            fallback=reason,
            think_ms=0,
            queue_wait_ms=None if waited is None else max(0, round(waited)),
        )
    except MatchError:
        return False
    return True

"""Bot turns: read the match, search, submit through the one move path (DESIGN §4).

A turn is idempotent: a duplicate or late delivery for a ply already played does
nothing, and a move computed for a position that is no longer current is dropped.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

import ai
from games import CHANCE, registry
from server.bots import adaptive
from server.bots.engine import BotTurn, ThinkingReporter, compute_move
from server.bots.models import AdaptiveStrength
from server.matches import broadcast
from server.matches.errors import MatchError
from server.matches.models import Match, Seat
from server.matches.services import submit_move

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
    seat = match.seats.filter(index=match.to_move, kind=Seat.Kind.BOT).first()
    return (match, seat) if seat is not None else None


def bot_turn_prepare(match_id: int, ply: int, deadline: float, queued_at: float) -> BotTurn | None:
    found = bot_seat_to_move(match_id, ply)
    if found is None:
        return None
    match, seat = found
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
    return BotTurn(match_id, ply, seat.index, match.game, match.state, config, deadline, queued_at, min_think, notes)


def opponent_moves(match: Match, bot_seat: int, last: int = 40) -> list[dict[str, Any]]:
    """The other seats' moves in this match with the position each was played in (for opponent models)."""
    game = registry.get(match.game)
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
        stored = AdaptiveStrength.objects.filter(profile_id=seat.bot_profile_id, player_id=opponent.player_id).first()
    strength = stored.strength if stored else adaptive.clamp(0.5)
    last = match.moves.filter(seat=seat.index).order_by("-ply").values_list("stats", flat=True).first()
    last_value = (last or {}).get("value") if isinstance(last, dict) else None
    return adaptive.in_match_strength(strength, last_value, registry.get(match.game).max_utility)


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
            row, _ = AdaptiveStrength.objects.get_or_create(profile_id=bot.bot_profile_id, player_id=human.player_id)
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
    """
    try:
        submit_move(turn.match_id, turn.seat, stats["move"], turn.ply, stats=stats, position=turn.state)
    except MatchError as exc:
        log.info("bot move for match %s ply %s dropped: %s", turn.match_id, turn.ply, exc.message)
        return False
    return True


def bot_turn_run(match_id: int, ply: int, deadline: float, queued_at: float) -> bool:
    """The whole turn in this process: what a Celery worker and the inline runner do."""
    turn = bot_turn_prepare(match_id, ply, deadline, queued_at)
    if turn is None:
        return False
    return bot_turn_finish(turn, compute_move(turn, on_progress=ThinkingReporter(turn, thinking_sender(turn.match_id))))


def thinking_sender(match_id: int) -> Callable[[dict[str, Any]], None]:
    """Where a bot's thinking frames go from this process: the match's sockets."""
    group = broadcast.match_group(match_id)
    return lambda frame: broadcast.send_to_group(group, frame)


def bot_turn_announce(match_id: int, seat: Seat, ply: int) -> None:
    budget = (seat.bot_snapshot or {}).get("time_budget_ms")
    frame = {"type": "bot_thinking", "seat": seat.index, "ply": ply, "budget_ms": budget}
    broadcast.send_to_group(broadcast.match_group(match_id), frame)


# --- the watchdog: a match never hangs waiting for a bot ---------------------------


def overdue_bot_turns(now=None) -> list[tuple[int, int]]:
    """(match id, ply) of bot turns past their budget plus the grace."""
    now = now or timezone.now()
    grace = timedelta(milliseconds=settings.BOT_WATCHDOG_GRACE_MS)
    overdue = []
    candidates = Match.objects.filter(status=Match.Status.ACTIVE, turn_started_at__lt=now - grace)
    for match in candidates.prefetch_related("seats"):
        seat = next((s for s in match.seats.all() if s.index == match.to_move and s.kind == Seat.Kind.BOT), None)
        if seat is None:
            continue
        budget = timedelta(milliseconds=(seat.bot_snapshot or {}).get("time_budget_ms", 1000))
        if match.turn_started_at + budget + grace < now:
            overdue.append((match.pk, match.ply))
    return overdue


def bot_turn_fallback(match_id: int, ply: int) -> bool:
    """Play a quick legal move for a bot whose search never answered."""
    found = bot_seat_to_move(match_id, ply)
    if found is None:
        return False
    match, seat = found
    game = registry.get(match.game)
    moves = game.legal_moves(game.from_json(match.state))
    move = random.Random(turn_seed(match_id, ply)).choice(moves)
    log.warning("bot in match %s missed ply %s: playing fallback move %s", match_id, ply, move)
    stats = {"algorithm": "random", "move": move, "fallback": True, "reason": "no search answered by the deadline"}
    try:
        submit_move(match_id, seat.index, move, ply, stats=stats)
    except MatchError:
        return False
    return True


def deadline_for(seat: Seat) -> tuple[float, float]:
    """(queued_at, deadline) in epoch seconds for a turn starting now."""
    now = time.time()
    return now, now + (seat.bot_snapshot or {}).get("time_budget_ms", 1000) / 1000

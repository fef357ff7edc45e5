"""What runs tournaments unattended: starting, pairing, recording results, finishing.

Two things drive it, and both come here under the tournament's row lock, so either may run
any number of times, and at once, with the same outcome:

- the tick (`tick`), every `TOURNAMENT_TICK_MS` from Celery beat in the full stack and from
  the web process in embedded mode: tournaments whose start came are started, and every running
  one is advanced (its ended matches recorded, its next round or arena games paired);
- the end of a tournament's match (`match_ended`, on `match_finished`): its result is recorded
  and the tournament advanced at once, so the next round does not wait for the tick.

A tournament's games are ordinary matches (`match_create`), linked by their `Pairing`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from server.agents import frames as agent_frames
from server.agents.events import tell_after_commit
from server.matches.models import Match, Move
from server.matches.services import Clock, SeatRequest, match_create
from server.tournaments import announce
from server.tournaments.models import Entrant, Pairing, Tournament
from server.tournaments.pairing import ArenaEntrant, SwissEntrant, arena_pairs, berger_rounds, swiss_round
from server.tournaments.services import locked
from server.tournaments.standings import Played, standings

log = logging.getLogger("plyground.tournaments")
WIN, DRAW, LOSS = 2, 1, 0  # half points


@dataclass
class TickResult:
    started: int = 0
    cancelled: int = 0
    paired: int = 0  # pairings made (byes included)
    recorded: int = 0  # results recorded by the tick (the end of a match records its own at once)
    finished: int = 0


def tick(now: datetime | None = None) -> TickResult:
    """One pass over every tournament that is due or running; what it did."""
    now = now or timezone.now()
    done = TickResult()
    due = Tournament.objects.filter(status=Tournament.Status.SCHEDULED, starts_at__lte=now).values_list("pk", flat=True)
    for tournament_id in list(due):
        with transaction.atomic():
            tournament = locked(tournament_id)
            if tournament.status == Tournament.Status.SCHEDULED and tournament.starts_at <= now:
                _start(tournament, now, done)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list("pk", flat=True)
    for tournament_id in list(running):
        with transaction.atomic():
            tournament = locked(tournament_id)
            if tournament.status == Tournament.Status.RUNNING:
                _advance(tournament, now, done)
    return done


def match_ended(match_id: int) -> None:
    """A match ended: if it is a tournament's, record its result and advance the tournament."""
    tournament_id = Pairing.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.status == Tournament.Status.RUNNING:
            _advance(tournament, timezone.now(), TickResult())


# --- starting and finishing ---------------------------------------------------------------


def _start(tournament: Tournament, now: datetime, done: TickResult) -> None:
    entrants = _active(tournament)
    announce.after_commit(tournament.pk)
    if len(entrants) < 2:
        tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, now
        tournament.save(update_fields=["status", "finished_at"])
        done.cancelled += 1
        log.info("tournament %s cancelled: %d entrant(s) at its start", tournament.pk, len(entrants))
        return
    tournament.status, tournament.started_at = Tournament.Status.RUNNING, now
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        tournament.rounds = len(berger_rounds([e.pk for e in entrants]))
    if tournament.kind == Tournament.Kind.ARENA:
        tournament.ends_at = now + timedelta(minutes=tournament.minutes or 0)
    tournament.save()
    done.started += 1
    _advance(tournament, now, done)


def _finish(tournament: Tournament, now: datetime, done: TickResult) -> None:
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, now
    tournament.save(update_fields=["status", "finished_at"])
    announce.after_commit(tournament.pk)
    done.finished += 1


# --- advancing --------------------------------------------------------------------------


def _advance(tournament: Tournament, now: datetime, done: TickResult) -> None:
    """Record what ended; then pair what may be paired, or finish."""
    pending = list(Pairing.objects.filter(tournament=tournament, white_score__isnull=True).select_related("match"))
    ended = [p for p in pending if p.match is not None and p.match.is_over]
    for pairing in ended:
        assert pairing.match is not None
        _record(pairing, pairing.match, now)
    done.recorded += len(ended)
    if ended:
        announce.after_commit(tournament.pk)
    still_playing = [p for p in pending if not p.done]
    if tournament.kind == Tournament.Kind.ARENA:
        _advance_arena(tournament, now, still_playing, done)
    elif not still_playing:
        if tournament.round >= (tournament.rounds or 0) or len(_active(tournament)) < 2:
            _finish(tournament, now, done)  # its last round, or everyone else withdrew
        else:
            _next_round(tournament, now, done)


def _next_round(tournament: Tournament, now: datetime, done: TickResult) -> None:
    tournament.round += 1
    tournament.save(update_fields=["round"])
    announce.after_commit(tournament.pk)
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        seeded = _seeded(tournament)
        pairs = berger_rounds([e.pk for e in seeded])[tournament.round - 1]
        by_id = {e.pk: e for e in seeded}
        made = [_pair(tournament, by_id[white], by_id[black], now) for white, black in pairs]
        done.paired += len(made)
        if not any(p.match_id for p in made):
            _advance(tournament, now, done)  # every game of the round forfeited: the next one at once
        return
    active = {e.pk: e for e in _active(tournament)}
    round_ = swiss_round(_swiss_entrants(tournament, active))
    for white, black in round_.pairs:
        _pair(tournament, active[white], active[black], now)
        done.paired += 1
    if round_.bye is not None:
        Pairing.objects.create(
            tournament=tournament,
            round=tournament.round,
            white=active[round_.bye],
            white_score=WIN,
            note="bye",
            finished_at=now,
        )
        done.paired += 1
    if not round_.pairs:
        _advance(tournament, now, done)  # a round of byes only ends at once


def _advance_arena(tournament: Tournament, now: datetime, playing: list[Pairing], done: TickResult) -> None:
    """Pair everyone waiting until the end; after it, finish once the last games have ended."""
    assert tournament.ends_at is not None  # set at the start
    if now >= tournament.ends_at:
        if not playing:
            _finish(tournament, now, done)
        return
    busy = {p.white_id for p in playing} | {p.black_id for p in playing if p.black_id is not None}
    waiting = [e for e in _active(tournament) if e.pk not in busy]
    if len(waiting) < 2:
        return
    pairings = list(Pairing.objects.filter(tournament=tournament).order_by("created_at", "pk"))
    last: dict[int, int] = {}
    for p in pairings:
        if p.black_id is not None:
            last[p.white_id], last[p.black_id] = p.black_id, p.white_id
    ratings = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "rating"))
    rows = standings(True, ratings, [_played(p) for p in pairings if p.done])
    points = {row.entrant: row.points for row in rows}
    by_id = {e.pk: e for e in waiting}
    candidates = [ArenaEntrant(e.pk, points.get(e.pk, 0), e.rating, last.get(e.pk)) for e in waiting]
    for white, black in arena_pairs(candidates, others_playing=bool(playing)):
        _pair(tournament, by_id[white], by_id[black], now)
        done.paired += 1


# --- pairing a game -----------------------------------------------------------------------


def _pair(tournament: Tournament, white: Entrant, black: Entrant, now: datetime) -> Pairing:
    """A pairing and its match: an ordinary match, rated where such a game counts today."""
    if white.withdrawn or black.withdrawn:  # a round robin's game against a withdrawn entrant: forfeited
        scores = (LOSS if white.withdrawn else WIN, LOSS if black.withdrawn else WIN)
        return Pairing.objects.create(
            tournament=tournament,
            round=tournament.round,
            white=white,
            black=black,
            white_score=scores[0],
            black_score=scores[1],
            note="withdrawn",
            finished_at=now,
        )
    seats = [_seat(white), _seat(black)]
    people = [e.player for e in (white, black) if e.player is not None]
    minutes, increment = tournament.clock.split("+")
    match = match_create(
        tournament.game,
        seats,
        None,
        clock=Clock(float(minutes), int(increment)),
        rated=_rated(tournament, white, black),
        seated=people,
    )
    for index, entrant in enumerate((white, black)):
        if entrant.player is not None and entrant.player.is_bot:  # a bot account hears its game start
            tell_after_commit(entrant.player.pk, agent_frames.game_start(match.pk, match.game, index))
    return Pairing.objects.create(tournament=tournament, round=tournament.round, white=white, black=black, match=match)


def _seat(entrant: Entrant) -> SeatRequest:
    if entrant.bot_profile is not None:
        return SeatRequest("bot", entrant.bot_profile)
    return SeatRequest("human")


def _rated(tournament: Tournament, white: Entrant, black: Entrant) -> bool:
    """Rated where the same match outside the tournament would be: between people with accounts,
    against a house bot only where `BOT_GAMES_RATED_FOR_HUMANS` says so, never between bots
    (bot accounts' games are casual, house bots are rated by calibration)."""
    if not tournament.rated:
        return False
    people = [e for e in (white, black) if e.player is not None and not e.player.is_bot]
    house_bots = [e for e in (white, black) if e.bot_profile is not None]
    if any(e.player.is_guest for e in people if e.player is not None):
        return False
    if len(people) == 2:
        return True
    return len(people) == 1 and len(house_bots) == 1 and bool(settings.BOT_GAMES_RATED_FOR_HUMANS)


# --- recording a result -------------------------------------------------------------------


def _record(pairing: Pairing, match: Match, now: datetime) -> None:
    """The pairing's scores from its match's end.

    A finished match scores as it ended (win, draw, loss).  An aborted one, which has no
    result: the entrant who never moved (the first-move watch aborts a match whose person made
    no first move, docs/design.md §7) loses it and is withdrawn, as lichess withdraws an absent
    player; when both moved (everyone left) or neither could be told apart, both lose.
    """
    if match.status == Match.Status.FINISHED and match.result:
        returns = match.result.get("returns") or [0.0, 0.0]
        white, black = returns[0], returns[1]
        pairing.white_score = WIN if white > black else DRAW if white == black else LOSS
        pairing.black_score = 2 - pairing.white_score
    else:
        moved = set(Move.objects.filter(match=match, seat__gte=0).values_list("seat", flat=True))
        absent = 0 if 0 not in moved else 1 if 1 not in moved else None
        reason = (match.result or {}).get("reason") or "aborted"
        pairing.note = str(reason)[:40]
        if absent is None:
            pairing.white_score, pairing.black_score = LOSS, LOSS
        else:
            pairing.white_score, pairing.black_score = (LOSS, WIN) if absent == 0 else (WIN, LOSS)
            gone = pairing.white if absent == 0 else pairing.black
            assert gone is not None
            if gone.bot_profile is None:  # a house bot always moves: only people and bot accounts are absent
                Entrant.objects.filter(pk=gone.pk).update(withdrawn=True)
    pairing.finished_at = now
    pairing.save(update_fields=["white_score", "black_score", "note", "finished_at"])


def _played(p: Pairing) -> Played:
    return Played(p.white_id, p.black_id, p.white_score or 0, p.black_score or 0)


# --- who plays ----------------------------------------------------------------------------


def _active(tournament: Tournament) -> list[Entrant]:
    return [e for e in _seeded(tournament) if not e.withdrawn]


def _seeded(tournament: Tournament) -> list[Entrant]:
    """Every entrant in seed order: rating at entry, then who entered first."""
    entrants = Entrant.objects.filter(tournament=tournament).select_related("player", "bot_profile")
    return sorted(entrants, key=lambda e: (-e.rating, e.pk))


def _swiss_entrants(tournament: Tournament, active: dict[int, Entrant]) -> list[SwissEntrant]:
    pairings = list(Pairing.objects.filter(tournament=tournament).order_by("round", "pk"))
    scores: dict[int, int] = {e: 0 for e in active}
    colours: dict[int, str] = {e: "" for e in active}
    byes: set[int] = set()
    met: dict[int, set[int]] = {e: set() for e in active}
    for p in pairings:
        for me, other, colour, score in (
            (p.white_id, p.black_id, "w", p.white_score),
            (p.black_id, p.white_id, "b", p.black_score),
        ):
            if me not in active:
                continue
            scores[me] += score or 0
            if other is None:
                byes.add(me)
            else:
                colours[me] += colour
                met[me].add(other)
    return [SwissEntrant(e, scores[e], active[e].rating, colours[e], e in byes, frozenset(met[e])) for e in active]

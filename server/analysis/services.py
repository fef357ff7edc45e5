"""Analyses: asked for once per match, searched position by position, progress pushed to the match's sockets.

A job is a sequence of steps, one position each (`analysis_step`): a Celery worker runs
one step per task and queues the next, so bot turns are never stuck behind a long
analysis; the inline and embedded runners loop over the steps. A step is idempotent:
it searches position k only while the stored progress says k, so a duplicate or
redelivered task does nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from ai.search import algorithm_for
from games import registry
from server.analysis import engine
from server.analysis.errors import AnalysisBusy, HintsOff, NotFinished
from server.analysis.models import Analysis
from server.bots.models import BotProfile
from server.matches import broadcast, frames
from server.matches import services as match_services
from server.matches.errors import GameOver, MatchError, NotFound, NotYourTurn
from server.matches.models import Match, MatchEvent
from server.players.models import Player

log = logging.getLogger("plyground.analysis")

Search = Callable[[str, dict[str, Any], dict[str, Any], str | None], dict[str, Any]]


def strongest_profile(game_id: str) -> BotProfile | None:
    """The game's strongest fixed bot: the highest level that does not adapt to its opponent."""
    return BotProfile.objects.filter(game=game_id, adaptive=False).order_by("-level", "pk").first()


def search_settings(game_id: str, budget_ms: int | None = None) -> dict[str, Any]:
    """The strongest profile's search, at full strength (no slips), for analysis and hints.

    No opening book: a book move comes without a value, and analysis needs the value.  No
    traps (``trap_model``): a hint or a verdict shows the best move, not a bet on the
    player's slips, and valuing every root move exactly for it costs time analysis needs.
    """
    profile = strongest_profile(game_id)
    fields: dict[str, Any] = profile.search_fields() if profile else {"algorithm": "alphabeta"}
    fields.update(error_rate=0.0, temperature=0.0, seed=0)
    fields["options"] = {
        k: v for k, v in (fields.get("options") or {}).items() if k not in ("opening_book", "trap_model")
    }
    if budget_ms:
        fields["time_budget_ms"] = min(fields.get("time_budget_ms") or budget_ms, budget_ms)
    return {"profile": profile.slug if profile else None, "config": fields}


def analysis_settings(game_id: str, budget_ms: int | None = None) -> dict[str, Any]:
    """The strongest profile's search, made to value every root move (the loss compares the played move with the best).

    MCTS knows a rarely visited move from a handful of playouts, so where the strongest
    profile runs MCTS the game's full-width searcher (max^n, expectiminimax or
    alpha-beta) searches instead, with the same budget.  ``exact_root`` makes
    expectiminimax and max^n search every root move with a full window; alpha-beta
    ignores it (its played move is valued from the next position).
    """
    chosen = search_settings(game_id, budget_ms)
    config = chosen["config"]
    if config["algorithm"] in ("mcts", "random"):
        config.update(algorithm=algorithm_for(registry.get(game_id), "alphabeta"), max_iterations=None, options={})
    config["options"] = {**config["options"], "exact_root": True}
    return chosen


def match_moves(match: Match) -> list[tuple[int, int, str]]:
    return list(match.moves.order_by("ply").values_list("ply", "seat", "move"))


def analyses_pending() -> int:
    """Analyses waiting or running now, over the installation (one stuck longer than the stale time not counted)."""
    since = timezone.now() - timedelta(minutes=settings.ANALYSIS_STALE_MINUTES)
    return Analysis.objects.filter(
        status__in=(Analysis.Status.QUEUED, Analysis.Status.RUNNING), created_at__gte=since
    ).count()


@transaction.atomic
def analysis_request(match_id: int, player: Player | None) -> tuple[Analysis, bool]:
    """The match's analysis, started if there is none yet (or the last one failed); (analysis, started).

    The cost is bounded: one analysis per match (asking again returns it, running or done),
    and at most `settings.ANALYSIS_MAX_PENDING` waiting or running at once (`AnalysisBusy`).
    Who may start one and how often is the API's (`server/analysis/api.py`).
    """
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {match_id}")
    existing = Analysis.objects.filter(match=match).first()
    if existing is not None and existing.status != Analysis.Status.FAILED:
        return existing, False
    if match.status != Match.Status.FINISHED:
        raise NotFinished("a match is analysed once it is finished")
    if analyses_pending() >= settings.ANALYSIS_MAX_PENDING:
        raise AnalysisBusy("the computer is analysing as many games as it can: try again in a few minutes")
    total = len(engine.positions_to_search(match.game, match_moves(match)))
    analysis = existing or Analysis(match=match)
    analysis.created_at = timezone.now()  # asked now: a restarted analysis counts as pending again
    analysis.status = Analysis.Status.QUEUED
    analysis.progress, analysis.total = 0, total
    analysis.positions, analysis.plies, analysis.error = [], [], ""
    analysis.engine = analysis_settings(match.game, settings.ANALYSIS_TIME_BUDGET_MS)
    analysis.requested_by = player
    analysis.save()
    analysis_id = analysis.pk
    if total == 0:
        _finish(analysis, match)
    else:
        from server.analysis.runners import queue_analysis

        transaction.on_commit(lambda: queue_analysis(analysis_id))
    return analysis, True


def analysis_step(analysis_id: int, index: int, search: Search = engine.search_position) -> int | None:
    """Search position `index`; the next index, or None when done or when this step was not due."""
    analysis = Analysis.objects.select_related("match").filter(pk=analysis_id).first()
    if analysis is None or analysis.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
        return None
    if analysis.progress != index:
        return None
    match = analysis.match
    position = engine.positions_to_search(match.game, match_moves(match))[index]
    found = search(match.game, position["state"], analysis.engine["config"], position["move"])
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().select_related("match").get(pk=analysis_id)
        if analysis.progress != index or analysis.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
            return None
        analysis.positions = [*analysis.positions, {**found, "ply": position["ply"]}]
        analysis.progress = index + 1
        analysis.status = Analysis.Status.RUNNING
        if analysis.progress >= analysis.total:
            _finish(analysis, analysis.match)
            return None
        analysis.save(update_fields=["positions", "progress", "status"])
        _push(analysis)
    return index + 1


def analysis_run(analysis_id: int, search: Search = engine.search_position) -> None:
    """Every remaining step in this process (the inline and embedded runners)."""
    analysis = Analysis.objects.filter(pk=analysis_id).first()
    index = analysis.progress if analysis else None
    try:
        while index is not None:
            index = analysis_step(analysis_id, index, search)
    except Exception as exc:
        analysis_fail(analysis_id, exc)
        raise


def analysis_fail(analysis_id: int, exc: BaseException) -> None:
    log.exception("analysis %s failed", analysis_id, exc_info=exc)
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None or analysis.status == Analysis.Status.DONE:
            return
        analysis.status = Analysis.Status.FAILED
        analysis.error = f"{type(exc).__name__}: {exc}"
        analysis.save(update_fields=["status", "error"])
        _push(analysis)


def _finish(analysis: Analysis, match: Match) -> None:
    analysis.plies = engine.ply_results(match.game, match_moves(match), analysis.positions)
    analysis.status = Analysis.Status.DONE
    analysis.finished_at = timezone.now()
    analysis.save()
    _push(analysis)


def _push(analysis: Analysis) -> None:
    """Tell the match's sockets how far the analysis is, once the change is committed."""
    frame = frames.analysis(analysis.status, analysis.progress, analysis.total)
    group = broadcast.match_group(analysis.match_id)
    transaction.on_commit(lambda: broadcast.send_to_group(group, frame))


# --- hints ------------------------------------------------------------------------


def hint_request(match_id: int, player: Player) -> dict[str, Any]:
    """The caller's hint for the current ply: found already, or a search queued for it.

    Only in matches created with hints (one person against bots, unrated), only for the
    seated player to move.  The search runs where bot searches run (`runners.queue_hint`),
    never in the web request; its result is a `hint` event of the match, pushed to the
    match's sockets, and the move the player then plays carries it in its stats
    (`receivers.py`), so exports show it.  At most one search per ply: asking again
    while it runs, or after, costs nothing.

    Returns ``{"status": "done", <the hint frame>}`` or ``{"status": "queued", "seat", "ply"}``.
    """
    match = Match.objects.prefetch_related("seats").filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {match_id}")
    seat = match_services.require_seat(match, player.pk)
    if not match.hints_allowed:
        why = "rated games never allow hints" if match.rated else "this match was created without hints"
        raise HintsOff(why)
    if match.status != Match.Status.ACTIVE:
        raise GameOver("the match is over") if match.is_over else NotYourTurn("the match has not started")
    if match.to_move != seat:
        raise NotYourTurn(f"a hint is for the player to move: it is seat {match.to_move}'s turn")
    ply = match.ply
    found = hint_found(match_id, ply, seat)
    if found is None and cache.add(_hint_key(match_id, ply, seat), True, timeout=settings.HINT_PENDING_S):
        from server.analysis.runners import queue_hint

        transaction.on_commit(lambda: queue_hint(match_id, ply, seat))
        found = hint_found(match_id, ply, seat)  # the inline runner has searched already
    if found is None:
        return {"status": "queued", "seat": seat, "ply": ply}
    return {"status": "done", **found}


def hint_of(match_id: int, player: Player) -> dict[str, Any] | None:
    """The caller's hint for the current ply as `hint_request` answers, or None when none was asked."""
    match = Match.objects.prefetch_related("seats").filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {match_id}")
    seat = match_services.require_seat(match, player.pk)
    found = hint_found(match_id, match.ply, seat)
    if found is not None:
        return {"status": "done", **found}
    if hint_pending(match_id, match.ply, seat):
        return {"status": "queued", "seat": seat, "ply": match.ply}
    return None


def hint_found(match_id: int, ply: int, seat: int) -> dict[str, Any] | None:
    """The hint recorded for `seat` at `ply`, as its frame (with ``v``), or None."""
    event = (
        MatchEvent.objects.filter(match_id=match_id, frame__type="hint", frame__ply=ply, frame__seat=seat)
        .order_by("-v")
        .first()
    )
    return event.as_frame() if event is not None else None


def hint_pending(match_id: int, ply: int, seat: int) -> bool:
    return cache.get(_hint_key(match_id, ply, seat)) is not None


def _hint_key(match_id: int, ply: int, seat: int) -> str:
    return f"plyground:hint:{match_id}:{ply}:{seat}"


def hint_due(match_id: int, ply: int, seat: int) -> Match | None:
    """The match, if a hint for `seat` at `ply` is still wanted: its turn, and none recorded yet."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or match.ply != ply or match.to_move != seat:
        return None
    if not match.hints_allowed or hint_found(match_id, ply, seat) is not None:
        return None
    return match


def hint_search(match_id: int, ply: int, seat: int, search: Search | None = None) -> dict[str, Any] | None:
    """Search the hint for `seat` at `ply` and record it; None when it is no longer wanted (safe to run twice)."""
    match = hint_due(match_id, ply, seat)
    if match is None:
        return None
    chosen = search_settings(match.game, settings.HINT_TIME_BUDGET_MS)
    found = (search or engine.search_position)(match.game, match.state, chosen["config"], None)
    hint = frames.hint(
        seat=seat,
        ply=ply,
        move=found["best_move"],
        value=found["value"],
        depth=found["depth"],
        nodes=found["nodes"],
        engine=chosen["profile"],
    )
    try:
        with transaction.atomic():
            Match.objects.select_for_update().filter(pk=match_id).first()  # one hint recorded per ply
            if hint_found(match_id, ply, seat) is not None:
                return None
            logged = match_services.match_log(match_id, ply, hint)
    except MatchError:  # the player moved, resigned or the match ended meanwhile
        return None
    return {**hint, "v": logged.v}

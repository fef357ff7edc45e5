"""Analyses and hints asked for: checked, recorded, and queued where searches run (docs/design.md §4).

The searching itself is the workers' (`jobs`); where it runs is `runners`.  Imports
point one way: services -> runners -> tasks -> jobs.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from server.analysis import jobs, positions, runners, selectors
from server.analysis.errors import AnalysisBusy, AnalysisStalled, HintsOff, NotFinished
from server.analysis.models import Analysis
from server.matches import services as match_services
from server.matches.errors import GameOver, NotFound, NotYourTurn
from server.matches.models import Match
from server.players.models import Player


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
    if selectors.analyses_pending() >= settings.ANALYSIS_MAX_PENDING:
        raise AnalysisBusy("the computer is analysing as many games as it can: try again in a few minutes")
    total = len(positions.positions_to_search(match.game, selectors.match_moves(match), match.options))
    analysis = existing or Analysis(match=match)
    analysis.created_at = timezone.now()  # asked now: a restarted analysis counts as pending again
    analysis.status = Analysis.Status.QUEUED
    analysis.progress, analysis.total = 0, total
    analysis.positions, analysis.plies, analysis.error = [], [], ""
    analysis.restarts = 0
    analysis.search = selectors.analysis_settings(match.game, settings.ANALYSIS_TIME_BUDGET_MS)
    analysis.requested_by = player
    analysis.save()
    analysis_id = analysis.pk
    if total == 0:
        jobs.analysis_finish(analysis, match)
    else:
        transaction.on_commit(lambda: runners.queue_analysis(analysis_id))
    return analysis, True


def resume_stalled_analyses(now: datetime | None = None) -> int:
    """Queue again every analysis with no step for `ANALYSIS_STALL_SECONDS`; returns how many.

    Its worker died, or the process of the embedded runner restarted: the job goes on
    from the position it stopped at (a step searches only the position its progress names,
    so a slow job queued twice does the work once).  After `ANALYSIS_MAX_RESTARTS` it is
    marked failed, and asking again starts it anew.  Several web processes may call this
    at once: the row lock and the second look at `updated_at` let one of them act.
    """
    now = now or timezone.now()
    stalled_before = now - timedelta(seconds=settings.ANALYSIS_STALL_SECONDS)
    pending = (Analysis.Status.QUEUED, Analysis.Status.RUNNING)
    resumed = 0
    for analysis_id in Analysis.objects.filter(status__in=pending, updated_at__lt=stalled_before).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
            if analysis is None or analysis.status not in pending or analysis.updated_at >= stalled_before:
                continue
            if analysis.restarts >= settings.ANALYSIS_MAX_RESTARTS:
                jobs.analysis_fail(analysis_id, AnalysisStalled("the analysis stopped making progress; ask again"))
                continue
            analysis.restarts += 1
            analysis.save(update_fields=["restarts", "updated_at"])
            transaction.on_commit(partial(runners.queue_analysis, analysis_id, analysis.progress))
            resumed += 1
    return resumed


# --- hints ------------------------------------------------------------------------


def hint_request(match_id: int, player: Player) -> dict[str, Any]:
    """The caller's hint for the current ply: found already, or a search queued for it.

    Only in matches created with hints (one person against bots, unrated), only for the
    seated player to move.  The search runs where bot searches run (`runners.queue_hint`),
    never in the web request; its result is a `hint` event of the match, pushed to the
    match's sockets, and the move the player then plays carries it in its stats
    (`server/matches/services/moves.py`), so exports show it.  At most one search per ply: asking again
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
    found = selectors.hint_found(match_id, ply, seat)
    if found is None and cache.add(selectors.hint_key(match_id, ply, seat), True, timeout=settings.HINT_PENDING_S):
        transaction.on_commit(lambda: runners.queue_hint(match_id, ply, seat))
        found = selectors.hint_found(match_id, ply, seat)  # the inline runner has searched already
    if found is None:
        return {"status": "queued", "seat": seat, "ply": ply}
    return {"status": "done", **found}


def hint_of(match_id: int, player: Player) -> dict[str, Any] | None:
    """The caller's hint for the current ply as `hint_request` answers, or None when none was asked."""
    match = Match.objects.prefetch_related("seats").filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {match_id}")
    seat = match_services.require_seat(match, player.pk)
    found = selectors.hint_found(match_id, match.ply, seat)
    if found is not None:
        return {"status": "done", **found}
    if selectors.hint_pending(match_id, match.ply, seat):
        return {"status": "queued", "seat": seat, "ply": match.ply}
    return None

"""The workers' side of analyses and hints: search, record, push (docs/design.md §4).

A job is a sequence of steps, one position each (`analysis_step`): a Celery worker runs
one step per task and queues the next, so bot turns are never stuck behind a long
analysis; the inline and embedded runners loop over the steps. A step is idempotent:
it searches position k only while the stored progress says k, so a duplicate or
redelivered task does nothing.  A hint is one search (`hint_search`), recorded once.

Nothing here queues work: asking is `services`, where the work runs is `runners`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from server.analysis import positions, selectors
from server.analysis.models import Analysis
from server.matches import broadcast, frames
from server.matches import services as match_services
from server.matches.errors import MatchError
from server.matches.models import Match

log = logging.getLogger("plyground.analysis")

# (game id, position as JSON, `ai.SearchConfig` fields, the move played there, the match's game options)
# -> `positions.search_position`'s answer.
Search = Callable[[str, dict[str, Any], dict[str, Any], str | None, dict[str, Any]], dict[str, Any]]


def analysis_step(analysis_id: int, index: int, search: Search | None = None) -> int | None:
    """Search position `index`; the next index, or None when done or when this step was not due."""
    analysis = Analysis.objects.select_related("match").filter(pk=analysis_id).first()
    if analysis is None or analysis.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
        return None
    if analysis.progress != index:
        return None
    match = analysis.match
    position = positions.positions_to_search(match.game, selectors.match_moves(match), match.options)[index]
    search = search or positions.search_position
    found = search(match.game, position["state"], analysis.search["config"], position["move"], match.options)
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().select_related("match").get(pk=analysis_id)
        if analysis.progress != index or analysis.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
            return None
        analysis.positions = [*analysis.positions, {**found, "ply": position["ply"]}]
        analysis.progress = index + 1
        analysis.status = Analysis.Status.RUNNING
        if analysis.progress >= analysis.total:
            analysis_finish(analysis, analysis.match)
            return None
        analysis.save(update_fields=["positions", "progress", "status"])
        push(analysis)
    return index + 1


def analysis_run(analysis_id: int, search: Search | None = None) -> None:
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
        push(analysis)


def analysis_finish(analysis: Analysis, match: Match) -> None:
    """Judge every move from the searched positions and record the analysis as done."""
    analysis.plies = positions.ply_results(match.game, selectors.match_moves(match), analysis.positions, match.options)
    analysis.status = Analysis.Status.DONE
    analysis.finished_at = timezone.now()
    analysis.save()
    push(analysis)


def push(analysis: Analysis) -> None:
    """Tell the match's sockets how far the analysis is, once the change is committed."""
    frame = frames.analysis(analysis.status, analysis.progress, analysis.total)
    group = broadcast.match_group(analysis.match_id)
    transaction.on_commit(lambda: broadcast.send_to_group(group, frame))


# --- hints ------------------------------------------------------------------------


def hint_due(match_id: int, ply: int, seat: int) -> Match | None:
    """The match, if a hint for `seat` at `ply` is still wanted: its turn, and none recorded yet."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or match.ply != ply or match.to_move != seat:
        return None
    if not match.hints_allowed or selectors.hint_found(match_id, ply, seat) is not None:
        return None
    return match


def hint_search(match_id: int, ply: int, seat: int, search: Search | None = None) -> dict[str, Any] | None:
    """Search the hint for `seat` at `ply` and record it; None when it is no longer wanted (safe to run twice).

    The hint frame names the bot profile whose search found it (``profile``); the move then
    played keeps the hint in its stats (exports).
    """
    match = hint_due(match_id, ply, seat)
    if match is None:
        return None
    chosen = selectors.search_settings(match.game, settings.HINT_TIME_BUDGET_MS)
    found = (search or positions.search_position)(match.game, match.state, chosen["config"], None, match.options)
    hint = frames.hint(
        seat=seat,
        ply=ply,
        move=found["best_move"],
        value=found["value"],
        depth=found["depth"],
        nodes=found["nodes"],
        profile=chosen["profile"],
    )
    try:
        with transaction.atomic():
            Match.objects.select_for_update().filter(pk=match_id).first()  # one hint recorded per ply
            if selectors.hint_found(match_id, ply, seat) is not None:
                return None
            logged = match_services.match_log(match_id, ply, hint)
    except MatchError:  # the player moved, resigned or the match ended meanwhile
        return None
    return {**hint, "v": logged.v}

"""Celery tasks: one analysed position per task, then the next one is queued; a hint."""

from __future__ import annotations

from celery import shared_task

from server.analysis.jobs import analysis_fail, analysis_step, hint_search


@shared_task(name="analysis.analyse_position", ignore_result=True)
def analyse_position(analysis_id: int, index: int) -> bool:
    """Search position `index` of the analysis and queue the next; does nothing if it is not due."""
    try:
        following = analysis_step(analysis_id, index)
    except Exception as exc:
        analysis_fail(analysis_id, exc)
        return False
    if following is not None:
        analyse_position.delay(analysis_id, following)
    return True


@shared_task(name="analysis.hint", ignore_result=True)
def hint(match_id: int, ply: int, seat: int) -> bool:
    """Search and record the hint for `seat` at `ply`; does nothing once that ply is played or hinted."""
    return hint_search(match_id, ply, seat) is not None

"""Reads: an analysis as the API shows it."""

from __future__ import annotations

from typing import Any

from games import registry
from server.analysis import engine
from server.analysis.models import Analysis


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    match = analysis.match
    profile = analysis.engine.get("profile")
    config = analysis.engine.get("config") or {}
    return {
        "match": match.pk,
        "game": match.game,
        "status": analysis.status,
        "progress": analysis.progress,
        "total": analysis.total,
        "engine": {
            "profile": profile,
            "is_ai": True,
            "algorithm": config.get("algorithm"),
            "time_budget_ms": config.get("time_budget_ms"),
        },
        "max_utility": registry.get(match.game).max_utility,
        "thresholds": {name: value for name, value in engine.THRESHOLDS},
        "result": match.result,
        "plies": analysis.plies if analysis.status == Analysis.Status.DONE else [],
        "error": analysis.error or None,
        "finished_at": analysis.finished_at.isoformat() if analysis.finished_at else None,
    }


def analysis_of(match_id: int) -> Analysis | None:
    return Analysis.objects.select_related("match").filter(match_id=match_id).first()

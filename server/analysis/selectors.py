"""Reads: an analysis as the API shows it, the search that judges a game, hints asked and found."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

import ai
from games import registry
from server.analysis import positions
from server.analysis.models import Analysis
from server.bots.models import BotProfile
from server.matches.models import Match, MatchEvent
from server.matches.selectors import result_json


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    match = analysis.match
    game = match.rules()
    config = analysis.search.get("config") or {}
    search = {
        "profile": analysis.search.get("profile"),
        "is_ai": True,
        "algorithm": config.get("algorithm"),
        "time_budget_ms": config.get("time_budget_ms"),
    }
    return {
        "match": match.pk,
        "game": match.game,
        "status": analysis.status,
        "progress": analysis.progress,
        "total": analysis.total,
        "queue_position": queue_position(analysis),
        "search": search,
        "max_utility": game.max_utility,
        "thresholds": {name: value for name, value in positions.THRESHOLDS},
        "chances": {
            "shown_as": game.spec.chances.shown_as,
            "unit": game.spec.chances.unit or None,
            "slope": game.spec.chances.slope,
        },  # fmt: skip
        "result": result_json(match.result),
        "plies": analysis.plies if analysis.status == Analysis.Status.DONE else [],
        "error": analysis.error or None,
        "finished_at": analysis.finished_at.isoformat() if analysis.finished_at else None,
    }


def analysis_of(match_id: int) -> Analysis | None:
    return Analysis.objects.select_related("match").filter(match_id=match_id).first()


def analyses_pending() -> int:
    """Analyses waiting or running now, over the installation (one stuck longer than the stale time not counted)."""
    since = timezone.now() - timedelta(minutes=settings.ANALYSIS_STALE_MINUTES)
    return Analysis.objects.filter(
        status__in=(Analysis.Status.QUEUED, Analysis.Status.RUNNING), created_at__gte=since
    ).count()


def queue_position(analysis: Analysis) -> int | None:
    """While `analysis` waits to start: the analyses asked before it that wait too (0: it is next); else None.

    Queued analyses start in the order they were asked (`created_at`, then id), one
    stuck longer than the stale time not counted, as in `analyses_pending`.
    """
    if analysis.status != Analysis.Status.QUEUED:
        return None
    since = timezone.now() - timedelta(minutes=settings.ANALYSIS_STALE_MINUTES)
    earlier = Q(created_at__lt=analysis.created_at) | Q(created_at=analysis.created_at, pk__lt=analysis.pk)
    return (
        Analysis.objects.filter(status=Analysis.Status.QUEUED, created_at__gte=since)
        .filter(earlier)
        .exclude(pk=analysis.pk)
        .count()
    )


def match_moves(match: Match) -> list[tuple[int, int, str]]:
    return list(match.moves.order_by("ply").values_list("ply", "seat", "move"))


# --- the search that judges: the strongest bot's ---------------------------------


def strongest_profile(game_id: str) -> BotProfile | None:
    """The game's strongest fixed bot: the highest level that does not adapt to its opponent."""
    return BotProfile.objects.filter(game=game_id, adaptive=False).order_by("-level", "pk").first()


def search_settings(game_id: str, budget_ms: int | None = None) -> dict[str, Any]:
    """The strongest profile's search, at full strength (no slips), for analysis and hints.

    ``{"profile": its slug, "config": its `ai.SearchConfig` fields}``.  No opening book:
    a book move comes without a value, and analysis needs the value; no endgame tables
    (``tablebases``): their move comes with its value but without the searched figures
    (depth, root values) analysis shows.  No traps
    (``trap_model``): a hint or a verdict shows the best move, not a bet on the player's
    slips, and valuing every root move exactly for it costs time analysis needs.
    """
    profile = strongest_profile(game_id)
    fields: dict[str, Any] = profile.search_fields() if profile else {"algorithm": "alphabeta"}
    fields.update(slip_rate=0.0, temperature=0.0, seed=0)
    fields["options"] = {
        k: v for k, v in (fields.get("options") or {}).items() if k not in ("opening_book", "tablebases", "trap_model")
    }
    if budget_ms:
        fields["time_budget_ms"] = min(fields.get("time_budget_ms") or budget_ms, budget_ms)
    return {"profile": profile.slug if profile else None, "config": fields}


def analysis_settings(game_id: str, budget_ms: int | None = None) -> dict[str, Any]:
    """The strongest profile's search, made to value every root move (the loss compares the played move with the best).

    MCTS knows a rarely visited move from a handful of playouts, so where the strongest
    profile's searcher is not full-width (MCTS, random) the game's full-width searcher (max^n, expectiminimax or
    alpha-beta) searches instead, with the same budget.  ``exact_root`` makes
    expectiminimax and max^n search every root move with a full window; alpha-beta
    ignores it (its played move is valued from the next position).
    """
    chosen = search_settings(game_id, budget_ms)
    config = chosen["config"]
    if not ai.CATALOGUE[config["algorithm"]].can(ai.Capability.FULL_WIDTH):
        config.update(algorithm=ai.full_width_for(registry.get(game_id)).id, max_iterations=None, options={})
    config["options"] = {**config["options"], "exact_root": True}
    return chosen


# --- hints ------------------------------------------------------------------------


def hint_found(match_id: int, ply: int, seat: int) -> dict[str, Any] | None:
    """The hint recorded for `seat` at `ply`, as its frame (with ``v``), or None."""
    event = (
        MatchEvent.objects.filter(match_id=match_id, frame__type="hint", frame__ply=ply, frame__seat=seat)
        .order_by("-v")
        .first()
    )
    return event.as_frame() if event is not None else None


def hint_pending(match_id: int, ply: int, seat: int) -> bool:
    return cache.get(hint_key(match_id, ply, seat)) is not None


def hint_key(match_id: int, ply: int, seat: int) -> str:
    """The cache key that marks a hint search queued (one per ply and seat)."""
    return f"plyground:hint:{match_id}:{ply}:{seat}"

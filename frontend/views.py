"""Page views render shells; the pages load matches over the API and sockets.

Each page gets a small JSON blob (`page-data`) with what it needs to start: the current player, the
search algorithms' names, stories and capabilities, every game's seats and, for a match room, the
match id.  The CSRF cookie is always set so the modules can POST with the `X-CSRFToken` header.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from ai import CATALOGUE
from games import registry


def _player(request: HttpRequest) -> dict[str, Any] | None:
    player = getattr(request, "player", None)
    if player is None:
        return None
    return {"id": str(player.id), "name": player.name, "is_guest": bool(player.is_guest)}


def _algorithms() -> dict[str, dict[str, Any]]:
    """The search algorithms as players read them, and what each can do, from the one catalogue (`ai.catalogue`)."""
    return {
        a.id: {"label": a.label, "summary": a.summary, "how": list(a.how), "capabilities": sorted(a.capabilities)}
        for a in CATALOGUE.values()
    }


def _seats() -> dict[str, list[dict[str, Any]]]:
    """Every game's seats, names, colours and marks, from its spec (`games.spec`), for the seat marks."""
    return {game.id: [seat.to_json(i) for i, seat in enumerate(game.spec.seats)] for game in registry.all()}


def _render(request: HttpRequest, template: str, page: dict[str, Any]) -> HttpResponse:
    player = _player(request)
    blob = {"player": player, "algorithms": _algorithms(), "seats": _seats(), **page}
    return render(request, template, {"player": player, "page": blob})


@ensure_csrf_cookie
def lobby(request: HttpRequest) -> HttpResponse:
    return _render(request, "frontend/lobby.html", {"page": "lobby"})


@ensure_csrf_cookie
def match_room(request: HttpRequest, match_id: int) -> HttpResponse:
    from server.tournaments.selectors import tournament_of_match

    page = {"page": "match", "match_id": match_id, "tournament": tournament_of_match(match_id)}
    return _render(request, "frontend/match.html", page)


@ensure_csrf_cookie
def analysis_page(request: HttpRequest, match_id: int) -> HttpResponse:
    return _render(request, "frontend/analysis.html", {"page": "analysis", "match_id": match_id})


@ensure_csrf_cookie
def bot_page(request: HttpRequest, slug: str) -> HttpResponse:
    return _render(request, "frontend/bot.html", {"page": "bot", "slug": slug})


@ensure_csrf_cookie
def leaderboards_page(request: HttpRequest) -> HttpResponse:
    """Every game's leaderboard, rendered here: the page reads without scripts."""
    from server.ratings.selectors import leaderboards

    player = _player(request)
    page = {"player": player, "page": "leaderboards"}
    return render(
        request,
        "frontend/leaderboards.html",
        {"player": player, "page": page, "boards": leaderboards(), "active_days": settings.LEADERBOARD_ACTIVE_DAYS},
    )


@ensure_csrf_cookie
def tournaments_page(request: HttpRequest) -> HttpResponse:
    """The tournaments: running, scheduled, ended; the form that creates one (docs/tournaments.md)."""
    games = [{"id": g.id, "name": g.name} for g in registry.all() if g.num_players == 2]
    return _render(
        request,
        "frontend/tournaments.html",
        {"page": "tournaments", "games": games, "clocks": list(settings.TOURNAMENT_TIME_CONTROLS)},
    )


@ensure_csrf_cookie
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """One tournament: standings, crosstable, pairings, live over its socket."""
    return _render(request, "frontend/tournament.html", {"page": "tournament", "tournament_id": tournament_id})

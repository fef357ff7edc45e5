"""The researcher's page: their API tokens and an export URL builder with a size estimate.

Everything on it goes through the API the researcher's scripts use (the token endpoints
under ``/api/players/me/tokens/``, ``/api/exports/estimate/``): the page only lays it out.
People without the researcher permission get a page saying how to get it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie

from frontend.account_views import _context
from games import registry
from server.bots.models import BotProfile
from server.research.filters import PAIRINGS, RESULTS, STATUSES
from server.research.permissions import user_is_researcher
from server.research.selectors import SCHEMA_VERSION


def _builder_data() -> dict[str, Any]:
    """What the URL builder offers: the exports' own filter values, the games and the bot profiles."""
    games = [{"id": g.id, "name": g.name} for g in registry.all()]
    names = {g["id"]: g["name"] for g in games}
    bots = [
        {"slug": slug, "name": name, "game": game, "game_name": names.get(game, game), "level": level}
        for slug, name, game, level in BotProfile.objects.order_by("game", "level", "slug").values_list(
            "slug", "name", "game", "level"
        )
    ]
    return {
        "games": games,
        "bots": bots,
        "pairings": list(PAIRINGS),
        "results": list(RESULTS),
        "statuses": list(STATUSES),
        "urls": {
            "games": reverse("export-games"),
            "moves": reverse("export-moves"),
            "estimate": reverse("export-estimate"),
            "tokens": reverse("player-tokens"),
        },
    }


@ensure_csrf_cookie
def research(request: HttpRequest) -> HttpResponse:
    if not user_is_researcher(request.user):
        signed_in = request.user.is_authenticated
        context = _context(request, "research_denied", signed_in=signed_in, next=request.path)
        return render(request, "frontend/account/research_denied.html", context, status=403)
    data = _builder_data()
    context = _context(request, "research", **data, schema_version=SCHEMA_VERSION)
    context["page"]["urls"] = data["urls"]  # for js/research.js
    return render(request, "frontend/account/research.html", context)

"""What every template reads: the games' stylesheets, found by each game's spec (`GameSpec.stylesheet`),
and the player's consent (the guests' notice)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games import registry
from server.players.consent import asks_for_consent, consent_of


def game_stylesheets(request: HttpRequest) -> dict[str, list[str]]:
    """Each board's stylesheet once (two ids may share a board), in catalogue order.

    Every page links them all: the lobby and the lists draw any game's seats, and a match
    room learns its game only from the match it loads.
    """
    return {"game_stylesheets": list(dict.fromkeys(game.spec.stylesheet for game in registry.all()))}


def consent(request: HttpRequest) -> dict[str, Any]:
    """The player's consent choices, and whether this page asks a guest for them (the notice)."""
    player = getattr(request, "player", None)
    if player is None:
        return {"consent_notice": False}
    return {"consent_notice": asks_for_consent(player), "consent": consent_of(player)}

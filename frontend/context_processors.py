"""What every template reads: the games' stylesheets, found by each game's spec (`GameSpec.stylesheet`)."""

from __future__ import annotations

from django.http import HttpRequest

from games import registry


def game_stylesheets(request: HttpRequest) -> dict[str, list[str]]:
    """Each board's stylesheet once (two ids may share a board), in catalogue order.

    Every page links them all: the lobby and the lists draw any game's seats, and a match
    room learns its game only from the match it loads.
    """
    return {"game_stylesheets": list(dict.fromkeys(game.spec.stylesheet for game in registry.all()))}

"""What the lobby shows: open and running matches, and how many people have a socket open.

Adjourned matches are not running: they are listed to their person only ("Your matches",
`GET /api/matches/?status=adjourned&player=me`).  The rules: docs/lobby.md.
"""

from __future__ import annotations

from typing import Any

from server.matches import frames
from server.matches.models import Match
from server.matches.selectors import match_list, match_summary_json
from server.players.selectors import players_online

LOBBY_SIZE = 50


def lobby_json() -> dict[str, Any]:
    return frames.lobby(
        open=[match_summary_json(m) for m in match_list(Match.Status.WAITING, limit=LOBBY_SIZE)],
        active=[match_summary_json(m) for m in match_list(Match.Status.ACTIVE, limit=LOBBY_SIZE)],
        online=players_online(),
    )

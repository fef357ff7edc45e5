"""Reads for players: who a token or a session belongs to."""

from __future__ import annotations

from django.utils import timezone

from server.players.models import ApiToken, Player, hash_token

SESSION_KEY = "player_id"


def player_by_token(token: str) -> Player | None:
    if not token or len(token) > 200:
        return None
    found = ApiToken.objects.select_related("player").filter(digest=hash_token(token)).first()
    if found is None:
        return None
    ApiToken.objects.filter(pk=found.pk).update(last_used_at=timezone.now())
    return found.player


def player_by_session(session) -> Player | None:
    player_id = session.get(SESSION_KEY)
    if player_id is None:
        return None
    return Player.objects.filter(pk=player_id).first()

"""Reads for players: who a token or a session belongs to."""

from __future__ import annotations

from datetime import timedelta

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


ONLINE_WINDOW = timedelta(minutes=2)


def players_online() -> int:
    """People seen on a page or a socket in the last two minutes."""
    return Player.objects.filter(last_seen_at__gte=timezone.now() - ONLINE_WINDOW).count()

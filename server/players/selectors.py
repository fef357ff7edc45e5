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


def players_online(now=None) -> int:
    """People with a socket open (a match or the lobby), in any web process; bots are not players.

    Each web process keeps `Player.online_until` ahead of now for the people it has sockets
    for (server/matches/presence.py), and moves it to now when their last socket there closes.
    """
    return Player.objects.filter(online_until__gt=now or timezone.now()).count()

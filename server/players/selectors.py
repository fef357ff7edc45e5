"""Reads for players: who a token or a session belongs to."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib import auth
from django.contrib.auth.models import User
from django.contrib.sessions.backends.base import SessionBase
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from server.db import rows
from server.players.models import ApiToken, Player, hash_token

SESSION_KEY = "player_id"


def player_by_token(token: str) -> Player | None:
    found = token_by_secret(token)
    return found.player if found is not None else None


TOKEN_USE_RESOLUTION = timedelta(minutes=1)  # a token's `last_used_at` is written at most this often


def token_by_secret(token: str) -> ApiToken | None:
    """The live (not expired) token row of a bearer token, noted as used now; None for a
    deactivated account's token (it works again if the account is reactivated)."""
    if not token or len(token) > 200:
        return None
    now = timezone.now()
    # Every socket's opening asks this: the token with its player, in SQL built once
    # (server/db/rows.py; the ORM built the same query at three times the CPU).
    found = next(iter(rows.select(ApiToken, "digest", hash_token(token), related="player")), None)
    if found is None or found.expires_at <= now:
        return None
    if found.player.user_id is not None and not _account_active(found.player.user_id):
        return None
    # Noted to the minute: a write (and a commit) on every socket's open made a reconnect
    # storm pay one more round trip a socket for a figure nobody reads to the second.
    if found.last_used_at is None or now - found.last_used_at >= TOKEN_USE_RESOLUTION:
        found.last_used_at = now
        rows.update(found, ["last_used_at"])
    return found


def _account_active(user_id: int) -> bool:
    return auth.get_user_model().objects.filter(pk=user_id, is_active=True).exists()


def tokens_of(player_id: int) -> QuerySet[ApiToken]:
    """A player's live tokens, newest first."""
    return ApiToken.objects.filter(player_id=player_id, expires_at__gt=timezone.now()).order_by("-created_at", "-pk")


def player_by_session(session: SessionBase) -> Player | None:
    """The session's player; an account's only while the session is still logged in to it.

    A password changed or reset elsewhere, or an account deactivated, ends the account's
    other sessions as Django's own login does (the session's auth hash no longer matches).
    """
    player_id = session.get(SESSION_KEY)
    if player_id is None:
        return None
    player = Player.objects.select_related("user").filter(pk=player_id).first()
    if player is None or player.is_guest:
        return player
    return player if _logged_in_as(session, player.user) else None


def _logged_in_as(session: SessionBase, user: User | None) -> bool:
    if user is None or not user.is_active or str(session.get(auth.SESSION_KEY)) != str(user.pk):
        return False
    held = session.get(auth.HASH_SESSION_KEY)
    return held is not None and constant_time_compare(held, user.get_session_auth_hash())


def players_online(now: datetime | None = None) -> int:
    """People with a socket open (a match or the lobby), in any web process; bot accounts are not counted.

    Each web process keeps `Player.online_until` ahead of now for the people it has sockets
    for (server/matches/presence.py), and moves it to now when their last socket there closes.
    """
    return Player.objects.filter(online_until__gt=now or timezone.now(), bot_owner__isnull=True).count()  # people only


def person_json(player_id: int, name: str, is_guest: bool, bot_owner: str | None = None) -> dict[str, Any]:
    """A player wherever a frame or the API shows one: a person, never an AI, a guest marked as
    one; or a bot account (`bot_owner` its owner's name), always an AI and whose it is.

    Accounts' names are unique by their look and guests' are not, so the marker is what tells a
    guest from the account whose name it took first (docs/security.md, "names").
    """
    if bot_owner is not None:
        return {"id": player_id, "name": name, "kind": "agent", "is_ai": True, "is_guest": False, "owner": bot_owner}
    return {"id": player_id, "name": name, "kind": "human", "is_ai": False, "is_guest": is_guest}


def bot_account_snapshot(player: Player) -> dict[str, Any] | None:
    """What a bot account's seat keeps of it when its match is made (as a house bot's seat keeps
    its profile), so that its moves say they are an AI's without a query; None for a person."""
    if player.bot_owner is None:
        return None
    return {"kind": "agent", "name": player.name, "owner": player.bot_owner.name}


def player_json(player: Player) -> dict[str, Any]:
    """`person_json` of a loaded player (a bot account's owner is read when it is one)."""
    owner = player.bot_owner.name if player.bot_owner is not None else None
    return person_json(player.pk, player.name, player.is_guest, owner)

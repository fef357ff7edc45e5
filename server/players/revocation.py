"""A credential that changes closes the sockets it opened, in every web process, within a second.

Every socket opened by a player (a bearer token or a browser session) joins its player's
credentials group on the channel layer (`credentials_group`).  Whatever may end a credential
tells that group once its change is committed (`credentials_changed`), and each socket asks
again whether the credential it was opened with still names its player
(`server/players/ws_auth.py`, `CredentialWatch`); one that does not is closed with 4401.

What tells the group, here, from signals, so that every way of making the change counts (the
API, the admin, a shell):

- a token deleted: revoked, rotated, or its player deleted (``post_delete`` of `ApiToken`);
- an account's user saved: a password changed or reset (Django gives the user's sessions a
  new hash: every other session is logged out), the account deactivated (``post_save``);
- a logout: the session is flushed (``user_logged_out``, which Django sends *before* the flush,
  so the ended session is named in the message: its sockets close without asking again).

A token that expires closes its sockets by a timer set when they open (a token's expiry never
moves: rotating makes a new token).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from server.players.models import ApiToken, Player
from server.players.selectors import SESSION_KEY

log = logging.getLogger("plyground.players")

CREDENTIALS_CHANGED = "credentials.changed"  # the channel message's type: `credentials_changed` on a consumer


def credentials_group(player_id: int) -> str:
    """The channel group of every socket opened with one of this player's credentials."""
    return f"credentials.player.{player_id}"


def session_digest(session_key: str | None) -> str | None:
    """A session key as the channel layer carries it: hashed, since the key itself is a login."""
    return hashlib.sha256(session_key.encode()).hexdigest() if session_key else None


def credentials_changed(player_id: int, ended_session: str | None = None) -> None:
    """Tell `player_id`'s sockets, once the change is committed, to check their credential again.

    `ended_session`: the digest of a session that ended (its sockets close without asking).
    A failed send is logged, not raised: the change itself stands.
    """
    message: dict[str, Any] = {"type": CREDENTIALS_CHANGED, "ended_session": ended_session}
    transaction.on_commit(lambda: _send(credentials_group(player_id), message))


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.exception("credential change not told to %s", group)


@receiver(post_delete, sender=ApiToken, dispatch_uid="revocation.token_deleted")
def _token_deleted(sender: type[ApiToken], instance: ApiToken, **kwargs: Any) -> None:
    credentials_changed(instance.player_id)


@receiver(post_save, sender=get_user_model(), dispatch_uid="revocation.user_saved")
def _user_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    # A login writes only last_login, which ends no credential; anything else may (a password,
    # is_active): the sockets ask again, one query each.
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    for player_id in Player.objects.filter(user_id=instance.pk).values_list("pk", flat=True):
        credentials_changed(player_id)


@receiver(user_logged_out, dispatch_uid="revocation.logged_out")
def _logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None and session.get(SESSION_KEY) is not None:
        credentials_changed(session[SESSION_KEY], ended_session=session_digest(session.session_key))

"""Logging in with a display name or an e-mail address (docs/design.md §5).

Django's `ModelBackend` checks the password and whether the user may log in; this one
only finds the user the way people type who they are: an e-mail address (``User.email``
holds confirmed ones only, server/players/emails.py), or a name
written as they see it (``alice`` for ``Alice``, by the name's look), else Django's own
username (staff made in a shell).  The lockout (`server.players.lockout`) runs first.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.http import HttpRequest

from server.players.models import Player
from server.players.names import name_skeleton


def user_for_login(identifier: str) -> User | None:
    """The user `identifier` names, or None."""
    users = get_user_model().objects
    if "@" in identifier:
        return users.filter(email__iexact=identifier).order_by("pk").first()
    player = Player.objects.filter(is_guest=False, name_key=name_skeleton(identifier)).select_related("user").first()
    if player is not None and player.user is not None:
        return player.user
    return users.filter(username=identifier).first()


class NameOrEmailBackend(ModelBackend):
    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> User | None:
        if not username or password is None:
            return None
        user = user_for_login(username.strip())
        if user is None:
            get_user_model()().set_password(password)  # as long as a real check: no hint who exists
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None

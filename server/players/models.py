"""Players: guests made on first visit, or people with an account; API tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from server.players.names import NAME_KEY_MAX, name_skeleton, validate_person_name


class Player(models.Model):
    """A person at the board, or a bot account: a program a person registered (server/agents).

    House bots are not players: they are bot profiles seated in a match.  A bot account is a
    player so that its moves take the people's one path; it has no login (no user), plays only
    with its bot tokens, and is always shown as an AI with its owner's name.
    """

    name = models.CharField(max_length=40, validators=[validate_person_name])  # never claims to be an AI
    # An account's name as it looks (names.name_skeleton, Unicode's confusables): one account per
    # look; blank for guests.
    name_key = models.CharField(max_length=NAME_KEY_MAX, blank=True, default="", db_index=True)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    is_guest = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(null=True, blank=True, db_index=True)  # last page or socket opened
    # While a web process holds a socket of this player (match or lobby), its heartbeat keeps
    # this ahead of now (server/matches/presence.py); the lobby's "online" counts these.
    online_until = models.DateTimeField(null=True, blank=True, db_index=True)
    # Consent (server/players/consent.py): whether this person's games may go into research
    # exports, and into the data our bots are trained on.  Off until they say yes: a default
    # of yes would not be consent.  `consent_answered_at` is when they last chose (null: never
    # asked, so a guest still sees the notice).
    consent_research = models.BooleanField(default=False)
    consent_training = models.BooleanField(default=False)
    consent_answered_at = models.DateTimeField(null=True, blank=True)
    # The person who registered this bot account; null for every person.  Set only by
    # server/agents when the account is made, never by a request: a person cannot pass for a bot.
    bot_owner = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="bot_accounts", editable=False
    )

    # DRF treats the authenticated principal as a user; a Player is one.
    is_authenticated = True
    is_anonymous = False

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["name_key"], condition=models.Q(is_guest=False), name="one_account_per_name_look"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # An account made in code (a shell, a fixture) gets its name's look too: the constraint needs it.
        if not self.is_guest and not self.name_key:
            self.name_key = name_skeleton(self.name)
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)

    @property
    def is_bot(self) -> bool:
        """A bot account: a program playing under its owner's name (server/agents)."""
        return self.bot_owner_id is not None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_lifetime() -> timedelta:
    return timedelta(days=settings.API_TOKEN_DAYS)


class ApiToken(models.Model):
    """A bearer token; only its hash is stored, so a database leak gives no logins.

    It expires `settings.API_TOKEN_DAYS` after it was issued; its owner lists, rotates and
    revokes their tokens at ``/api/players/me/tokens/``.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tokens")
    digest = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=40, blank=True, help_text="the owner's word for where it is used")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"token of {self.player}"

    @classmethod
    def issue(cls, player: Player, label: str = "") -> str:
        """Create a token for `player` and return its only plain-text copy."""
        return cls.issue_row(player, label)[1]

    @classmethod
    def issue_row(cls, player: Player, label: str = "") -> tuple[ApiToken, str]:
        """Create a token for `player`: the row, and the token's only plain-text copy."""
        token = secrets.token_urlsafe(32)
        row = cls.objects.create(
            player=player, digest=hash_token(token), label=label, expires_at=timezone.now() + token_lifetime()
        )
        return row, token

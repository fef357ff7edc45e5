"""Writes for players: guests and tokens."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from server.players.models import ApiToken, Player
from server.players.names import validate_person_name
from server.players.selectors import SESSION_KEY

ADJECTIVES = ("Bold", "Calm", "Clever", "Eager", "Gentle", "Quick", "Quiet", "Brave", "Lucky", "Witty")
ANIMALS = ("Otter", "Heron", "Fox", "Lynx", "Badger", "Falcon", "Hare", "Wren", "Marten", "Ibex")


def guest_name() -> str:
    return f"{secrets.choice(ADJECTIVES)}{secrets.choice(ANIMALS)}{secrets.randbelow(1000):03d}"


@transaction.atomic
def player_create_guest(name: str | None = None) -> Player:
    """A new guest; a chosen `name` may not claim to be an AI (django ValidationError)."""
    if name:
        validate_person_name(name)
    return Player.objects.create(name=name or guest_name(), is_guest=True)


def player_create_for_session(session) -> Player:
    """A guest for a browser session that has none yet, on its first action that needs a player.

    Pages do not make guests (a crawler or a health check would leave one per request);
    the first create, join, hint or analysis from the browser does.
    """
    player = player_create_guest()
    session[SESSION_KEY] = player.pk
    return player


@transaction.atomic
def player_create_guest_with_token(name: str | None = None) -> tuple[Player, str]:
    player = player_create_guest(name)
    return player, ApiToken.issue(player, label="guest")


# --- tokens: their owner lists, issues, rotates and revokes them --------------------


class TooManyTokens(Exception):
    """A player already holds `settings.API_TOKENS_PER_PLAYER` live tokens."""


@transaction.atomic
def token_issue(player: Player, label: str = "") -> tuple[ApiToken, str]:
    """A new token for `player` (expired ones are deleted first); refused past the per-player cap."""
    Player.objects.select_for_update().filter(pk=player.pk).first()  # one issue at a time per player
    ApiToken.objects.filter(player=player, expires_at__lte=timezone.now()).delete()
    if ApiToken.objects.filter(player=player).count() >= settings.API_TOKENS_PER_PLAYER:
        raise TooManyTokens(f"at most {settings.API_TOKENS_PER_PLAYER} tokens: revoke one first")
    return ApiToken.issue_row(player, label)


@transaction.atomic
def token_rotate(player: Player, token_id: int) -> tuple[ApiToken, str] | None:
    """Replace a token of `player` by a new one with the same label; the old one stops working now."""
    old = ApiToken.objects.select_for_update().filter(player=player, pk=token_id).first()
    if old is None:
        return None
    old.delete()
    return ApiToken.issue_row(player, old.label)


def token_revoke(player: Player, token_id: int) -> bool:
    """Delete a token of `player`; False when they have no such token."""
    deleted, _ = ApiToken.objects.filter(player=player, pk=token_id).delete()
    return deleted > 0


SEEN_RESOLUTION = timedelta(seconds=30)  # a player is written at most this often


def player_seen(player_id: int) -> None:
    """Note that a player is here now (a page, a socket); cheap to call often."""
    now = timezone.now()
    Player.objects.filter(pk=player_id).exclude(last_seen_at__gt=now - SEEN_RESOLUTION).update(last_seen_at=now)

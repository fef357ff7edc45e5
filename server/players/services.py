"""Writes for players: guests and tokens."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from server.players.accounts import NAME_TAKEN, name_taken
from server.players.models import ApiToken, Player
from server.players.names import bot_name_skeletons, guest_name, name_skeleton, validate_guest_name
from server.players.selectors import SESSION_KEY

# Automatic names drawn per guest before one is free; all of them taken means accounts and bots
# hold nearly all of the 100,000 names, which the sign-up form's refusal of their look prevents.
GUEST_NAME_DRAWS = 20


def free_guest_name() -> str:
    """An automatic guest name whose look is no account's and no bot's."""
    drawn = {name_skeleton(name): name for name in (guest_name() for _ in range(GUEST_NAME_DRAWS))}
    taken = bot_name_skeletons() | set(
        Player.objects.filter(is_guest=False, name_key__in=drawn).values_list("name_key", flat=True)
    )
    free = [name for key, name in drawn.items() if key not in taken]
    if not free:
        raise RuntimeError(f"no free guest name in {GUEST_NAME_DRAWS} draws")
    return free[0]


@transaction.atomic
def player_create_guest(name: str | None = None) -> Player:
    """A new guest; a chosen `name` follows the names' policy and looks like no account's
    (django ValidationError), an automatic one looks like nobody's.

    An account may later take a name a guest has: the guest's marker tells them apart.
    """
    if name:
        validate_guest_name(name)
        if name_taken(name):
            raise ValidationError(NAME_TAKEN, code="name_taken")
    return Player.objects.create(name=name or free_guest_name(), is_guest=True)


def player_create_for_session(session: SessionBase) -> Player:
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

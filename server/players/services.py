"""Writes for players: guests and tokens."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from server.players.models import ApiToken, Player

ADJECTIVES = ("Bold", "Calm", "Clever", "Eager", "Gentle", "Quick", "Quiet", "Brave", "Lucky", "Witty")
ANIMALS = ("Otter", "Heron", "Fox", "Lynx", "Badger", "Falcon", "Hare", "Wren", "Marten", "Ibex")


def guest_name() -> str:
    return f"{secrets.choice(ADJECTIVES)}{secrets.choice(ANIMALS)}{secrets.randbelow(1000):03d}"


@transaction.atomic
def player_create_guest(name: str | None = None) -> Player:
    return Player.objects.create(name=name or guest_name(), is_guest=True)


@transaction.atomic
def player_create_guest_with_token(name: str | None = None) -> tuple[Player, str]:
    player = player_create_guest(name)
    return player, ApiToken.issue(player)


SEEN_RESOLUTION = timedelta(seconds=30)  # a player is written at most this often


def player_seen(player_id: int) -> None:
    """Note that a player is here now (a page, a socket); cheap to call often."""
    now = timezone.now()
    Player.objects.filter(pk=player_id).exclude(last_seen_at__gt=now - SEEN_RESOLUTION).update(last_seen_at=now)

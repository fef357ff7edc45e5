"""Writes for players: guests and tokens."""

from __future__ import annotations

import secrets

from django.db import transaction

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

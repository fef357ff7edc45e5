"""Challenges to bot accounts: a game and its options, waiting for the bot's answer.

A bot account itself is a `Player` with a `bot_owner` (server/players/models.py), so that its
seats, moves, clocks and chat are the people's own; what is new here is how its games start.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from server.matches.models import Match
from server.players.models import Player


class Challenge(models.Model):
    """`challenger` (a person or another bot account) asks bot account `bot` for a game.

    The match is made when the bot accepts, never before: a challenge nobody answers within
    `BOT_CHALLENGE_TTL_S` has expired.  `seat` is the challenger's seat; the bot takes the
    first other one, and `house_bots` (bot profile slugs) fill the rest of a game for three or more.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"  # by the challenger

    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_made")
    bot = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_received")
    game = models.CharField(max_length=40)
    seat = models.PositiveSmallIntegerField(default=0)
    house_bots = models.JSONField(default=list, blank=True)
    clock = models.JSONField(null=True, blank=True)  # {"minutes", "increment"} or null
    # The game's options, every declared one with its value (backgammon's cube, Jacoby rule, match length).
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decline_reason = models.CharField(max_length=20, blank=True, default="")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["bot", "status"]), models.Index(fields=["challenger", "status"])]

    def __str__(self) -> str:
        return f"challenge #{self.pk}: {self.challenger} to {self.bot} ({self.game}, {self.status})"

    @property
    def expires_at(self) -> datetime:
        return self.created_at + timedelta(seconds=settings.BOT_CHALLENGE_TTL_S)

    @property
    def is_open(self) -> bool:
        """Pending and not yet expired: the bot may still accept it."""
        return self.status == self.Status.PENDING and timezone.now() < self.expires_at

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


class Measurement(models.Model):
    """A "measure my agent" run (docs/bots.md): bot account `bot` plays `games_per_step` games
        against each step of a game's calibrated house ladder (`steps`, bot profile slugs, weakest
        first), one game at a time, colours alternating, each from the game's start or from an
    opening of the set it names, each opening with both colours; its rating on
        the site's scale comes from those results (`server.agents.measuring`).
    """

    class Status(models.TextChoices):
        QUEUED = "queued"  # waiting for room: the bot plays as many games as it may already
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"  # `reason` says why (the bot never moved, ...)
        CANCELLED = "cancelled"  # by its owner

    bot = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="measurements")
    game = models.CharField(max_length=40)
    steps = models.JSONField(default=list)
    games_per_step = models.PositiveSmallIntegerField()
    clock = models.JSONField()  # {"minutes", "increment"}: the agent's clock in every game
    # The opening set its games start from (server/agents/openings.py); blank: the initial position.
    openings = models.CharField(max_length=20, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    reason = models.CharField(max_length=200, blank=True, default="")
    result = models.JSONField(null=True, blank=True)  # the rating and the table per step, when done
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["bot", "status"])]

    def __str__(self) -> str:
        return f"measurement #{self.pk} of {self.bot} ({self.game}, {self.status})"

    @property
    def is_live(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


class MeasurementGame(models.Model):
    """One game of a measurement: against house bot `step`, the agent in `agent_seat`."""

    measurement = models.ForeignKey(Measurement, on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="+")
    step = models.SlugField(max_length=60)
    agent_seat = models.PositiveSmallIntegerField()
    opening = models.PositiveSmallIntegerField(null=True, blank=True)  # its index in the run's set

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"match #{self.match_id} of measurement #{self.measurement_id} against {self.step}"

"""Tournaments, their entrants and their pairings (docs/tournaments.md).

A pairing's match is an ordinary match (server/matches): the tournament only links to it, so
a tournament game is played, rated, shown and exported as every match is.
"""

from __future__ import annotations

from django.db import models

from server.matches.models import Match
from server.players.models import Player


class Tournament(models.Model):
    class Kind(models.TextChoices):
        ROUND_ROBIN = "round_robin"
        SWISS = "swiss"
        ARENA = "arena"

    class Entry(models.TextChoices):
        PEOPLE = "people"  # people with accounts only: bots never take a person's place
        BOTS = "bots"  # bot accounts and house bots
        OPEN = "open"  # anyone with an account, and bots

    class Status(models.TextChoices):
        SCHEDULED = "scheduled"  # taking entrants, waiting for its start
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"  # fewer than two entrants at its start

    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    game = models.CharField(max_length=40)
    clock = models.CharField(max_length=12)  # "5+3": minutes + seconds a move, one of the site's time controls
    entry = models.CharField(max_length=8, choices=Entry.choices, default=Entry.PEOPLE)
    rated = models.BooleanField(default=True)  # its games count where such games count today
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    starts_at = models.DateTimeField()
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)  # Swiss: asked; round robin: set at the start
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)  # arena: how long it runs
    max_entrants = models.PositiveSmallIntegerField(default=16)
    round = models.PositiveSmallIntegerField(default=0)  # the round under way (0 before the first)
    created_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)  # arena: no pairing from then on
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind}, {self.game})"

    @property
    def takes_entrants(self) -> bool:
        """Round robins and Swiss take entrants until they start (their pairings are for a field
        known in advance); an arena until its end, as lichess's do."""
        if self.status == self.Status.SCHEDULED:
            return True
        return self.kind == self.Kind.ARENA and self.status == self.Status.RUNNING


class Entrant(models.Model):
    """One side of a tournament: a person, a bot account (a `Player` with an owner) or a house bot."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    bot_profile = models.ForeignKey(
        "bots.BotProfile", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rating = models.PositiveIntegerField()  # in the tournament's game when they entered: the seed order
    withdrawn = models.BooleanField(default=False)  # plays no more games; their results stand
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], condition=models.Q(player__isnull=False), name="one_entry_per_player"
            ),
            models.UniqueConstraint(
                fields=["tournament", "bot_profile"],
                condition=models.Q(bot_profile__isnull=False),
                name="one_entry_per_house_bot",
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=False, bot_profile__isnull=True)
                | models.Q(player__isnull=True, bot_profile__isnull=False),
                name="entrant_is_player_or_house_bot",
            ),
        ]

    def __str__(self) -> str:
        who = self.bot_profile.name if self.bot_profile is not None else getattr(self.player, "name", "?")
        return f"{who} in tournament {self.tournament_id}"

    @property
    def is_ai(self) -> bool:
        return self.bot_profile_id is not None or (self.player is not None and self.player.is_bot)


class Pairing(models.Model):
    """Two entrants of one round and their match, or an entrant's bye (no black, no match).

    `white` takes seat 0.  The scores are in half points (2 a win, 1 a draw, 0 a loss), set
    once when the match ends (null while it runs); a bye scores a win.  Arena pairings all have
    round 0: an arena has no rounds.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    white = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    black = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_pairing"
    )
    white_score = models.PositiveSmallIntegerField(null=True, blank=True)
    black_score = models.PositiveSmallIntegerField(null=True, blank=True)
    # Why the scores are what they are when it is not the board: "bye", "no first move", "abandoned".
    note = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "pk"]
        indexes = [models.Index(fields=["tournament", "finished_at"])]

    def __str__(self) -> str:
        return f"round {self.round}: {self.white_id} - {self.black_id}"

    @property
    def is_bye(self) -> bool:
        return self.black_id is None

    @property
    def done(self) -> bool:
        return self.white_score is not None

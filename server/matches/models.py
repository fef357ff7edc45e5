"""Matches, their seats and their moves; the event log that sockets replay."""

from __future__ import annotations

from typing import Any

from django.db import models

from games import Game, registry
from server.players.models import Player


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"  # a seat is still open
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"
        # Nobody is playing it any more (the lobby's rule, server/matches/services/endings.py): not live,
        # not over; its person resumes it from "Your matches".
        ADJOURNED = "adjourned"

    game = models.CharField(max_length=40)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    state = models.JSONField()  # game.to_json of the current position
    ply = models.PositiveIntegerField(default=0)  # moves played, chance events included
    to_move = models.SmallIntegerField(null=True, blank=True)  # seat index, -1 for chance
    v = models.PositiveIntegerField(default=0)  # event version: grows with every change
    result = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    adjourned_at = models.DateTimeField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # Where the match came from: "play" on the site, "selfplay" (or a dataset's own name) from
    # `manage.py selfplay`, so research exports can take generated games in or leave them out.
    source = models.SlugField(max_length=40, default="play", db_index=True)
    # Whether the result counts for the people's ratings (server/ratings), chosen at creation:
    # casual unless asked; never with hints, nor against bots unless
    # settings.BOT_GAMES_RATED_FOR_HUMANS says so (fairness towards players).
    rated = models.BooleanField(default=False)
    # Chosen at creation: the person playing against bots may ask for the best move (never when rated).
    hints_allowed = models.BooleanField(default=False)
    # A takeback request or draw offer waiting for an answer (between people):
    # {"kind": "takeback"|"draw", "seat": n, "ply": n, "awaiting": [seats still to accept]}.
    offer = models.JSONField(null=True, blank=True)
    # Optional clocks: {"initial_ms", "increment_ms"}; `clock_ms` is each seat's time left
    # when the current turn started (the seat to move has used `now - turn_started_at` since).
    clock = models.JSONField(null=True, blank=True)
    clock_ms = models.JSONField(null=True, blank=True)
    # The game's options chosen at creation (`GameSpec.options`: backgammon's cube, Jacoby rule,
    # match length), every declared option with its value; {} for a game that declares none.
    options = models.JSONField(default=dict, blank=True)
    # Plies the match started from, played before it began (a measurement's opening): its
    # first moves, stored like any, which start no clock (server/agents/openings.py).
    opening_plies = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"])]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    def rules(self) -> Game[Any]:
        """The game this match plays: its rules as its `options` configure them (docs/design.md §2:
        every rules call asks this, never the registry's default game).  A game that declares no
        options is played as registered (what `with_options({})` gives it)."""
        game = registry.get(self.game)
        return game.with_options(self.options) if self.options else game


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human"
        BOT = "bot"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="seats")
    bot_profile = models.ForeignKey(
        "bots.BotProfile", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    # The bot's whole configuration when the match was made: later edits don't rewrite history.
    # A person's seat has none; a bot account's (a human-kind seat) has {"kind": "agent", "name", "owner"}.
    bot_snapshot = models.JSONField(null=True, blank=True)
    # Presence of a human seat's sockets: `online` while one is connected (kept fresh by the
    # web processes' heartbeat, `last_seen_at`); a seat gone for the grace abandons the match.
    online = models.BooleanField(default=False)
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(
                fields=["match", "player"], condition=models.Q(player__isnull=False), name="one_seat_per_player"
            ),
            models.CheckConstraint(
                condition=models.Q(kind="human", bot_profile__isnull=True)
                | models.Q(kind="bot", bot_profile__isnull=False, player__isnull=True),
                name="seat_is_human_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of match {self.match_id}"

    @property
    def is_open(self) -> bool:
        return self.kind == self.Kind.HUMAN and self.player_id is None


class Move(models.Model):
    """One ply of a match.  Seat -1 is chance (dice).  Unique per (match, ply): exactly once."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.SmallIntegerField()
    move = models.CharField(max_length=200)
    # The move as players write it (`Game.move_notation`: SAN in chess); blank where it is the move itself.
    notation = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    think_ms = models.PositiveIntegerField(default=0)  # from the turn's start to the move
    stats = models.JSONField(null=True, blank=True)  # the bot's search figures
    # Why a bot's move came from no search (the watchdog's last resort), blank for real moves.
    fallback = models.CharField(max_length=200, blank=True, default="")
    # How long a bot's turn waited for a free worker before its search started (ms).
    queue_wait_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [models.UniqueConstraint(fields=["match", "ply"], name="one_move_per_ply")]

    def __str__(self) -> str:
        return f"{self.move} (ply {self.ply}, seat {self.seat})"


class MatchEvent(models.Model):
    """A frame sent to the match's sockets, kept so a reconnecting client can replay it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    v = models.PositiveIntegerField()
    frame = models.JSONField()

    class Meta:
        ordering = ["match", "v"]
        constraints = [models.UniqueConstraint(fields=["match", "v"], name="one_event_per_version")]

    def __str__(self) -> str:
        return f"v{self.v} {self.frame.get('type')}"

    def as_frame(self) -> dict[str, Any]:
        return {**self.frame, "v": self.v}

"""Glicko-2 ratings per game, people's and the changes rated matches made to them and to bots (docs/design.md §4)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from server.bots.models import BotProfile
from server.matches.models import Match
from server.players.models import Player
from server.ratings import glicko2


class PlayerRating(models.Model):
    """A person's current rating in one game; none until their first rated match ends."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=40)
    rating = models.FloatField(default=glicko2.BASE)
    deviation = models.FloatField(default=glicko2.START_DEVIATION)
    volatility = models.FloatField(default=glicko2.START_VOLATILITY)
    games = models.PositiveIntegerField(default=0)  # rated matches played in this game
    updated_at = models.DateTimeField(null=True, blank=True)  # when the last rated match ended

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["game", "-rating"])]

    def __str__(self) -> str:
        return f"{self.player} {self.game} {self.rating:.0f}±{self.deviation:.0f}"

    @property
    def provisional(self) -> bool:
        return self.deviation > settings.RATING_PROVISIONAL_DEVIATION

    def as_glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.deviation, self.volatility)


class RatingChange(models.Model):
    """One person's rating before and after one rated match: the history a graph draws.

    Unique per (match, player): a match changes a rating exactly once (docs/design.md §6).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=40)
    score = models.FloatField(help_text="the player's points in the match: 1 win, 0.5 draw, 0 loss")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    volatility_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="one_change_per_match_and_player")]
        indexes = [models.Index(fields=["player", "game", "at"])]

    def __str__(self) -> str:
        return f"{self.player} {self.rating_before:.0f}→{self.rating_after:.0f} in match {self.match_id}"


class BotRatingChange(models.Model):
    """A bot's rating before and after one rated match against people (docs/design.md §4).

    Bots are placed on the people's scale by calibration (`server.bots.placement`) and moved
    by their rated games against people, as a person is.  Unique per (match, profile): two
    seats of one bot in a match are one rating period of it.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="bot_rating_changes")
    profile = models.ForeignKey(BotProfile, on_delete=models.CASCADE, related_name="rating_changes")
    score = models.FloatField(help_text="the bot's points against the people of the match: 1 win, 0.5 draw, 0 loss")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["match", "profile"], name="one_bot_change_per_match")]

    def __str__(self) -> str:
        return f"{self.profile} {self.rating_before:.0f}→{self.rating_after:.0f} in match {self.match_id}"

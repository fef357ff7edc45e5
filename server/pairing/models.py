"""Seeks: a person in the lobby asking for an opponent (docs/design.md §4, quick pairing)."""

from __future__ import annotations

from django.db import models

from server.players.models import Player


class Seek(models.Model):
    """One person's open request for a game against another person.

    It belongs to the lobby socket that placed it (`channel`): that socket closing, or its
    person going offline everywhere (a web process that died), takes it away.  A person has
    at most one open seek; placing another replaces it.
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="seek")
    channel = models.CharField(max_length=200)  # the lobby socket's channel name: where `paired` goes
    game = models.CharField(max_length=40)
    clock = models.CharField(max_length=12, blank=True, default="")  # "5+3" (minutes + seconds a move), "" none
    rated = models.BooleanField(default=True)
    rating = models.PositiveIntegerField()  # the person's rating in `game` when the seek was placed
    # How far the opponent's rating may be from `rating`, either way; null accepts anyone.
    rating_range = models.PositiveIntegerField(null=True, blank=True)
    # The game's options (backgammon's cube, match length), every declared one with its value:
    # seeks pair only with the same options, and the match plays them.
    options = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["game", "clock", "rated"])]

    def __str__(self) -> str:
        return f"{self.player} seeks {self.game} {self.clock or 'no clock'}"

    def accepts(self, rating: int) -> bool:
        """Whether an opponent rated `rating` is inside this seek's range."""
        return self.rating_range is None or abs(rating - self.rating) <= self.rating_range

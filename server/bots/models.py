"""Bot profiles: the configured AI opponents that players choose from."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

import ai
from games import registry


def validate_game_id(value: str) -> None:
    try:
        registry.get(value)
    except KeyError as exc:
        raise ValidationError(str(exc.args[0])) from None


class BotProfile(models.Model):
    """An AI opponent.  It is always disclosed as one: `is_ai` is a constant, not a field."""

    ALGORITHMS = [(name, name) for name in ai.ALGORITHMS]
    STYLES = [("balanced", "balanced"), ("aggressive", "aggressive"), ("defensive", "defensive")]

    slug = models.SlugField(max_length=60, unique=True)
    game = models.CharField(max_length=40, validators=[validate_game_id])
    name = models.CharField(max_length=60)
    level = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(10)])
    algorithm = models.CharField(max_length=20, choices=ALGORITHMS)
    time_budget_ms = models.PositiveIntegerField(
        default=1000, validators=[MinValueValidator(50), MaxValueValidator(30_000)]
    )
    max_depth = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(64)])
    error_rate = models.FloatField(default=0.0, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    style = models.CharField(max_length=20, choices=STYLES, default="balanced")
    description = models.TextField(blank=True)
    rating = models.FloatField(null=True, blank=True, help_text="Measured Elo; the random mover is 0.")
    listed = models.BooleanField(default=True)

    is_ai = True  # disclosure is not configurable (DESIGN §6.1)

    class Meta:
        ordering = ["game", "level"]

    def __str__(self) -> str:
        return f"{self.name} (AI, level {self.level})"

    def clean(self) -> None:
        try:
            self.search_config()
        except ValueError as exc:
            raise ValidationError(str(exc)) from None
        game = registry.get(self.game) if self.game else None
        if game and self.algorithm == "maxn" and game.num_players < 3:
            raise ValidationError({"algorithm": "max^n is for games of three or more players"})

    def search_config(self, seed: int | None = None) -> ai.SearchConfig:
        return ai.SearchConfig(
            algorithm=self.algorithm,
            time_budget_ms=self.time_budget_ms,
            max_depth=self.max_depth,
            error_rate=self.error_rate,
            style=self.style,
            seed=seed,
        )

    def snapshot(self) -> dict[str, Any]:
        """The whole configuration, as kept with each seat it plays (for logs and exports)."""
        return {
            "slug": self.slug,
            "name": self.name,
            "game": self.game,
            "level": self.level,
            "algorithm": self.algorithm,
            "time_budget_ms": self.time_budget_ms,
            "max_depth": self.max_depth,
            "error_rate": self.error_rate,
            "style": self.style,
            "rating": self.rating,
        }

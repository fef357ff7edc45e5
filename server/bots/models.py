"""Bot profiles: the configured AI opponents that players choose from."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils import timezone

import ai
from games import registry
from server.bots import measured
from server.players.models import Player
from server.players.names import bot_name_problems, name_skeleton

OPPONENT_MODEL_PATTERN = r"^(optimal|uniform|adaptive|epsilon:(0(\.\d+)?|1(\.0+)?)|softmax:\d+(\.\d+)?)$"
OPPONENT_MODEL_HELP = (
    "optimal, uniform, epsilon:E (a random reply with probability E, the best otherwise), "
    "softmax:T (temperature T) or adaptive (E fitted from the opponent's moves in the match)"
)


def validate_game_id(value: str) -> None:
    try:
        registry.get(value)
    except KeyError as exc:
        raise ValidationError(str(exc.args[0])) from None


class BotProfile(models.Model):
    """An AI opponent.  It is always disclosed as one: `is_ai` is a constant, not a field."""

    STYLES = [("balanced", "balanced"), ("aggressive", "aggressive"), ("defensive", "defensive")]

    slug = models.SlugField(max_length=60, unique=True)
    game = models.CharField(max_length=40, validators=[validate_game_id])
    name = models.CharField(max_length=60)
    level = models.PositiveSmallIntegerField(
        validators=[MaxValueValidator(10)], help_text="0 is the random mover; 1 Beginner to 5 Master"
    )
    # An id of `ai.CATALOGUE`, checked there (`profile_problems`), not by choices: a new searcher needs no migration.
    algorithm = models.CharField(max_length=20)
    time_budget_ms = models.PositiveIntegerField(
        default=1000, validators=[MinValueValidator(50), MaxValueValidator(30_000)]
    )
    max_depth = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(64)],
        help_text="plies; empty: no cap",
    )
    max_iterations = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(10), MaxValueValidator(10_000_000)],
        help_text="MCTS simulations per move; empty: as many as the budget allows",
    )
    slip_rate = models.FloatField(
        default=0.0,
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],  # 1: never its best (backgammon's Dice)
        verbose_name="slip rate",
        help_text="chance per move of a slip: a plausible second-best move (never a thrown-away piece)",
    )
    temperature = models.FloatField(
        default=0.0,
        validators=[MinValueValidator(0.0), MaxValueValidator(5.0)],
        help_text="softmax over the root values; 0 always plays the best",
    )
    style = models.CharField(max_length=20, choices=STYLES, default="balanced")
    opponent_model = models.CharField(
        max_length=30,
        blank=True,
        validators=[RegexValidator(OPPONENT_MODEL_PATTERN, OPPONENT_MODEL_HELP)],
        help_text=f"expectimax only: {OPPONENT_MODEL_HELP}",
    )
    search_options = models.JSONField(default=dict, blank=True, help_text='e.g. {"paranoid": true} for max^n')
    min_think_ms = models.PositiveIntegerField(
        default=0, help_text="a human-like minimum time before the move is shown; at most the budget"
    )
    adaptive = models.BooleanField(
        default=False, help_text="adjusts its strength so that each player scores about half against it"
    )
    description = models.TextField(blank=True)
    # On the people's Glicko-2 scale: placed by calibration (`placement`), moved by rated games against people.
    rating = models.FloatField(null=True, blank=True, help_text="Glicko-2, the scale people are rated on")
    deviation = models.FloatField(null=True, blank=True, help_text="the rating's uncertainty (RD), in rating points")
    volatility = models.FloatField(null=True, blank=True)
    rating_low = models.FloatField(null=True, blank=True, help_text="calibration's 95% interval, low end")
    rating_high = models.FloatField(null=True, blank=True, help_text="calibration's 95% interval, high end")
    rated_games = models.PositiveIntegerField(default=0, help_text="calibration games behind the rating")
    measured_on = models.DateField(null=True, blank=True, help_text="when the rating was measured")
    rating_method = models.CharField(max_length=300, blank=True, help_text="how: the calibration command")
    rating_budget_cap_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="the budget it was measured with, when a cap cut its own"
    )
    # The playing settings the rating was measured with (`measured.fingerprint`): a rating
    # belongs to those settings, so changing them clears it.
    rating_fingerprint = models.CharField(max_length=16, blank=True)
    # When a change of its playing settings cleared a measured rating: shown "no longer measured".
    unmeasured_since = models.DateField(
        null=True, blank=True, help_text="its settings changed after its rating was measured; empty once measured again"
    )
    listed = models.BooleanField(default=True, help_text="shown in the lobby and /api/bots/")

    is_ai = True  # disclosure is not configurable (docs/design.md §6.1)

    class Meta:
        ordering = ["game", "level"]

    def __str__(self) -> str:
        return f"{self.name} (AI, level {self.level})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if (
            self.rating is not None
            and self.rating_fingerprint
            and self.rating_fingerprint != measured.profile_fingerprint(self)
        ):
            self.clear_rating()
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], *measured.MEASURED_FIELDS}
        super().save(*args, **kwargs)

    def clear_rating(self) -> None:
        """Forget the measured rating: it was measured with other settings ("no longer measured")."""
        if self.rating is not None:
            self.unmeasured_since = timezone.localdate()
        for field, empty in measured.RATING_FIELDS.items():
            setattr(self, field, empty)

    @property
    def provisional(self) -> bool:
        """Shown with "?" as a person's rating is: its deviation is above the people's threshold."""
        return self.deviation is None or self.deviation > settings.RATING_PROVISIONAL_DEVIATION

    def clean(self) -> None:
        errors = profile_problems(self)
        if errors:
            raise ValidationError(errors)

    def search_config(self, seed: int | None = None) -> ai.SearchConfig:
        return ai.SearchConfig(seed=seed, **self.search_fields())

    def search_fields(self) -> dict[str, Any]:
        """The `ai.SearchConfig` fields this profile sets."""
        return {
            "algorithm": self.algorithm,
            "time_budget_ms": self.time_budget_ms,
            "max_depth": self.max_depth,
            "max_iterations": self.max_iterations,
            "slip_rate": self.slip_rate,
            "temperature": self.temperature,
            "style": self.style,
            "opponent_model": self.opponent_model or None,
            "options": dict(self.search_options or {}),
        }

    def snapshot(self) -> dict[str, Any]:
        """The whole configuration, as kept with each seat it plays (for logs and exports)."""
        return {
            "slug": self.slug,
            "name": self.name,
            "game": self.game,
            "level": self.level,
            **self.search_fields(),
            "min_think_ms": self.min_think_ms,
            "adaptive": self.adaptive,
            "rating": self.rating,
            "is_ai": True,
        }


class AdaptiveStrength(models.Model):
    """How hard an adaptive bot plays against one player; see `server.bots.adaptive`."""

    profile = models.ForeignKey(BotProfile, on_delete=models.CASCADE, related_name="strengths")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    strength = models.FloatField(default=0.5)
    games = models.PositiveIntegerField(default=0)
    player_score = models.FloatField(default=0.0, help_text="the player's points against this bot")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["profile", "player"], name="one_strength_per_pair")]

    def __str__(self) -> str:
        return f"{self.profile.slug} vs {self.player_id}: {self.strength:.2f}"


def bot_name_problem(name: str) -> str | None:
    """What is wrong with a bot's name: invisible characters, or an account's look (bots and people never share one)."""
    if problems := bot_name_problems(name):
        return problems[0]
    if Player.objects.filter(is_guest=False, name_key=name_skeleton(name)).exists():
        return "an account has this name, or one that looks like it: a bot and a person never share a name"
    return None


def profile_problems(profile: BotProfile) -> dict[str, str]:
    """What is wrong with a profile's settings, by field, in words an admin can act on.

    Whether the algorithm fits the game, and what it takes, is `ai.CATALOGUE`'s to say;
    the options are parsed as a search would parse them (`ai.SearchConfig`).
    """
    errors: dict[str, str] = {}
    if problem := bot_name_problem(profile.name):
        errors["name"] = problem
    try:
        game = registry.get(profile.game)
    except KeyError as exc:
        return {**errors, "game": str(exc.args[0])}
    algorithm = ai.CATALOGUE.get(profile.algorithm)
    if algorithm is None:
        return {**errors, "algorithm": f"unknown algorithm {profile.algorithm!r}; known: {', '.join(ai.CATALOGUE)}"}
    if problem := algorithm.problem(game):
        errors["algorithm"] = problem
    modelled = algorithm.can(ai.Capability.OPPONENT_MODEL)
    if modelled and not profile.opponent_model and not game.has_chance:
        errors["opponent_model"] = f"{algorithm.label} needs an opponent model (or a game with chance)"
    if profile.opponent_model and not modelled:
        users = " and ".join(a.label for a in ai.CATALOGUE.values() if a.can(ai.Capability.OPPONENT_MODEL))
        errors["opponent_model"] = f"only {users} uses an opponent model"
    if profile.max_iterations and not algorithm.can(ai.Capability.COUNTS_ITERATIONS):
        counters = " and ".join(a.label for a in ai.CATALOGUE.values() if a.can(ai.Capability.COUNTS_ITERATIONS))
        errors["max_iterations"] = f"only {counters} counts iterations; cap other searchers by depth"
    if profile.min_think_ms > profile.time_budget_ms:
        errors["min_think_ms"] = "the minimum think time cannot exceed the time budget"
    if not isinstance(profile.search_options, dict):
        errors["search_options"] = "a JSON object, such as {}"
    elif problem := ai.trap_model_problem(game, algorithm, profile.search_options.get("trap_model")):
        errors["search_options"] = problem
    if not errors:
        try:
            profile.search_config()
        except (TypeError, ValueError) as exc:
            field = "search_options" if "option" in str(exc) else "algorithm"
            errors[field] = str(exc)
    return errors


class BotTurnRecord(models.Model):
    """When a bot turn was queued and when its search started: what the watchdog and the move's timing read.

    One row per (match, ply), written again when a takeback brings the ply back.  Kept in
    the database so that a restarted web process still knows which turns wait for a free
    worker (never overdue) and which searches started and were lost (queued once more).
    """

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField()
    budget_ms = models.PositiveIntegerField()
    queued_at = models.DateTimeField()
    # When the latest search of this turn started; null while the turn waits for a worker.
    started_at = models.DateTimeField(null=True, blank=True)
    searches = models.PositiveSmallIntegerField(default=0, help_text="searches started for this turn")
    # Which queued task runs the search: a duplicate from another queueing stands aside,
    # the same task delivered again (its worker died) takes over.
    search_token = models.CharField(max_length=32, blank=True)
    # When the watchdog queued the turn again (a lost search, or a message feared lost).
    requeued_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "ply"], name="one_record_per_bot_turn")]
        indexes = [models.Index(fields=["started_at"])]

    def __str__(self) -> str:
        return f"bot turn of match {self.match_id} at ply {self.ply}"

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

import ai
from server.bots import measured
from server.bots.models import AdaptiveStrength, BotProfile
from server.bots.selectors import bot_record


def _algorithm_choices() -> list[tuple[str, str]]:
    return [(a.id, a.label) for a in ai.CATALOGUE.values()]


class BotProfileForm(forms.ModelForm[BotProfile]):
    # The searchers of the catalogue, read when the form is drawn (the model field has no choices).
    algorithm = forms.ChoiceField(choices=_algorithm_choices)

    class Meta:
        model = BotProfile
        fields = ["algorithm"]  # the admin adds the rest from its fieldsets


@admin.register(BotProfile)
class BotProfileAdmin(admin.ModelAdmin[BotProfile]):
    """Admins configure difficulty here; `BotProfile.clean` explains every refused setting."""

    form = BotProfileForm

    list_display = ["name", "game", "level", "algorithm", "time_budget_ms", "max_depth", "error_rate",
                    "rating_with_interval", "listed"]  # fmt: skip
    list_filter = ["game", "algorithm", "listed", "adaptive"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ("game", "name")}
    readonly_fields = ["disclosed_as_ai", "rating", "rating_low", "rating_high", "rated_games", "measured_on",
                       "rating_method", "rating_budget_cap_ms", "record"]  # fmt: skip
    fieldsets = [
        (None, {"fields": ["slug", "game", "name", "level", "listed", "description", "disclosed_as_ai"]}),
        ("Search", {"fields": ["algorithm", "time_budget_ms", "max_depth", "max_iterations", "search_options"]}),
        (
            "Weakening and style",
            {"fields": ["error_rate", "temperature", "style", "opponent_model", "min_think_ms", "adaptive"]},
        ),  # fmt: skip
        ("Measured", {"fields": ["rating", "rating_low", "rating_high", "rated_games", "measured_on", "rating_method",
                                 "rating_budget_cap_ms", "record"]}),
    ]  # fmt: skip

    def save_model(self, request: HttpRequest, obj: BotProfile, form: Any, change: bool) -> None:
        # A rating belongs to the settings it was measured with: changing how the bot plays
        # clears it ("rating not measured yet") until `manage.py calibrate` measures it again.
        if change and set(form.changed_data) & set(measured.PLAYING_FIELDS):
            obj.clear_rating()
        super().save_model(request, obj, form, change)

    @admin.display(description="Shown as an AI")
    def disclosed_as_ai(self, obj: BotProfile) -> str:
        return "Always: every page, frame and export marks a bot as an AI."

    @admin.display(description="Rating (95% interval)", ordering="rating")
    def rating_with_interval(self, obj: BotProfile) -> str:
        if obj.rating is None:
            return "not measured"
        if obj.rating_low is None:
            return f"{obj.rating:.0f}"
        return f"{obj.rating:.0f} ({obj.rating_low:.0f} to {obj.rating_high:.0f})"

    @admin.display(description="Games played; people's score against it")
    def record(self, obj: BotProfile) -> str:
        if obj.pk is None:
            return "-"  # type: ignore[unreachable]  # the add form's profile is unsaved; the stubs say a pk is always there
        rec = bot_record(obj)
        against = "no games against people yet"
        if rec.human_score is not None:
            against = f"people scored {rec.human_score:.0%} over {rec.human_games} games"
        return f"{rec.games} games; {against}"


@admin.register(AdaptiveStrength)
class AdaptiveStrengthAdmin(admin.ModelAdmin[AdaptiveStrength]):
    list_display = ["profile", "player", "strength", "games", "player_score"]
    list_filter = ["profile"]

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

import ai
from server.bots import measured
from server.bots.models import AdaptiveStrength, BotProfile
from server.bots.selectors import bot_record, how_it_plays


def _algorithm_choices() -> list[tuple[str, str]]:
    return [(a.id, a.label) for a in ai.CATALOGUE.values()]


class BotProfileForm(forms.ModelForm[BotProfile]):
    # The searchers of the catalogue, read when the form is drawn (the model field has no choices).
    algorithm = forms.ChoiceField(choices=_algorithm_choices)
    description_still_true = forms.BooleanField(
        required=False,
        label="Description and level still true",
        help_text="after a change of how it plays: tick to keep the description and level as they are",
    )

    class Meta:
        model = BotProfile
        fields = ["algorithm"]  # the admin adds the rest from its fieldsets

    def clean(self) -> dict[str, Any]:
        """A change of how the bot plays (depth, budget...) asks for its description and level to
        follow: players choose a bot by them.  Kept only when the admin says they still hold."""
        data = super().clean() or {}
        changed = [f for f in self.changed_data if f in measured.PLAYING_FIELDS]
        words_changed = {"description", "level"} & set(self.changed_data)
        if self.instance.pk and changed and not words_changed and not data.get("description_still_true"):
            now = " ".join(how_it_plays(self._with_new_settings(data))[:2])
            self.add_error(
                "description",
                f"You changed how this bot plays ({', '.join(changed)}): its description and level were written "
                f'for the old settings. Update them, or tick "Description and level still true". '
                f"Its settings now read: {now}",
            )
        return data

    def _with_new_settings(self, data: dict[str, Any]) -> BotProfile:
        """An unsaved copy of the profile with the form's settings, to put them in words."""
        copy = BotProfile(**{f.attname: getattr(self.instance, f.attname) for f in BotProfile._meta.concrete_fields})
        for field in measured.PLAYING_FIELDS:
            if field in data:
                setattr(copy, field, data[field])
        return copy


@admin.register(BotProfile)
class BotProfileAdmin(admin.ModelAdmin[BotProfile]):
    """Admins configure difficulty here; `BotProfile.clean` explains every refused setting."""

    form = BotProfileForm

    list_display = ["name", "game", "level", "algorithm", "time_budget_ms", "max_depth", "slip_rate",
                    "rating_with_interval", "listed"]  # fmt: skip
    list_filter = ["game", "algorithm", "listed", "adaptive"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ("game", "name")}
    readonly_fields = ["disclosed_as_ai", "rating", "deviation", "rating_low", "rating_high", "rated_games",
                       "measured_on", "rating_method", "rating_budget_cap_ms", "unmeasured_since",
                       "record"]  # fmt: skip
    fieldsets = [
        (None, {"fields": ["slug", "game", "name", "level", "listed", "description", "description_still_true",
                           "disclosed_as_ai"]}),
        ("Search", {"fields": ["algorithm", "time_budget_ms", "max_depth", "max_iterations", "search_options"]}),
        (
            "Weakening and style",
            {"fields": ["slip_rate", "temperature", "style", "opponent_model", "min_think_ms", "adaptive"]},
        ),  # fmt: skip
        ("Measured", {"fields": ["rating", "deviation", "rating_low", "rating_high", "rated_games", "measured_on",
                                 "rating_method", "rating_budget_cap_ms", "unmeasured_since", "record"]}),
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

    @admin.display(description="Rating ± RD", ordering="rating")
    def rating_with_interval(self, obj: BotProfile) -> str:
        if obj.rating is None and obj.unmeasured_since:
            return f"no longer measured (settings changed {obj.unmeasured_since.isoformat()})"
        if obj.rating is None:
            return "not measured"
        return f"{obj.rating:.0f}{'?' if obj.provisional else ''} ± {obj.deviation or 0:.0f}"

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

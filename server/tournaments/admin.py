"""Tournaments in the Django admin: an admin creates one (the site's, no creator) and enters house bots."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from server.bots.models import BotProfile
from server.matches.errors import MatchError
from server.tournaments import services
from server.tournaments.models import Entrant, Pairing, Tournament


class TournamentForm(forms.ModelForm[Tournament]):
    house_bots = forms.ModelMultipleChoiceField(
        queryset=BotProfile.objects.all(),
        required=False,
        help_text="house bots to enter (of the tournament's game; not in a tournament for people)",
    )

    class Meta:
        model = Tournament
        fields = ["name", "kind", "game", "clock", "entry", "rated", "starts_at", "rounds", "minutes", "max_entrants"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.instance._state.adding and not self.errors:  # a new one: checked as the API checks it
            try:
                services.check_request(services.TournamentRequest.from_form(data))
            except MatchError as exc:
                raise ValidationError(exc.message) from exc
        bots = data.get("house_bots") or []
        if bots and data.get("entry") == Tournament.Entry.PEOPLE:
            raise ValidationError("this tournament is for people: bots never take a person's place")
        if wrong := [b.name for b in bots if b.game != data.get("game")]:
            raise ValidationError(f"{', '.join(wrong)} play another game than this tournament's")
        return data


class EntrantInline(admin.TabularInline[Entrant, Tournament]):
    model = Entrant
    fields = ["player", "bot_profile", "rating", "withdrawn"]
    readonly_fields = ["player", "bot_profile", "rating"]
    extra = 0
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    form = TournamentForm
    list_display = ["name", "kind", "game", "clock", "entry", "status", "starts_at", "round", "rounds"]
    list_filter = ["status", "kind", "game"]
    inlines = [EntrantInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> list[str]:
        if obj is None:
            return []
        return ["kind", "game", "clock", "entry", "rated", "rounds", "minutes", "status", "round"]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        for profile in form.cleaned_data.get("house_bots") or []:
            try:
                services.house_bot_add(form.instance.pk, profile)
            except MatchError as exc:
                self.message_user(request, f"{profile.name}: {exc.message}", level="error")


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin[Pairing]):
    list_display = ["tournament", "round", "white", "black", "match", "white_score", "black_score", "note"]
    list_filter = ["tournament"]
    readonly_fields = ["tournament", "round", "white", "black", "match", "white_score", "black_score", "note"]

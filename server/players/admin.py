from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from server.players import accounts
from server.players.models import ApiToken, Player
from server.players.names import name_skeleton, validate_guest_name


class PlayerAdminForm(forms.ModelForm[Player]):
    """A new name passes the sign-up's rules (an account) or the names' policy (a guest); its look follows it."""

    class Meta:
        model = Player
        fields = ["name", "user", "is_guest"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Django's forms answer their cleaned data
        name, guest = data.get("name"), data.get("is_guest")
        if name and not guest and (name != self.instance.name or self.instance.is_guest):
            try:
                accounts.check_account_name(name, self.instance if self.instance.pk else None)
            except ValidationError as error:
                self.add_error("name", error)
        elif name and guest and name != self.instance.name:
            try:
                validate_guest_name(name)
            except ValidationError as error:
                self.add_error("name", error)
        return data

    def save(self, commit: bool = True) -> Player:
        player = super().save(commit=False)
        player.name_key = "" if player.is_guest else name_skeleton(player.name)
        if commit:
            player.save()
        return player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    form = PlayerAdminForm

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if obj.user_id and not obj.is_guest:  # the login name follows, as on the account page
            get_user_model().objects.filter(pk=obj.user_id).update(username=obj.name)

    list_display = ["name", "is_guest", "user", "created_at"]
    search_fields = ["name"]
    list_filter = ["is_guest", "consent_research", "consent_training"]
    # Staff see a person's consent and never set it: only the person decides (server/players/consent.py).
    readonly_fields = ["consent_research", "consent_training", "consent_answered_at"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    list_display = ["player", "label", "created_at", "last_used_at", "expires_at"]
    readonly_fields = ["digest"]

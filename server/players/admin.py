from django.contrib import admin

from server.players.models import ApiToken, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "is_guest", "user", "created_at"]
    search_fields = ["name"]
    list_filter = ["is_guest"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["player", "label", "created_at", "last_used_at", "expires_at"]
    readonly_fields = ["digest"]

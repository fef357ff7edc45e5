from django.contrib import admin
from django.http import HttpRequest

from server.matches.models import Match, MatchEvent, Move, Seat
from server.research.admin import export_selected_matches


class SeatInline(admin.TabularInline[Seat, Match]):
    model = Seat
    extra = 0
    readonly_fields = ("index", "kind", "player", "bot_profile", "bot_snapshot")
    fields = readonly_fields
    can_delete = False


class MoveInline(admin.TabularInline[Move, Match]):
    model = Move
    extra = 0
    readonly_fields = ("ply", "seat", "move", "think_ms", "created_at", "stats")
    fields = readonly_fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    """Matches are changed only through the move path; the admin reads them."""

    list_display = ["id", "game", "status", "ply", "created_at", "finished_at"]
    list_filter = ["game", "status", "source"]
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in Match._meta.fields]
    inlines = [SeatInline, MoveInline]
    actions = [export_selected_matches]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin[MatchEvent]):
    list_display = ["match", "v", "__str__"]
    readonly_fields = ["match", "v", "frame"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

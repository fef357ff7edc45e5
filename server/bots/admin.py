from django.contrib import admin

from server.bots.models import BotProfile


@admin.register(BotProfile)
class BotProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "level", "algorithm", "time_budget_ms", "max_depth", "rating", "listed"]
    list_filter = ["game", "algorithm", "listed"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ("game", "name")}
    readonly_fields = ["disclosed_as_ai"]

    @admin.display(description="Shown as an AI")
    def disclosed_as_ai(self, obj: BotProfile) -> str:
        return "Always: every page, frame and export marks a bot as an AI."

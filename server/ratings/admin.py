from django.contrib import admin

from server.ratings.models import PlayerRating, RatingChange


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin[PlayerRating]):
    list_display = ("player", "game", "rating", "deviation", "volatility", "games", "updated_at")
    list_filter = ("game",)
    search_fields = ("player__name",)
    readonly_fields = ("player",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = ("match", "player", "game", "score", "rating_before", "rating_after", "at")
    list_filter = ("game",)
    readonly_fields = [f.name for f in RatingChange._meta.fields]

"""Admin for seasons: stored season tables, ratings and their history (view-only: jobs write)."""

from django.contrib import admin

from seasons.models import (
    ClubRatingState,
    PlayerRating,
    RatedGame,
    RatingChange,
    SeasonSnapshot,
)


class _ViewOnly:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(SeasonSnapshot)
class SeasonSnapshotAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["club", "date_from", "date_to", "version", "computed_at"]
    list_filter = ["club"]
    search_fields = ["club__name"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["player", "club", "ordinal", "mu", "sigma", "games"]
    list_filter = ["club"]
    search_fields = ["player__display_name"]


@admin.register(RatingChange)
class RatingChangeAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["player", "game", "sequence", "ordinal"]
    list_filter = ["player__club"]
    search_fields = ["player__display_name"]


@admin.register(RatedGame)
class RatedGameAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["game", "club", "sequence", "game_version"]
    list_filter = ["club"]
    search_fields = ["game__id"]


@admin.register(ClubRatingState)
class ClubRatingStateAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["club", "last_sequence", "last_game_id", "last_finished_at", "catching_up"]
    list_filter = ["catching_up"]
    search_fields = ["club__name"]

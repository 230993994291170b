"""Admin for rankings: the stored ratings, ranked games, history and placings (view-only: the
job writes them; ``manage.py rebuild_rankings`` repairs them)."""

from django.contrib import admin

from rankings.models import FederationRating, Placing, RankedGame, RankingChange, RankingState


class _ViewOnly:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RankingState)
class RankingStateAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["federation", "last_sequence", "as_of", "version", "updated_at"]
    list_filter = ["updated_at"]
    search_fields = ["federation__name", "federation__slug"]


@admin.register(FederationRating)
class FederationRatingAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["federation_player", "federation", "ordinal", "games", "form", "points"]
    list_filter = ["federation", "federation__slug"]
    search_fields = ["federation_player__display_name"]


@admin.register(RankedGame)
class RankedGameAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["game", "federation", "club", "sequence", "finished_at"]
    list_filter = ["federation"]
    search_fields = ["club__name", "federation__name"]


@admin.register(RankingChange)
class RankingChangeAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["federation_player", "game", "sequence", "ordinal", "won", "form"]
    list_filter = ["federation", "variant"]
    search_fields = ["federation_player__display_name"]


@admin.register(Placing)
class PlacingAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["federation_player", "event_name", "place", "field", "points", "held_at"]
    list_filter = ["federation"]
    search_fields = ["federation_player__display_name", "event_name"]

"""Admin for leagues: leagues, teams, fixtures (with their tables) and penalties, view-only.

Every write goes through ``leagues.services`` (lock, checks, the federation's audit): the admin
reads, it does not change a league behind the audit's back.
"""

from django.contrib import admin

from leagues.models import Fixture, FixtureTable, League, LeagueTeam, Penalty


class _ViewOnly:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(League)
class LeagueAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["name", "federation", "slug", "variant", "season_start", "season_end"]
    list_filter = ["federation", "variant"]
    search_fields = ["name", "slug", "federation__name"]


@admin.register(LeagueTeam)
class LeagueTeamAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["name", "league", "club", "captain"]
    list_filter = ["league"]
    search_fields = ["name", "club__name", "league__name"]


class FixtureTableInline(_ViewOnly, admin.TabularInline):
    model = FixtureTable
    extra = 0


@admin.register(Fixture)
class FixtureAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["league", "round", "home", "away", "date", "status", "home_score", "away_score"]
    list_filter = ["league", "status"]
    search_fields = ["home__name", "away__name", "league__name"]
    inlines = [FixtureTableInline]


@admin.register(Penalty)
class PenaltyAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["team", "league", "points", "reason", "created_at"]
    list_filter = ["league"]
    search_fields = ["team__name", "reason"]

"""Admin pages of tournaments: every model with search and filters, history where it is kept.

What it does: lets staff find and inspect tournaments, entrants, rounds, matches (with their
entrants and games inline), match entrants and the audit trail; ``Round`` and ``Match`` show their
simple-history trail.

What it does not do: run workflows. Drawing, advancing and resetting go through the API (the
services), because they must create games and keep rounds consistent; edits made here bypass
those checks and are meant for repairs only. The audit trail is read-only.
"""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournaments.models import (
    AuditEntry,
    Entrant,
    Match,
    MatchEntrant,
    MatchGame,
    Round,
    Tournament,
)


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    raw_id_fields = ["player", "team"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "format", "entrant_kind", "status", "is_public",
                    "created_at"]
    list_filter = ["format", "status", "game", "entrant_kind", "is_public", "club"]
    search_fields = ["name", "club__name", "club__slug"]
    date_hierarchy = "created_at"
    raw_id_fields = ["club", "created_by"]
    readonly_fields = ["created_at", "updated_at", "closed_at", "version", "draw_order"]
    inlines = [EntrantInline]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "seed", "created_at"]
    list_filter = ["tournament__format", "tournament__club"]
    search_fields = ["player__display_name", "team__name", "tournament__name"]
    raw_id_fields = ["tournament", "player", "team"]


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "tournament", "number", "status", "created_at", "completed_at"]
    list_filter = ["status", "tournament__format"]
    search_fields = ["tournament__name"]
    raw_id_fields = ["tournament", "drawn_by"]


class MatchEntrantInline(admin.TabularInline):
    model = MatchEntrant
    fk_name = "match"
    extra = 0
    raw_id_fields = ["entrant", "source_match"]


class MatchGameInline(admin.TabularInline):
    """The match's games (view only: games are linked when tournaments starts them)."""

    model = MatchGame
    extra = 0
    raw_id_fields = ["game"]
    readonly_fields = ["game"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "tournament", "table", "status", "is_bye", "is_third_place",
                    "decided_at"]
    list_filter = ["status", "is_bye", "is_third_place", "tournament__format"]
    search_fields = ["tournament__name", "slots__entrant__player__display_name",
                     "slots__entrant__team__name"]
    raw_id_fields = ["tournament", "round"]
    inlines = [MatchEntrantInline, MatchGameInline]


@admin.register(MatchEntrant)
class MatchEntrantAdmin(admin.ModelAdmin):
    list_display = ["__str__", "position", "side", "games_won", "points_for", "place", "advances"]
    list_filter = ["advances", "match__tournament__format"]
    search_fields = ["entrant__player__display_name", "entrant__team__name",
                     "match__tournament__name"]
    raw_id_fields = ["match", "entrant", "source_match"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["tournament", "kind", "user", "match", "created_at"]
    list_filter = ["kind", "created_at"]
    search_fields = ["tournament__name", "user__username"]
    readonly_fields = ["tournament", "kind", "user", "match", "details", "created_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

"""Admin for games: games with their seats, sides, hands and history; hands; ledger; keys.

Games, hands and ledger entries are view-only here: a hand is corrected through
``games.services.correct_hand`` (which recomputes every later total and rebooks the ledger), never
by editing a row, and the ledger is only ever appended to. Idempotency records may be deleted.
"""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from games.models import Game, GameSeat, GameSide, Hand, IdempotencyRecord, LedgerEntry


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class _ViewOnly:
    """Admin mixin: rows are shown, never added or changed here (the services own the writes).
    Deleting stays Django's default; ``_ViewOnlyNoDelete`` refuses it too."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class _ViewOnlyNoDelete(_ViewOnly):
    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class GameSeatInline(_ReadOnlyInline):
    model = GameSeat
    fields = ("seat", "player", "side")
    readonly_fields = fields


class GameSideInline(_ReadOnlyInline):
    model = GameSide
    fields = ("index", "team")
    readonly_fields = fields


class HandInline(_ReadOnlyInline):
    model = Hand
    fields = ("number", "dealer", "totals_after", "entered_by", "entered_at")
    readonly_fields = fields
    show_change_link = True


# View only: games are created and changed through the services (the engine validates the
# seating and every hand; a stake changed here would not rebook the ledger).
@admin.register(Game)
class GameAdmin(_ViewOnlyNoDelete, SimpleHistoryAdmin):
    list_display = ("id", "club", "variant", "status", "winner_side", "hands_played", "created_at")
    list_filter = ("status", "variant", "club")
    search_fields = ("id", "club__name", "seats__player__display_name")
    readonly_fields = (
        "club",
        "variant",
        "house_rules",
        "first_dealer",
        "status",
        "winner_side",
        "double_stake",
        "totals",
        "next_dealer",
        "hands_played",
        "engine_state",
        "created_by",
        "created_at",
        "updated_at",
        "version",
    )
    readonly_fields = ("stake_minor", *readonly_fields)
    inlines = [GameSeatInline, GameSideInline, HandInline]


@admin.register(Hand)
class HandAdmin(_ViewOnlyNoDelete, SimpleHistoryAdmin):
    list_display = ("game", "number", "dealer", "entered_by", "entered_at")
    list_select_related = ("game", "entered_by")
    search_fields = ("game__id",)
    list_filter = ("game__club", "game__variant")
    readonly_fields = (
        "game",
        "number",
        "dealer",
        "record",
        "result",
        "totals_after",
        "state_after",
        "entered_by",
        "entered_at",
        "updated_at",
    )


@admin.register(LedgerEntry)
class LedgerEntryAdmin(_ViewOnlyNoDelete, admin.ModelAdmin):
    list_display = ("game", "booking", "player", "amount_minor", "reason", "created_at")
    list_filter = ("reason", "club")
    search_fields = ("player__display_name", "game__id")
    list_select_related = ("game", "player")


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ("key", "scope", "method", "path", "response_status", "created_at")
    search_fields = ("key", "scope", "path")
    list_filter = ("method", "response_status", "scope")
    readonly_fields = (
        "scope",
        "key",
        "fingerprint",
        "method",
        "path",
        "response_status",
        "response_body",
        "response_headers",
        "created_at",
    )

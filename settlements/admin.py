"""Admin for settlements: nights with their games, prize splits, settle-up versions with their
transfers, the entry fees taken at the door, who checked in at a night's door, the clubs' settle-up
rules, and the e-mails sent.

Everything is view-only: nights open and close through ``settlements.services``, versions are
stored and transfers marked paid through ``settlements.settle_up`` (a version is never rewritten).
"""

from django.contrib import admin

from settlements.models import (
    EntryFeePayment,
    Night,
    NightAttendance,
    NightGame,
    PrizeSplit,
    Settlement,
    SettlementTransfer,
    SettleUpMail,
    SettleUpRule,
)


class _ViewOnly:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class NightGameInline(_ViewOnly, admin.TabularInline):
    model = NightGame
    extra = 0


class TransferInline(_ViewOnly, admin.TabularInline):
    model = SettlementTransfer
    fk_name = "settlement"
    extra = 0


class MailInline(_ViewOnly, admin.TabularInline):
    model = SettleUpMail
    extra = 0


@admin.register(Night)
class NightAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["name", "club", "status", "opened_at", "closed_at"]
    list_filter = ["status", "club"]
    search_fields = ["name", "club__name"]
    inlines = [NightGameInline]


@admin.register(PrizeSplit)
class PrizeSplitAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["id", "tournament", "night", "percentages"]
    list_filter = ["night__club"]
    search_fields = ["tournament__name", "night__name"]


@admin.register(Settlement)
class SettlementAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["id", "club", "tournament", "night", "version", "created_at"]
    list_filter = ["club", "version"]
    search_fields = ["tournament__name", "night__name"]
    inlines = [TransferInline, MailInline]


@admin.register(EntryFeePayment)
class EntryFeePaymentAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = [
        "id",
        "club",
        "tournament",
        "night",
        "player",
        "status",
        "amount_minor",
        "marked_at",
    ]
    list_filter = ["club", "status"]
    search_fields = ["player__display_name", "tournament__name", "night__name"]


@admin.register(NightAttendance)
class NightAttendanceAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["id", "night", "player", "at", "checked_in_at", "by"]
    list_filter = ["at", "night__club"]
    search_fields = ["player__display_name", "night__name"]


@admin.register(SettleUpRule)
class SettleUpRuleAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["club", "between_players", "updated_at"]
    list_filter = ["between_players"]
    search_fields = ["club__name"]

"""Admin for the hall screens: the hall links (made and revoked from the console) and each
event's hall settings (the round clock, the leaders switch).

View-only: links are made and revoked, and the clock is run, through ``hall.services`` (the
console and the organisers' API), which keep the screen's version and the audit right. A link
shows its hashes only: its token and short code are never stored.
"""

from django.contrib import admin

from hall.models import HallLink, HallSettings


class _ViewOnly:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(HallLink)
class HallLinkAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["pk", "tournament", "night", "created_by", "created_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter), "created_at"]
    search_fields = ["tournament__name", "night__name", "created_by__username"]
    list_select_related = ["tournament", "night", "created_by"]


@admin.register(HallSettings)
class HallSettingsAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["pk", "tournament", "night", "clock_state", "hide_leaders", "version"]
    list_filter = ["clock_state", "hide_leaders"]
    search_fields = ["tournament__name", "night__name"]
    list_select_related = ["tournament", "night"]

"""Admin for the table links: which game, match or table of an event or a night each opens, who
made it, when it expires or was revoked.

View-only: links are made and revoked through ``table_links.services`` (the console and the
API). A link shows its hashes only: its token and short code are never stored.
"""

from django.contrib import admin

from table_links.models import TableLink


@admin.register(TableLink)
class TableLinkAdmin(admin.ModelAdmin):
    list_display = [
        "pk",
        "club",
        "game",
        "match",
        "tournament",
        "night",
        "table_number",
        "expires_at",
        "revoked_at",
    ]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter), "club"]
    search_fields = ["club__name", "tournament__name", "night__name", "created_by__username"]
    list_select_related = ["club", "tournament", "night"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

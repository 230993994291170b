"""Admin for the outbox: what is still waiting to run, view-only (the sweep owns the rows)."""

from django.contrib import admin

from outbox.models import PendingTask


@admin.register(PendingTask)
class PendingTaskAdmin(admin.ModelAdmin):
    list_display = ("task", "args", "created_at", "due_at", "attempts", "last_error")
    search_fields = ("task", "last_error")
    list_filter = ("task", "attempts")
    readonly_fields = ("task", "args", "kwargs", "created_at", "due_at", "attempts", "last_error")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

"""Admin for the outbox: tasks and announcements still waiting, view-only (the sweeps own the
rows)."""

from django.contrib import admin

from outbox.models import Announcement, PendingTask


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


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ("setting", "change_type", "created_at", "due_at", "attempts", "last_error")
    search_fields = ("setting", "change_type", "last_error")
    list_filter = ("setting", "attempts")
    readonly_fields = (
        "key",
        "setting",
        "change_type",
        "change",
        "created_at",
        "due_at",
        "attempts",
        "last_error",
    )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

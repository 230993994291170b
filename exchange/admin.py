"""Django admin for the exchange app (staff only): the site's identity, the player mappings, the
imported nights and events, and the import log. Read mostly: imports go through
``exchange.services``."""

from __future__ import annotations

from django.contrib import admin

from exchange.models import (
    ExchangeSite,
    ImportedEvent,
    ImportedNight,
    ImportedPlayer,
    ImportRecord,
)


@admin.register(ExchangeSite)
class ExchangeSiteAdmin(admin.ModelAdmin):
    list_display = ["key", "created_at"]
    list_filter = ["created_at"]
    search_fields = ["key"]
    readonly_fields = ["key", "created_at"]


@admin.register(ImportedPlayer)
class ImportedPlayerAdmin(admin.ModelAdmin):
    list_display = ["club", "site", "source_id", "player", "name"]
    list_filter = ["club"]
    search_fields = ["name", "site"]
    raw_id_fields = ["player"]


@admin.register(ImportedNight)
class ImportedNightAdmin(admin.ModelAdmin):
    list_display = ["club", "origin", "night", "updated_at"]
    list_filter = ["club"]
    search_fields = ["origin", "night__name", "club__name"]
    raw_id_fields = ["night"]
    readonly_fields = ["games", "fees", "document_hash"]


@admin.register(ImportedEvent)
class ImportedEventAdmin(admin.ModelAdmin):
    list_display = ["club", "origin", "tournament", "updated_at"]
    list_filter = ["club"]
    search_fields = ["origin", "tournament__name", "club__name"]
    raw_id_fields = ["tournament"]
    readonly_fields = ["games", "draw", "fees", "document_hash"]


@admin.register(ImportRecord)
class ImportRecordAdmin(admin.ModelAdmin):
    list_display = ["club", "origin", "outcome", "by", "at"]
    list_filter = ["club", "outcome"]
    search_fields = ["origin", "club__name", "by__username"]
    readonly_fields = ["document_hash", "summary", "at"]

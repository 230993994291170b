"""Admin of the practice table: read-only lists of games and hands."""

from django.contrib import admin

from practice.models import PracticeGame, PracticeHand


@admin.register(PracticeGame)
class PracticeGameAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "player", "rules_name", "status", "winner", "created_at")
    list_filter = ("game", "status")
    search_fields = ("player__username", "rules_name")
    readonly_fields = [field.name for field in PracticeGame._meta.fields]


@admin.register(PracticeHand)
class PracticeHandAdmin(admin.ModelAdmin):
    list_display = ("id", "practice_game", "number", "created_at")
    list_filter = ("practice_game__game",)
    search_fields = ("practice_game__player__username",)
    readonly_fields = [field.name for field in PracticeHand._meta.fields]

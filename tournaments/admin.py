"""Admin pages of tournaments: every model with search and filters, history where it is kept.

What it does: lets staff find and inspect tournaments, entrants, rounds, matches (with their
entrants and games inline), match entrants and the audit trail; ``Round`` and ``Match`` show their
simple-history trail.

What it does not do: run workflows. Drawing, advancing and resetting go through the API (the
services), because they must create games and keep rounds consistent; edits made here bypass
those checks and are meant for repairs only. The audit trail is read-only.
"""

import secrets
from decimal import Decimal

from django import forms
from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournaments.models import (
    AuditEntry,
    DoorCode,
    Entrant,
    Match,
    MatchEntrant,
    MatchGame,
    Round,
    StandingsSnapshot,
    Tournament,
)


class TournamentAdminForm(forms.ModelForm):
    """Stakes and entry fees as decimal amounts in the club's currency (stored in minor units);
    the lots seed is drawn when the tournament is added, never typed."""

    stake = forms.DecimalField(
        required=False,
        min_value=Decimal("0"),
        max_digits=12,
        decimal_places=2,
        help_text="What each loser pays per game, e.g. 0.50.",
    )
    entry_fee = forms.DecimalField(
        required=False,
        min_value=Decimal("0"),
        max_digits=12,
        decimal_places=2,
        help_text="What each player pays to enter, e.g. 5.00.",
    )

    class Meta:
        model = Tournament
        # Every field but the minor-unit amounts (the decimal fields above) and the lots seed.
        fields = [
            "club",
            "name",
            "game",
            "house_rules",
            "format",
            "entrant_kind",
            "table_size",
            "advancing_per_table",
            "sides_per_table",
            "movement",
            "min_table_size",
            "match_rule",
            "match_games",
            "round_count",
            "third_place_match",
            "bye_rule",
            "tie_breaks",
            "is_public",
            "private_draws",
            "auto_advance",
            "status",
            "created_by",
        ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        tournament = self.instance
        if tournament.pk and tournament.club_id:
            exponent = tournament.club.minor_unit_exponent
            for name in ("stake", "entry_fee"):
                minor = getattr(tournament, f"{name}_minor")
                if minor is not None:
                    self.initial[name] = Decimal(minor).scaleb(-exponent)

    def clean(self):
        cleaned = super().clean()
        club = cleaned.get("club")
        if club is None:
            return cleaned
        exponent = club.minor_unit_exponent
        for name in ("stake", "entry_fee"):
            amount = cleaned.get(name)
            if amount is not None and amount != amount.quantize(Decimal(1).scaleb(-exponent)):
                self.add_error(name, f"{club.currency} has {exponent} decimal places.")
        return cleaned

    def save(self, commit=True):
        tournament = super().save(commit=False)
        exponent = tournament.club.minor_unit_exponent
        for name in ("stake", "entry_fee"):
            amount = self.cleaned_data.get(name)
            setattr(
                tournament,
                f"{name}_minor",
                None if amount is None else int(amount.scaleb(exponent)),
            )
        if tournament.lots_seed is None:
            tournament.lots_seed = secrets.randbits(62)
        if commit:
            tournament.save()
            self.save_m2m()
        return tournament


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    raw_id_fields = ["player", "team"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "club",
        "game",
        "format",
        "entrant_kind",
        "status",
        "is_public",
        "created_at",
    ]
    list_filter = ["format", "status", "game", "entrant_kind", "is_public", "club"]
    search_fields = ["name", "club__name", "club__slug"]
    date_hierarchy = "created_at"
    raw_id_fields = ["club", "created_by"]
    form = TournamentAdminForm
    readonly_fields = [
        "lots_seed",
        "created_at",
        "updated_at",
        "closed_at",
        "version",
        "draw_order",
    ]
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
    list_display = [
        "__str__",
        "tournament",
        "table",
        "status",
        "is_bye",
        "is_third_place",
        "decided_at",
    ]
    list_filter = ["status", "is_bye", "is_third_place", "tournament__format"]
    search_fields = [
        "tournament__name",
        "slots__entrant__player__display_name",
        "slots__entrant__team__name",
    ]
    raw_id_fields = ["tournament", "round"]
    inlines = [MatchEntrantInline, MatchGameInline]


@admin.register(MatchEntrant)
class MatchEntrantAdmin(admin.ModelAdmin):
    list_display = ["__str__", "position", "side", "games_won", "points_for", "place", "advances"]
    list_filter = ["advances", "match__tournament__format"]
    search_fields = [
        "entrant__player__display_name",
        "entrant__team__name",
        "match__tournament__name",
    ]
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


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    """Stored standings: view-only (the refresh job writes them)."""

    list_display = ["tournament", "version", "data_version", "computed_at"]
    list_filter = ["tournament__club"]
    search_fields = ["tournament__name"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(DoorCode)
class DoorCodeAdmin(admin.ModelAdmin):
    """Door codes: view and revoke (set "revoked at"); made from the console's door page."""

    list_display = ["tournament", "night", "expires_at", "revoked_at", "created_by", "created_at"]
    list_filter = ["tournament__club", "created_at"]
    search_fields = ["tournament__name", "night__name"]
    readonly_fields = [
        "tournament",
        "night",
        "token_hash",
        "salt",
        "expires_at",
        "created_by",
        "created_at",
    ]

    def has_add_permission(self, request) -> bool:
        return False

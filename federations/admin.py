"""Admin pages of federations: every model with search and filters; the audit trail read-only.

What it does: lets staff find and inspect federations (their organisers and club memberships
inline), federation players, their links to club players, pending link invitations, the
federation events (their nominations and selected entrants, view only) and the audit trail.

What it does not do: run workflows. Inviting, accepting, leaving, linking and merging go through
``federations.services`` (the API and the pages), which check permissions, keep one open
membership per club and write the audit entries; edits made here bypass those checks and are
meant for repairs only.
"""

from django.contrib import admin

from federations.models import (
    Federation,
    FederationAuditEntry,
    FederationEvent,
    FederationEventEntrant,
    FederationMembership,
    FederationNomination,
    FederationPlayer,
    FederationRole,
    PlayerLink,
    PlayerLinkInvitation,
)


class FederationRoleInline(admin.TabularInline):
    model = FederationRole
    extra = 0
    raw_id_fields = ["user"]


class FederationMembershipInline(admin.TabularInline):
    model = FederationMembership
    extra = 0
    raw_id_fields = ["club", "invited_by", "accepted_by", "left_by"]


@admin.register(Federation)
class FederationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "currency", "levy_rate_minor", "created_at"]
    list_filter = ["currency", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["created_by"]
    inlines = [FederationRoleInline, FederationMembershipInline]


@admin.register(FederationRole)
class FederationRoleAdmin(admin.ModelAdmin):
    list_display = ["federation", "user", "role", "created_at"]
    list_filter = ["role", "federation"]
    search_fields = ["federation__name", "user__username"]
    raw_id_fields = ["user"]


@admin.register(FederationMembership)
class FederationMembershipAdmin(admin.ModelAdmin):
    list_display = ["federation", "club", "invited_at", "accepted_at", "left_at"]
    list_filter = ["federation", "accepted_at", "left_at"]
    search_fields = ["federation__name", "club__name", "club__slug"]
    raw_id_fields = ["club", "invited_by", "accepted_by", "left_by"]


@admin.register(FederationPlayer)
class FederationPlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "federation", "name_shown", "ranking_shown", "merged_into"]
    list_filter = ["federation", "name_shown", "ranking_shown"]
    search_fields = ["display_name", "federation__name"]
    raw_id_fields = ["merged_into"]


@admin.register(PlayerLink)
class PlayerLinkAdmin(admin.ModelAdmin):
    list_display = ["player", "federation_player", "federation", "how", "created_at", "unlinked_at"]
    list_filter = ["federation", "how", "unlinked_at"]
    search_fields = [
        "player__display_name",
        "federation_player__display_name",
        "player__club__name",
    ]
    raw_id_fields = ["federation_player", "player", "created_by", "unlinked_by"]


@admin.register(PlayerLinkInvitation)
class PlayerLinkInvitationAdmin(admin.ModelAdmin):
    list_display = ["player", "federation_player", "federation", "created_at"]
    list_filter = ["federation", "created_at"]
    search_fields = ["player__display_name", "federation_player__display_name"]
    raw_id_fields = ["federation_player", "player", "invited_by"]


@admin.register(FederationAuditEntry)
class FederationAuditEntryAdmin(admin.ModelAdmin):
    list_display = ["federation", "kind", "user", "created_at"]
    list_filter = ["kind", "created_at"]
    search_fields = ["federation__name", "user__username"]
    readonly_fields = ["federation", "kind", "user", "details", "created_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class _ViewOnly:
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(FederationEvent)
class FederationEventAdmin(_ViewOnly, admin.ModelAdmin):
    """Events change through ``federations.events`` (the selection follows from them)."""

    list_display = ["name", "federation", "host_club", "date", "rule", "quota", "status"]
    list_filter = ["federation", "rule", "status"]
    search_fields = ["name", "federation__name", "host_club__name"]


@admin.register(FederationNomination)
class FederationNominationAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["player", "club", "event", "order", "created_at"]
    list_filter = ["event__federation", "club"]
    search_fields = ["player__display_name", "club__name", "event__name"]


@admin.register(FederationEventEntrant)
class FederationEventEntrantAdmin(_ViewOnly, admin.ModelAdmin):
    list_display = ["event", "seed", "player", "club", "place", "host_player"]
    list_filter = ["event__federation", "club"]
    search_fields = ["player__display_name", "club__name", "event__name"]

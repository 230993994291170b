"""Django admin for clubs, memberships, players and teams (staff only).

What it does: lists with search and filters for every clubs model; a club page shows its
memberships inline, a team page its members in order. The admin goes through the models' own
checks (``Model.clean``: house rules, time zone, a team member of the team's club) and the
inline formset below checks team size and repeated players.

What it does not do: replace the API's services (no idempotency, no problem documents); it is the
staff's repair tool.
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from clubs.models import (
    MAX_TEAM_SIZE,
    MIN_TEAM_SIZE,
    Club,
    Membership,
    Player,
    PlayerInvitation,
    Team,
    TeamMember,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "slug",
        "currency",
        "time_zone",
        "default_game",
        "public_standings",
        "created_at",
    ]
    list_filter = ["public_standings", "default_game", "currency"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["created_at"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name", "club__slug"]
    autocomplete_fields = ["club", "user"]
    list_select_related = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "club", "user", "is_active", "created_at"]
    list_filter = ["is_active", "club"]
    search_fields = ["display_name", "club__name", "user__username"]
    autocomplete_fields = ["club", "user"]
    list_select_related = ["club", "user"]


@admin.register(PlayerInvitation)
class PlayerInvitationAdmin(admin.ModelAdmin):
    """Pending invitations; only the invited person accepts (the API), the admin may delete."""

    list_display = ["username", "player", "invited_by", "created_at"]
    list_filter = ["player__club"]
    search_fields = ["username", "player__display_name"]
    list_select_related = ["player", "invited_by"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class TeamMemberFormSet(BaseInlineFormSet):
    """Two or three distinct players of the team's club per team."""

    def clean(self) -> None:
        super().clean()
        players = [
            form.cleaned_data["player"]
            for form in self.forms
            if form.cleaned_data
            and not form.cleaned_data.get("DELETE")
            and form.cleaned_data.get("player")
        ]
        if any(player.club_id != self.instance.club_id for player in players):
            raise ValidationError(
                "Every member must be a player of the team's club.", code="other_club"
            )
        if len({player.pk for player in players}) != len(players):
            raise ValidationError("A player appears twice in this team.", code="duplicate_player")
        if not MIN_TEAM_SIZE <= len(players) <= MAX_TEAM_SIZE:
            raise ValidationError(
                f"A team has {MIN_TEAM_SIZE} or {MAX_TEAM_SIZE} players, not {len(players)}.",
                code="team_size",
            )


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    formset = TeamMemberFormSet
    extra = 0
    min_num = MIN_TEAM_SIZE
    max_num = MAX_TEAM_SIZE
    autocomplete_fields = ["player"]
    ordering = ["position"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "member_names", "is_active", "created_at"]
    list_filter = ["is_active", "club"]
    search_fields = ["name", "club__name", "members__display_name"]
    autocomplete_fields = ["club"]
    list_select_related = ["club"]
    inlines = [TeamMemberInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("team_members__player")

    @admin.display(description="Members")
    def member_names(self, team: Team) -> str:
        return ", ".join(player.display_name for player in team.ordered_members())

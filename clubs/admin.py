"""Django admin for clubs, memberships, players and teams (staff only).

What it does: lists with search and filters for every clubs model; a club page shows its
memberships inline, a team page its members in order. The admin goes through the models' own
checks (``Model.clean``: house rules, time zone, a team member of the team's club) and the
inline formset below checks team size and repeated players.

What it does not do: replace the API's services (no idempotency, no problem documents); it is the
staff's repair tool. It does keep the live pages right: a change of a name the pages show (a
club's, a player's, a team's or a team's members) or a deletion goes through
``clubs.services.names_changed``, as the services' renames do, so the pages' tags change.
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from clubs import services
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


class NamesChangedAdmin(admin.ModelAdmin):
    """Bump the club's ``names_version`` when a name the pages show is changed or deleted.

    ``name_fields`` lists the model's fields the pages show; ``club_id_of`` says whose club.
    """

    name_fields: tuple[str, ...] = ()

    def club_id_of(self, obj) -> int:
        return obj.club_id

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if not change:
            return  # a new name is on no page yet
        changed = set(form.changed_data)
        if "club" in changed:  # moved: the old club's pages lose the name, the new one's gain it
            services.names_changed(form.initial["club"])
            services.names_changed(self.club_id_of(obj))
        elif changed & set(self.name_fields):
            services.names_changed(self.club_id_of(obj))

    def delete_model(self, request, obj) -> None:
        club_id = self.club_id_of(obj)
        super().delete_model(request, obj)
        services.names_changed(club_id)

    def delete_queryset(self, request, queryset) -> None:
        club_ids = {self.club_id_of(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        for club_id in sorted(club_ids):
            services.names_changed(club_id)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(NamesChangedAdmin):
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
    name_fields = ("name",)

    def club_id_of(self, obj) -> int:
        return obj.pk

    def delete_model(self, request, obj) -> None:
        admin.ModelAdmin.delete_model(self, request, obj)  # its pages are gone with it

    def delete_queryset(self, request, queryset) -> None:
        admin.ModelAdmin.delete_queryset(self, request, queryset)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name", "club__slug"]
    autocomplete_fields = ["club", "user"]
    list_select_related = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(NamesChangedAdmin):
    list_display = ["display_name", "club", "user", "is_active", "created_at"]
    list_filter = ["is_active", "club"]
    search_fields = ["display_name", "club__name", "user__username"]
    autocomplete_fields = ["club", "user"]
    list_select_related = ["club", "user"]
    name_fields = ("display_name",)


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
class TeamAdmin(NamesChangedAdmin):
    list_display = ["name", "club", "member_names", "is_active", "created_at"]
    list_filter = ["is_active", "club"]
    search_fields = ["name", "club__name", "members__display_name"]
    autocomplete_fields = ["club"]
    list_select_related = ["club"]
    inlines = [TeamMemberInline]
    name_fields = ("name",)

    def save_related(self, request, form, formsets, change) -> None:
        # The members are saved here, after save_model: a change of members changes the names
        # the pages show for the team (as ``update_team`` with ``member_ids`` does).
        super().save_related(request, form, formsets, change)
        if change and any(formset.has_changed() for formset in formsets):
            services.names_changed(form.instance.club_id)

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("team_members__player")

    @admin.display(description="Members")
    def member_names(self, team: Team) -> str:
        return ", ".join(player.display_name for player in team.ordered_members())

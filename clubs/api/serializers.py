"""Input and output serializers of the clubs API, kept apart (the club's own input, shared with the
console's club form, is ``clubs.inputs.ClubInput``).

What it does: ``<Thing>Input`` serializers check the types and shapes of request bodies (and refuse
unknown fields through ``StrictFieldsMixin``); ``<Thing>Output`` serializers render model instances
shaped by ``clubs.selectors``.

What it does not do: write anything or apply business rules (uniqueness, house rules against the
game, team composition): ``clubs.services`` does, with the same JSON pointers. Output serializers
never query the database beyond what the selectors prefetched.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.models import (
    MAX_TEAM_SIZE,
    MIN_TEAM_SIZE,
    Club,
    Membership,
    Player,
    PlayerInvitation,
    Role,
    Team,
)
from clubs.permissions import role_in
from config.serializers import StrictFieldsMixin

# Clubs ------------------------------------------------------------------------------------------


class ClubOutput(serializers.ModelSerializer):
    minor_unit_exponent = serializers.IntegerField(
        read_only=True, help_text="Decimal places of the currency's minor unit (2 for EUR)."
    )
    effective_house_rules = serializers.SerializerMethodField(
        help_text="The engine's defaults for `default_game` with this club's overrides applied."
    )
    role = serializers.SerializerMethodField(
        help_text="The requesting user's role in this club; null for non-members."
    )

    class Meta:
        model = Club
        fields = [
            "id",
            "name",
            "slug",
            "currency",
            "minor_unit_exponent",
            "time_zone",
            "default_game",
            "default_house_rules",
            "effective_house_rules",
            "public_standings",
            "confirm_hands",
            "require_two_factor",
            "role",
            "created_at",
        ]
        read_only_fields = fields

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_effective_house_rules(self, club: Club) -> dict:
        return club.effective_house_rules()

    @extend_schema_field(serializers.ChoiceField(choices=Role.choices, allow_null=True))
    def get_role(self, club: Club) -> str | None:
        if hasattr(club, "viewer_role"):  # annotated by clubs.selectors
            return club.viewer_role
        return role_in(self.context["request"].user, club)


# Memberships ------------------------------------------------------------------------------------


class MembershipInput(StrictFieldsMixin, serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="The account to give a role.")
    role = serializers.ChoiceField(choices=Role.choices)


class MembershipUpdateInput(StrictFieldsMixin, serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class MembershipOutput(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "user", "username", "role", "created_at"]
        read_only_fields = fields


# Players ----------------------------------------------------------------------------------------


class PlayerInput(StrictFieldsMixin, serializers.Serializer):
    display_name = serializers.CharField(
        max_length=80, help_text="Unique within the club, ignoring case."
    )
    username = serializers.CharField(
        max_length=150,
        allow_null=True,
        default=None,
        help_text="Invite the account called this to be this player: linked once that person "
        "accepts (POST /api/invitations/{id}/accept/). null unlinks at once.",
    )
    is_active = serializers.BooleanField(default=True)


class PlayerOutput(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True, allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "display_name", "user", "username", "is_active", "created_at"]
        read_only_fields = fields


class PlayerWriteOutput(PlayerOutput):
    """A player as a write returns it: with the pending invitation, if any."""

    invited_username = serializers.SerializerMethodField(
        help_text="The account invited to be this player and not yet accepted, or null."
    )

    class Meta(PlayerOutput.Meta):
        fields = [*PlayerOutput.Meta.fields, "invited_username"]
        read_only_fields = fields

    def get_invited_username(self, player) -> str | None:
        invitation = PlayerInvitation.objects.filter(player=player).first()
        return invitation.username if invitation else None


class InvitationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(source="player.club.slug", help_text="The club's slug.")
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField(source="player.display_name")
    created_at = serializers.DateTimeField()


# Teams ------------------------------------------------------------------------------------------


class TeamInput(StrictFieldsMixin, serializers.Serializer):
    name = serializers.CharField(max_length=80, help_text="Unique within the club, ignoring case.")
    members = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=MIN_TEAM_SIZE,
        max_length=MAX_TEAM_SIZE,
        help_text="Ids of 2 or 3 distinct active players of the club, in order.",
    )
    is_active = serializers.BooleanField(default=True)


class TeamMemberOutput(serializers.Serializer):
    id = serializers.IntegerField(source="player.id")
    display_name = serializers.CharField(source="player.display_name")


class TeamOutput(serializers.ModelSerializer):
    members = TeamMemberOutput(source="team_members", many=True, read_only=True)

    class Meta:
        model = Team
        fields = ["id", "name", "members", "is_active", "created_at"]
        read_only_fields = fields

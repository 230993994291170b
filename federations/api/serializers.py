"""Inputs and outputs of the federations API (inputs refuse unknown fields).

What it does: the inputs (``FederationInput`` and ``FederationChangeInput``, the levy rate as a
decimal string in the federation's currency such as "0.50"; ``FederationInviteInput``,
``FederationPlayerInput``, ``OrganiserInput``, ``PlayerLinkInput``, ``FederationMergeInput``,
``PublicChoicesInput``) and the outputs of a federation, an organiser (id, username, since: never
an e-mail), a membership, a federation player, a link, an audit entry, a member club's results
and the levy. Amounts are written by ``games.money.amount_string``.

What it does not do: check what needs the database (a slug taken, a club not a member): the
services do, with the same JSON pointers.
"""

from __future__ import annotations

from rest_framework import serializers

from clubs.models import CURRENCY_CHOICES
from config.serializers import StrictFieldsMixin
from federations.models import NameShown
from games.money import amount_string


class FederationInput(StrictFieldsMixin, serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=50)
    currency = serializers.ChoiceField(choices=CURRENCY_CHOICES)
    levy_rate = serializers.CharField(
        max_length=20, default="0", help_text='Per player-session, e.g. "0.50".'
    )


class FederationChangeInput(StrictFieldsMixin, serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    levy_rate = serializers.CharField(max_length=20, required=False)


class FederationInviteInput(StrictFieldsMixin, serializers.Serializer):
    club = serializers.SlugField(max_length=50, help_text="The club's slug.")


class FederationPlayerInput(StrictFieldsMixin, serializers.Serializer):
    display_name = serializers.CharField(max_length=80)


class PlayerLinkInput(StrictFieldsMixin, serializers.Serializer):
    federation_player = serializers.IntegerField()
    player = serializers.IntegerField(help_text="The club player's id.")


class FederationMergeInput(StrictFieldsMixin, serializers.Serializer):
    source = serializers.IntegerField(help_text="Merged away: its links move to the target.")
    target = serializers.IntegerField()


class OrganiserInput(StrictFieldsMixin, serializers.Serializer):
    identifier = serializers.CharField(
        max_length=254, help_text="The username or e-mail address of an existing account."
    )


class OrganiserOutput(serializers.Serializer):
    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.username")
    since = serializers.DateTimeField(source="created_at")


class PublicChoicesInput(StrictFieldsMixin, serializers.Serializer):
    name_shown = serializers.ChoiceField(choices=NameShown.choices, required=False)
    ranking_shown = serializers.BooleanField(required=False)


class FederationOutput(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    currency = serializers.CharField()
    levy_rate = serializers.SerializerMethodField()
    member_clubs = serializers.SerializerMethodField()

    def get_levy_rate(self, federation) -> str:
        return amount_string(federation.levy_rate_minor, federation)

    def get_member_clubs(self, federation) -> list[str]:
        return list(getattr(federation, "member_club_slugs", []))


class FederationMembershipOutput(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(source="club.slug")
    club_name = serializers.CharField(source="club.name")
    state = serializers.CharField()
    invited_at = serializers.DateTimeField()
    accepted_at = serializers.DateTimeField(allow_null=True)
    left_at = serializers.DateTimeField(allow_null=True)


class PlayerLinkOutput(serializers.Serializer):
    id = serializers.IntegerField()
    federation_player = serializers.IntegerField(source="federation_player_id")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.display_name")
    club = serializers.CharField(source="player.club.slug")
    how = serializers.CharField()
    created_at = serializers.DateTimeField()
    unlinked_at = serializers.DateTimeField(allow_null=True)


class PlayerLinkInvitationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    federation_player = serializers.IntegerField(source="federation_player_id")
    player = serializers.IntegerField(source="player_id")
    created_at = serializers.DateTimeField()


class FederationPlayerOutput(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    public_name = serializers.CharField()
    name_shown = serializers.CharField()
    ranking_shown = serializers.BooleanField()
    merged_into = serializers.IntegerField(source="merged_into_id", allow_null=True)
    links = serializers.SerializerMethodField()

    def get_links(self, player) -> list[dict]:
        links = getattr(player, "current_links", None)
        if links is None:
            links = player.links.current().select_related("player__club").order_by("pk")
        return PlayerLinkOutput(links, many=True).data


class FederationAuditEntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    user = serializers.CharField(source="user.username", allow_null=True, default=None)
    details = serializers.JSONField()
    created_at = serializers.DateTimeField()


class FederationNightOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    opened_at = serializers.DateTimeField()
    games = serializers.IntegerField(source="game_count")


class FederationClubEventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    games = serializers.IntegerField(source="game_count")


class FederationGameOutput(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField(source="variant")
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    players = serializers.SerializerMethodField()
    totals = serializers.ListField(child=serializers.IntegerField())
    winner_side = serializers.IntegerField(allow_null=True)

    def get_players(self, game) -> list[str]:
        return [player.display_name for player in game.seat_players()]


class FederationClubResultsOutput(serializers.Serializer):
    club = serializers.CharField()
    nights = FederationNightOutput(many=True)
    events = FederationClubEventOutput(many=True)
    games = FederationGameOutput(many=True)


class FederationLevyClubOutput(serializers.Serializer):
    club = serializers.CharField()
    name = serializers.CharField()
    player_sessions = serializers.IntegerField()
    levy = serializers.CharField()


class FederationLevyOutput(serializers.Serializer):
    federation = serializers.CharField()
    date_from = serializers.DateField()
    date_to = serializers.DateField()
    currency = serializers.CharField()
    rate = serializers.CharField()
    clubs = FederationLevyClubOutput(many=True)
    total_player_sessions = serializers.IntegerField()
    total_levy = serializers.CharField()

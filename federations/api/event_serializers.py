"""Inputs and outputs of the federation events API (inputs refuse unknown fields).

What it does: ``FederationEventInput`` (an event: name, host club's slug, game, format, date,
selection rule and quota, the season for ``top_n``, and ``settings`` — the tournaments' own input
``tournaments.api.serializers.TournamentInput`` less the name, game, format, entrants, stake,
entry fee and lots' seed, so a setting is typed and refused exactly as a tournament's is), the
nomination input (a club player's id, or a federation player linked at the club) and the outputs
of an event with its selected entrants, a nomination, and a club's nominations for one event.

What it does not do: check what needs the database (the host club a member, the quota): the
services do, with the same JSON pointers.
"""

from __future__ import annotations

from rest_framework import serializers

from clubs.models import GAME_CHOICES
from config.serializers import StrictFieldsMixin
from federations.models import SelectionRule
from tournaments.api.serializers import TournamentInput
from tournaments.models import Format


class FederationEventSettingsInput(TournamentInput):
    """The tournament settings of a federation event (as a tournament takes them)."""

    name = None
    game = None
    format = None
    entrants = None
    stake = None
    entry_fee = None
    lots_seed = None


class FederationEventInput(StrictFieldsMixin, serializers.Serializer):
    name = serializers.CharField(max_length=120)
    host_club = serializers.SlugField(max_length=50, help_text="The host club's slug (a member).")
    game = serializers.ChoiceField(choices=GAME_CHOICES, help_text="The variant.")
    format = serializers.ChoiceField(choices=Format.choices)
    date = serializers.DateField()
    rule = serializers.ChoiceField(
        choices=SelectionRule.choices,
        help_text="top_n: the first `quota` of each member club's season table; nominations: "
        "each member club nominates up to `quota` players.",
    )
    quota = serializers.IntegerField(min_value=1, max_value=64)
    season_year = serializers.IntegerField(
        min_value=2000,
        max_value=2100,
        required=False,
        allow_null=True,
        help_text="top_n: the season (a calendar year); empty = the current one at selection.",
    )
    settings = FederationEventSettingsInput(required=False)


class NominationInput(StrictFieldsMixin, serializers.Serializer):
    player = serializers.IntegerField(required=False, help_text="A player of this club.")
    federation_player = serializers.IntegerField(
        required=False, help_text="Or: a federation player linked to a player of this club."
    )

    def validate(self, attrs):
        if ("player" in attrs) == ("federation_player" in attrs):
            raise serializers.ValidationError(
                {"player": ["Give exactly one of player and federation_player."]},
                code="required",
            )
        return attrs


class FederationEventEntrantOutput(serializers.Serializer):
    seed = serializers.IntegerField()
    club = serializers.CharField(source="club.slug")
    place = serializers.IntegerField(help_text="At the club: season table order or nomination.")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.display_name")
    federation_player = serializers.IntegerField(source="federation_player_id", allow_null=True)
    host_player = serializers.IntegerField(
        source="host_player_id", allow_null=True, help_text="Who enters at the host club."
    )


class FederationEventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    host_club = serializers.CharField(source="host_club.slug")
    host_club_name = serializers.CharField(source="host_club.name")
    game = serializers.CharField()
    format = serializers.CharField()
    settings = serializers.DictField()
    date = serializers.DateField()
    rule = serializers.CharField()
    quota = serializers.IntegerField()
    season_year = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="draft, selected or created.")
    selected_at = serializers.DateTimeField(allow_null=True)
    selected_season_year = serializers.IntegerField(allow_null=True)
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)
    entrants = serializers.SerializerMethodField()

    def get_entrants(self, event) -> list[dict]:
        entrants = event.entrants.all()  # prefetched in order by ``selectors.list_events``
        return FederationEventEntrantOutput(entrants, many=True).data


class NominationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(source="club.slug")
    order = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.display_name")
    federation_player = serializers.IntegerField(source="federation_player_id", allow_null=True)
    created_at = serializers.DateTimeField()


class ClubNominationsOutput(serializers.Serializer):
    event = serializers.IntegerField()
    club = serializers.CharField()
    quota = serializers.IntegerField()
    open = serializers.BooleanField(help_text="The event takes nominations now.")
    nominations = NominationOutput(many=True)

"""Inputs and outputs of the leagues API (inputs refuse unknown fields).

What it does: the inputs (``LeagueInput``, ``LeagueTeamInput``, ``LeagueTeamPlayerInput``,
``FixturesDrawInput``, ``FixturePostponeInput``, ``FixtureWalkoverInput``,
``FixtureResultInput`` — final scores on paper or the tables' games, not both —,
``FixtureDisputeInput``, ``LeaguePenaltyInput``) and the outputs of a league (with its table and
penalties), a team, a fixture (with its tables) and a penalty. The names carry their app
(``League…``, ``Fixture…``): the schema's components are one namespace for every app.

What it does not do: check what needs the database (a club not a member, a game of another
club): the services do, with the same JSON pointers.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import serializers

from clubs.models import GameType
from config.serializers import StrictFieldsMixin
from leagues.models import FixtureStatus, TeamFormat


class LeagueInput(StrictFieldsMixin, serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=50)
    variant = serializers.ChoiceField(choices=GameType.choices, default=GameType.FORTY_FIVE)
    team_format = serializers.ChoiceField(choices=TeamFormat.choices, default=TeamFormat.PAIRS)
    tables_per_fixture = serializers.IntegerField(min_value=1, max_value=20, default=2)
    points_win = serializers.IntegerField(min_value=0, max_value=100, default=2)
    points_draw = serializers.IntegerField(min_value=0, max_value=100, default=1)
    points_loss = serializers.IntegerField(min_value=0, max_value=100, default=0)
    season_start = serializers.DateField()
    season_end = serializers.DateField()


class LeagueTeamInput(StrictFieldsMixin, serializers.Serializer):
    club = serializers.SlugField(max_length=50, help_text="A member club's slug.")
    name = serializers.CharField(max_length=80)
    captain = serializers.IntegerField(help_text="A player of the club: their account captains.")
    players = serializers.ListField(
        child=serializers.IntegerField(), max_length=40, default=list, help_text="Club players."
    )


class LeagueTeamPlayerInput(StrictFieldsMixin, serializers.Serializer):
    player = serializers.IntegerField(help_text="An active player of the team's club.")


class FixturesDrawInput(StrictFieldsMixin, serializers.Serializer):
    first_date = serializers.DateField(
        required=False, help_text="Round 1's date; the season's first day by default."
    )
    days_between = serializers.IntegerField(min_value=1, max_value=60, default=7)


class FixturePostponeInput(StrictFieldsMixin, serializers.Serializer):
    date = serializers.DateField(help_text="The new date, inside the season.")


class FixtureWalkoverInput(StrictFieldsMixin, serializers.Serializer):
    team = serializers.IntegerField(help_text="The team the fixture is given to.")


class FixtureResultTableInput(StrictFieldsMixin, serializers.Serializer):
    game = serializers.IntegerField(help_text="The home club's finished game at this table.")
    home_side = serializers.IntegerField(
        min_value=0, max_value=1, help_text="The game's side the home team held."
    )


class FixtureResultInput(StrictFieldsMixin, serializers.Serializer):
    home_score = serializers.IntegerField(
        min_value=0, max_value=20, required=False, help_text="Tables won (paper)."
    )
    away_score = serializers.IntegerField(min_value=0, max_value=20, required=False)
    tables = FixtureResultTableInput(many=True, required=False, help_text="Table by table.")

    def validate(self, attrs):
        paper = "home_score" in attrs or "away_score" in attrs
        if "tables" in attrs and paper:
            raise serializers.ValidationError(
                {"tables": [_("Give the tables' games or the final scores, not both.")]}
            )
        if "tables" not in attrs:
            for key in ("home_score", "away_score"):
                if key not in attrs:
                    raise serializers.ValidationError(
                        {key: [_("This field is required.")]},
                        code="required",
                    )
        elif not attrs["tables"]:
            raise serializers.ValidationError(
                {"tables": [_("Give at least one table.")]}, code="required"
            )
        return attrs


class FixtureDisputeInput(StrictFieldsMixin, serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class LeaguePenaltyInput(StrictFieldsMixin, serializers.Serializer):
    team = serializers.IntegerField()
    points = serializers.IntegerField(min_value=1, max_value=100)
    reason = serializers.CharField(max_length=300, help_text="Shown on the table.")


class LeagueClubOutput(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class LeagueTeamOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = LeagueClubOutput()
    captain = serializers.IntegerField(source="captain_id", help_text="The club player's id.")
    captain_name = serializers.CharField(source="captain.display_name")
    players = serializers.SerializerMethodField()

    def get_players(self, team) -> list[int]:
        return sorted(player.pk for player in team.players.all())


class FixtureTableOutput(serializers.Serializer):
    number = serializers.IntegerField()
    game = serializers.IntegerField(source="game_id")
    home_side = serializers.IntegerField()
    winner = serializers.CharField(help_text='"home" or "away".')


class FixtureOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    date = serializers.DateField()
    original_date = serializers.DateField(allow_null=True)
    home = serializers.IntegerField(source="home_id")
    away = serializers.IntegerField(source="away_id")
    home_name = serializers.CharField(source="home.name")
    away_name = serializers.CharField(source="away.name")
    venue = serializers.CharField(source="home.club.name", help_text="The home club.")
    status = serializers.CharField(
        help_text=f"One of {', '.join(FixtureStatus.values)} (docs/leagues.md)."
    )
    home_score = serializers.IntegerField(allow_null=True)
    away_score = serializers.IntegerField(allow_null=True)
    walkover_to = serializers.IntegerField(source="walkover_to_id", allow_null=True)
    entered_for = serializers.IntegerField(source="entered_for_id", allow_null=True)
    entered_at = serializers.DateTimeField(allow_null=True)
    accepted_at = serializers.DateTimeField(allow_null=True)
    dispute_reason = serializers.CharField()
    tables = FixtureTableOutput(many=True)


class LeaguePenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    team_name = serializers.CharField(source="team.name")
    points = serializers.IntegerField()
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class LeagueTableRowOutput(serializers.Serializer):
    position = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    tables_for = serializers.IntegerField()
    tables_against = serializers.IntegerField()
    difference = serializers.IntegerField()
    penalties = serializers.IntegerField(help_text="Points taken off.")
    penalty_reasons = serializers.ListField(child=serializers.CharField())
    points = serializers.IntegerField()


class LeagueOutput(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    variant = serializers.CharField()
    team_format = serializers.CharField()
    tables_per_fixture = serializers.IntegerField()
    points_win = serializers.IntegerField()
    points_draw = serializers.IntegerField()
    points_loss = serializers.IntegerField()
    season_start = serializers.DateField()
    season_end = serializers.DateField()


class LeagueDetailOutput(LeagueOutput):
    teams = LeagueTeamOutput(many=True)
    table = LeagueTableRowOutput(
        many=True, help_text="Ordered by the tie-breaks (docs/leagues.md)."
    )
    penalties = LeaguePenaltyOutput(many=True)

"""Input and output serializers of the tournaments API, kept apart.

What it does: ``<Thing>Input`` serializers check the types and shapes of request bodies (unknown
fields refused by ``StrictFieldsMixin``) and turn money strings into minor units with the club's
currency; ``<Thing>Output`` serializers render what ``tournaments.selectors`` and
``tournaments.standings`` and ``tournaments.running_balances`` built, without further queries.

What it does not do: apply business rules (the settings against each other, entrants against the
club: ``tournaments.configuration``) or write anything.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.models import GAME_CHOICES
from config.serializers import StrictFieldsMixin
from games.api.outputs import TransferOutput
from games.money import InvalidAmount, amount_string, decimal_string_to_minor
from games.representations import PlayerRefOutput
from tournaments.bridge import BYE_RULES
from tournaments.models import EntrantKind, Format, MatchRule, Tournament
from tournaments.standings import place_of

MOVEMENT_CHOICES = Tournament._meta.get_field("movement").choices
# Drawn seeds are 62 random bits (tournaments.services); a chosen one is held to the same range.
MAX_LOTS_SEED = 2**62 - 1


class MoneyField(serializers.CharField):
    """A decimal string in the club's currency (``"0.20"``), to integer minor units."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data)
        exponent = self.context["club"].minor_unit_exponent
        try:
            return decimal_string_to_minor(text, exponent)
        except InvalidAmount as error:
            raise serializers.ValidationError(str(error), code="invalid_amount") from error


# Inputs -----------------------------------------------------------------------------------------


class EntrantItemInput(StrictFieldsMixin, serializers.Serializer):
    player = serializers.IntegerField(required=False, allow_null=True, help_text="A player id.")
    team = serializers.IntegerField(required=False, allow_null=True, help_text="A team id.")
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=1000, help_text="1 = top seed."
    )


class EntrantsInput(StrictFieldsMixin, serializers.Serializer):
    entrants = EntrantItemInput(many=True, allow_empty=False)


class EntrantUpdateInput(StrictFieldsMixin, serializers.Serializer):
    seed = serializers.IntegerField(allow_null=True, min_value=1, max_value=1000)


class TournamentInput(StrictFieldsMixin, serializers.Serializer):
    """Create a tournament (name, game and format required) or, partially, change one."""

    name = serializers.CharField(max_length=120)
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    format = serializers.ChoiceField(choices=Format.choices)
    house_rules = serializers.DictField(
        required=False, help_text="Overrides of the game's house rules for every game."
    )
    entrant_kind = serializers.ChoiceField(choices=EntrantKind.choices, required=False)
    table_size = serializers.IntegerField(
        min_value=2,
        max_value=10,
        required=False,
        help_text="Entrants per table (a team counts once).",
    )
    advancing_per_table = serializers.IntegerField(
        min_value=1,
        max_value=9,
        required=False,
        allow_null=True,
        help_text="Knockout: entrants of a table who go through. Drive: winners who move up.",
    )
    sides_per_table = serializers.IntegerField(
        min_value=2,
        max_value=5,
        required=False,
        allow_null=True,
        help_text="Drive of individuals: progressive partners, this many sides at a table.",
    )
    movement = serializers.ChoiceField(choices=MOVEMENT_CHOICES, required=False)
    min_table_size = serializers.IntegerField(
        min_value=2, max_value=10, required=False, allow_null=True
    )
    match_rule = serializers.ChoiceField(choices=MatchRule.choices, required=False)
    match_games = serializers.IntegerField(
        min_value=1, max_value=15, required=False, help_text="N of best-of-N, K of first-to-K."
    )
    round_count = serializers.IntegerField(
        min_value=1,
        max_value=50,
        required=False,
        allow_null=True,
        help_text="Swiss and drive (required), round robin (optional): rounds to play.",
    )
    third_place_match = serializers.BooleanField(required=False)
    bye_rule = serializers.ChoiceField(
        choices=sorted(BYE_RULES),
        required=False,
        help_text="How a bye scores: as a match win, a draw or a loss.",
    )
    tie_breaks = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        max_length=10,
        help_text="Ordered chain: match_points, match_wins, games_won, points_for, "
        "points_difference, tricks_won, head_to_head, buchholz, lots.",
    )
    stake = MoneyField(required=False, help_text='What each loser pays per game ("0.20").')
    entry_fee = MoneyField(required=False)
    is_public = serializers.BooleanField(required=False)
    auto_advance = serializers.BooleanField(required=False)
    private_draws = serializers.BooleanField(
        required=False,
        help_text="Each drawn round stays hidden from players until an organiser releases it.",
    )
    lots_seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_LOTS_SEED,
        help_text="Seed of every random choice (drawn when absent).",
    )
    entrants = EntrantItemInput(many=True, required=False)

    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        if "stake" in values:
            values["stake_minor"] = values.pop("stake")
        if "entry_fee" in values:
            values["entry_fee_minor"] = values.pop("entry_fee")
        return values


class TournamentUpdateInput(TournamentInput):
    """Change some settings (PATCH); entrants have their own endpoint."""

    entrants = None


# Outputs ----------------------------------------------------------------------------------------


class EntrantPlayerOutput(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()


class EntrantTeamOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    players = EntrantPlayerOutput(many=True)


class EntrantOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    is_present = serializers.BooleanField(help_text="Checked in: the next draw includes it.")
    player = EntrantPlayerOutput(allow_null=True)
    team = EntrantTeamOutput(allow_null=True)

    def to_representation(self, entrant):
        team = None
        if entrant.team_id:
            team = {
                "id": entrant.team.pk,
                "name": entrant.team.name,
                "players": [
                    {"id": member.player.pk, "display_name": member.player.display_name}
                    for member in entrant.team.team_members.all()
                ],
            }
        player = None
        if entrant.player_id:
            player = {"id": entrant.player.pk, "display_name": entrant.player.display_name}
        return {
            "id": entrant.pk,
            "name": entrant.name,
            "seed": entrant.seed,
            "is_present": entrant.is_present,
            "player": player,
            "team": team,
        }


class TournamentOutput(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    stake = serializers.SerializerMethodField()
    entry_fee = serializers.SerializerMethodField()
    status = serializers.CharField(
        read_only=True,
        help_text="`registration` (entrants may change), `in_progress`, `finished` (every round "
        "played) or `closed` (results final).",
    )
    entrant_count = serializers.SerializerMethodField()
    rounds_drawn = serializers.SerializerMethodField()
    lots_seed = serializers.IntegerField(
        min_value=0, max_value=MAX_LOTS_SEED, help_text="Seed of every random choice."
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
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
            "stake",
            "entry_fee",
            "is_public",
            "auto_advance",
            "private_draws",
            "status",
            "lots_seed",
            "entrant_count",
            "rounds_drawn",
            "created_at",
            "updated_at",
            "closed_at",
            "version",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_stake(self, tournament) -> str | None:
        return amount_string(tournament.stake_minor, tournament.club)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_entry_fee(self, tournament) -> str | None:
        return amount_string(tournament.entry_fee_minor, tournament.club)

    def get_entrant_count(self, tournament) -> int:
        count = getattr(tournament, "entrant_count", None)
        return count if count is not None else tournament.entrants.count()

    def get_rounds_drawn(self, tournament) -> int:
        count = getattr(tournament, "round_count_drawn", None)
        return count if count is not None else tournament.rounds.count()


class MatchEntrantOutput(serializers.Serializer):
    position = serializers.IntegerField(help_text="Seat order at the table, from 0.")
    side = serializers.IntegerField(allow_null=True)
    entrant = serializers.IntegerField(allow_null=True, source="entrant_id")
    name = serializers.SerializerMethodField()
    source_match = serializers.IntegerField(allow_null=True, source="source_match_id")
    source_place = serializers.IntegerField(allow_null=True)
    games_won = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    tricks_won = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    advances = serializers.BooleanField()

    def get_name(self, slot) -> str | None:
        return slot.entrant.name if slot.entrant_id else None


class MatchGameOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    winner_side = serializers.IntegerField(allow_null=True)
    totals = serializers.ListField(child=serializers.IntegerField())
    hands_played = serializers.IntegerField()


class MatchOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round.number")
    table = serializers.IntegerField()
    status = serializers.CharField()
    is_bye = serializers.BooleanField()
    is_third_place = serializers.BooleanField()
    entrants = MatchEntrantOutput(many=True, source="slots.all")
    placings = serializers.SerializerMethodField(
        help_text="Entrant ids by finishing place, best first; tied entrants share a group."
    )
    winners = serializers.SerializerMethodField(help_text="The first placing group.")
    games = MatchGameOutput(many=True, source="games.all")
    decided_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(
        serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    )
    def get_placings(self, match):
        if match.is_bye:
            return [[slot.entrant_id for slot in match.slots.all()]]
        return (match.result or {}).get("placings", [])

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_winners(self, match):
        placings = self.get_placings(match)
        return placings[0] if placings else []


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)
    released_at = serializers.DateTimeField(
        allow_null=True, help_text="Empty while the draw is private to the organisers."
    )
    matches = MatchOutput(many=True, source="matches.all")


class BracketFeederOutput(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()


class BracketTableOutput(serializers.Serializer):
    table = serializers.IntegerField()
    kind = serializers.CharField(
        help_text="`match` (stored), `bye` (a lone entrant of a round), `walkover` (a knockout "
        "table of no more than the advancing count: they go through) or `waiting` (not all of "
        "its entrants are known yet)."
    )
    is_third_place = serializers.BooleanField()
    entrants = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The table's entrants; for a `waiting` table, those already through to it "
        "(a decided table's winners, a walkover's entrant) as soon as their table is decided.",
    )
    waiting_for = BracketFeederOutput(
        many=True,
        help_text="The tables (round, table) whose winners this table still waits for "
        "(the semi-finals' losers for the third-place table); empty once it is formed.",
    )
    match = MatchOutput(allow_null=True)


class BracketRoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    tables = BracketTableOutput(many=True)


class BracketOutput(serializers.Serializer):
    tournament = TournamentOutput()
    entrants = EntrantOutput(many=True)
    rounds = BracketRoundOutput(many=True)
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Entrant ids ranked first once the tournament is finished (the champion).",
    )


class StandingEntrantOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.IntegerField(allow_null=True)
    team = serializers.IntegerField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)


class StandingOutput(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="The line in the order, drawing of lots included (1, 2, 3 …)."
    )
    place = serializers.SerializerMethodField(
        help_text="The place: entrants level on every tie-break before `lots` share it "
        "(1, 1, 3 …); lots only order the list."
    )
    entrant = StandingEntrantOutput()
    matches_played = serializers.IntegerField()
    match_wins = serializers.IntegerField()
    match_draws = serializers.IntegerField()
    match_losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    match_points = serializers.IntegerField()
    games_won = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.FloatField()
    points_difference = serializers.FloatField()
    tricks_won = serializers.IntegerField()
    buchholz = serializers.IntegerField()
    tie_break_values = serializers.DictField(
        help_text="The value of each tie-break of the chain that was compared for this entrant."
    )

    @extend_schema_field(serializers.IntegerField())
    def get_place(self, row) -> int:
        return place_of(row)


class StandingsOutput(serializers.Serializer):
    tournament = serializers.IntegerField()
    status = serializers.CharField()
    tie_breaks = serializers.ListField(child=serializers.CharField())
    computed_at = serializers.DateTimeField()
    version = serializers.IntegerField(help_text="The snapshot's version (its ETag).")
    data_version = serializers.IntegerField(
        help_text="The version of the tournament's data the snapshot was computed from."
    )
    stale = serializers.BooleanField(
        help_text="True while the data moved since and a newer recomputation is pending."
    )
    standings = StandingOutput(many=True)


class SettlementBalanceOutput(serializers.Serializer):
    player = PlayerRefOutput()
    stakes = serializers.CharField(
        help_text='The net of the stakes of the tournament\'s games: + receives, - pays ("-0.40").'
    )
    entry_fee_due = serializers.CharField(
        help_text='What the player owes the club to enter ("5.00"; "0.00" without a fee).'
    )


class EntryFeesOutput(serializers.Serializer):
    fee = serializers.CharField(
        allow_null=True, help_text="The tournament's entry fee per player; null when none."
    )
    players = serializers.IntegerField(
        help_text="Players entered: individual entrants and every member of a team entrant."
    )
    pot = serializers.CharField(help_text="The fees owed to the club: fee x players.")


class SettlementOutput(serializers.Serializer):
    tournament = serializers.IntegerField()
    currency = serializers.CharField()
    stake = serializers.CharField(allow_null=True, help_text="The tournament's stake per game.")
    computed_at = serializers.DateTimeField()
    balances = SettlementBalanceOutput(
        many=True, help_text="Every player entered or with stakes booked, by name."
    )
    transfers = TransferOutput(
        many=True,
        help_text="The fewest player-to-player transfers that clear the stakes (entry fees are "
        "owed to the club and not included).",
    )
    entry_fees = EntryFeesOutput()


class CheckInInput(StrictFieldsMixin, serializers.Serializer):
    present = serializers.ListField(
        child=serializers.IntegerField(),
        max_length=1000,
        help_text="The ids of every entrant here tonight; the others are marked absent.",
    )


class SwapInput(StrictFieldsMixin, serializers.Serializer):
    first = serializers.IntegerField(help_text="An entrant id seated in the round.")
    second = serializers.IntegerField(help_text="An entrant id at another table of the round.")

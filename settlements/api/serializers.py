"""Serializers of the settlements API: the inputs (a night, a game started at a night's table,
a prize split, a fee, the settle-up rule) and the outputs of nights (with their tables), prize
splits and the settle-up rule. The stored settle-up versions, their transfers and the fees are
rendered by ``settlements.representations`` (shared with the console's archive).

Money goes out as decimal strings in the club's currency (``games.money.amount_string``, the club
from the object) and comes in the same way (``MoneyField``); percentages are whole numbers.
"""

from __future__ import annotations

from rest_framework import serializers

from config.serializers import StrictFieldsMixin
from games.api.inputs import GameInput
from games.money import amount_string
from tournaments.api.serializers import MoneyField


class NightInput(StrictFieldsMixin, serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    entry_fee = MoneyField(required=False)
    prize_split = serializers.JSONField(required=False)


class NightGameInput(GameInput):
    """A game started at a table of the night: the games API's fields (no tournament match: a
    night's games are outside tournaments) and the table."""

    tournament_match = None
    table = serializers.IntegerField(
        help_text="The physical table of the night the game is played at, 1 to 99; its table "
        "link (if any) opens the game by itself."
    )


class PrizeSplitInput(StrictFieldsMixin, serializers.Serializer):
    percentages = serializers.JSONField(
        help_text="Whole percentages per place, best first, summing to at most 100; [] removes."
    )


class PrizeSplitOutput(serializers.Serializer):
    percentages = serializers.ListField(child=serializers.IntegerField())


class NightOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    entry_fee = serializers.SerializerMethodField()
    prize_split = serializers.SerializerMethodField()
    opened_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    game_count = serializers.IntegerField()

    def get_entry_fee(self, night) -> str | None:
        return amount_string(night.entry_fee_minor, night.club)

    def get_prize_split(self, night) -> list[int]:
        split = getattr(night, "prize_split", None)
        return split.percentages if split is not None else []


class NightTableOutput(serializers.Serializer):
    table = serializers.IntegerField()
    games = serializers.ListField(
        child=serializers.IntegerField(), help_text="The games started at the table, oldest first."
    )


class NightDetailOutput(NightOutput):
    games = serializers.ListField(child=serializers.IntegerField(), source="game_ids")
    tables = NightTableOutput(
        many=True,
        help_text="The night's tables with the games started at each "
        "(POST /api/nights/{id}/games/); games started elsewhere are in games only.",
    )


class FeeInput(StrictFieldsMixin, serializers.Serializer):
    player = serializers.IntegerField(help_text="The player whose fee it is.")
    status = serializers.CharField(help_text="cash, card (paid at the door) or owed.")
    amount = MoneyField(required=False, help_text="Defaults to the event's entry fee.")


class SettleUpRuleInput(StrictFieldsMixin, serializers.Serializer):
    between_players = serializers.BooleanField(
        help_text="true: entry fees and prizes settle between players (no pot at the door)."
    )


class SettleUpRuleOutput(serializers.Serializer):
    between_players = serializers.BooleanField()

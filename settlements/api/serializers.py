"""Serializers of the settlements API: nights, prize splits, settle-up versions, transfers.

Money goes out as decimal strings in the club's currency (the club comes in the context, or from
the object), and comes in the same way; percentages are whole numbers.
"""

from __future__ import annotations

from rest_framework import serializers

from config.serializers import StrictFieldsMixin
from games.money import InvalidAmount, decimal_string_to_minor, minor_to_decimal_string


def _money(amount: int | None, club) -> str | None:
    return None if amount is None else minor_to_decimal_string(amount, club.minor_unit_exponent)


class NightInput(StrictFieldsMixin, serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    entry_fee = serializers.CharField(required=False, allow_null=True)
    prize_split = serializers.JSONField(required=False)

    def validate_entry_fee(self, value):
        if value is None:
            return None
        try:
            return decimal_string_to_minor(value, self.context["club"].minor_unit_exponent)
        except InvalidAmount as error:
            raise serializers.ValidationError(str(error), code="invalid_amount") from error


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
        return _money(night.entry_fee_minor, night.club)

    def get_prize_split(self, night) -> list[int]:
        split = getattr(night, "prize_split", None)
        return split.percentages if split is not None else []


class NightDetailOutput(NightOutput):
    games = serializers.ListField(child=serializers.IntegerField(), source="game_ids")


class PartyOutput(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="Null: the club.")
    name = serializers.CharField()


def _party(player) -> dict:
    if player is None:
        return {"id": None, "name": "The club"}
    return {"id": player.pk, "name": player.display_name}


class SettlementTransferOutput(serializers.Serializer):
    id = serializers.IntegerField()
    payer = serializers.SerializerMethodField()
    payee = serializers.SerializerMethodField()
    amount = serializers.SerializerMethodField()
    paid_at = serializers.DateTimeField(allow_null=True)
    paid_by = serializers.SerializerMethodField()

    def get_payer(self, transfer) -> dict:
        return _party(transfer.payer)

    def get_payee(self, transfer) -> dict:
        return _party(transfer.payee)

    def get_amount(self, transfer) -> str:
        return _money(transfer.amount_minor, transfer.settlement.club)

    def get_paid_by(self, transfer) -> str | None:
        return transfer.paid_by.get_username() if transfer.paid_by_id else None


class SettlementLineOutput(serializers.Serializer):
    player = serializers.IntegerField(allow_null=True, help_text="Null: the club.")
    stakes = serializers.CharField()
    entry_fee = serializers.CharField()
    prize = serializers.CharField()
    net = serializers.CharField()
    settled_before = serializers.CharField()
    difference = serializers.CharField()


class SettlementVersionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    currency = serializers.CharField(source="club.currency")
    lines = serializers.SerializerMethodField()
    details = serializers.JSONField()
    transfers = SettlementTransferOutput(many=True)

    def get_lines(self, settlement) -> list[dict]:
        money = ("stakes", "entry_fee", "prize", "net", "settled_before", "difference")
        return [
            {**line, **{name: _money(line[name], settlement.club) for name in money}}
            for line in settlement.lines
        ]

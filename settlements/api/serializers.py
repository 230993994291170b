"""Serializers of the settlements API: nights, a game started at a night's table, prize splits,
settle-up versions, transfers.

Money goes out as decimal strings in the club's currency (the club comes in the context, or from
the object), and comes in the same way; percentages are whole numbers.
"""

from __future__ import annotations

from rest_framework import serializers

from config.serializers import StrictFieldsMixin
from games.api.serializers import GameInput
from games.money import minor_to_decimal_string
from settlements import words
from tournaments.api.serializers import MoneyField


def _money(amount: int | None, club) -> str | None:
    return None if amount is None else minor_to_decimal_string(amount, club.minor_unit_exponent)


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
        return _money(night.entry_fee_minor, night.club)

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
    kind = serializers.CharField(
        help_text="pot: prize and entry fee with the club; stakes: between players; all: "
        "everything between players (the club's rule)."
    )
    status = serializers.SerializerMethodField(
        help_text="open, paid, or superseded (replaced by a later version while open)."
    )
    superseded_by = serializers.SerializerMethodField(help_text="The version that replaced it.")
    paid_at = serializers.DateTimeField(allow_null=True)
    paid_by = serializers.SerializerMethodField()

    def get_status(self, transfer) -> str:
        return transfer_status(transfer)

    def get_superseded_by(self, transfer) -> int | None:
        return transfer.superseded_by.version if transfer.superseded_by_id else None

    def get_payer(self, transfer) -> dict:
        return _party(transfer.payer)

    def get_payee(self, transfer) -> dict:
        return _party(transfer.payee)

    def get_amount(self, transfer) -> str:
        return _money(transfer.amount_minor, transfer.settlement.club)

    def get_paid_by(self, transfer) -> str | None:
        return transfer.paid_by.get_username() if transfer.paid_by_id else None


def transfer_status(transfer) -> str:
    if transfer.paid_at is not None:
        return "paid"
    return "superseded" if transfer.superseded_by_id else "open"


class SettlementLineOutput(serializers.Serializer):
    player = serializers.IntegerField(allow_null=True, help_text="Null: the club.")
    stakes = serializers.CharField()
    entry_fee = serializers.CharField()
    fee_status = serializers.CharField(allow_null=True, help_text="cash, card, owed or null.")
    paid_at_door = serializers.CharField(
        help_text="The fee paid at the door (the club: all fees taken at the door)."
    )
    prize = serializers.CharField()
    net = serializers.CharField()
    settled_before = serializers.CharField()
    difference = serializers.CharField()


class SettlementVersionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    currency = serializers.CharField(source="club.currency")
    rule = serializers.SerializerMethodField(
        help_text="pot: the pot at the door; all: everything between players."
    )
    lines = serializers.SerializerMethodField()
    details = serializers.JSONField()
    prize_rule = serializers.SerializerMethodField(help_text="The prize rule in words.")
    changes = serializers.SerializerMethodField(
        help_text="What changed since the version before, in words."
    )
    transfers = SettlementTransferOutput(many=True)

    def get_rule(self, settlement) -> str:
        return settlement.details.get("rule", "all")

    def get_lines(self, settlement) -> list[dict]:
        return [line_money(line, settlement.club) for line in settlement.lines]

    def get_prize_rule(self, settlement) -> list[str]:
        return words.prize_lines(settlement.details, settlement.club)

    def get_changes(self, settlement) -> list[str]:
        return words.change_lines(
            settlement.details, self.context.get("names", {}), settlement.club
        )


MONEY_FIELDS = (
    "stakes",
    "entry_fee",
    "paid_at_door",
    "prize",
    "net",
    "settled_before",
    "difference",
)


def line_money(line: dict, club) -> dict:
    """A stored line with its amounts as decimal strings (a line stored before fees were taken
    at the door has none: 0)."""
    return {
        "player": line["player"],
        **{name: _money(line.get(name, 0), club) for name in MONEY_FIELDS},
        "fee_status": line.get("fee_status"),
    }


class FeeInput(StrictFieldsMixin, serializers.Serializer):
    player = serializers.IntegerField(help_text="The player whose fee it is.")
    status = serializers.CharField(help_text="cash, card (paid at the door) or owed.")
    amount = MoneyField(required=False, help_text="Defaults to the event's entry fee.")


class FeeOutput(serializers.Serializer):
    player = serializers.SerializerMethodField()
    status = serializers.CharField()
    amount = serializers.SerializerMethodField()
    marked_at = serializers.DateTimeField()
    marked_by = serializers.SerializerMethodField()

    def get_player(self, fee) -> dict:
        return _party(fee.player)

    def get_amount(self, fee) -> str:
        return _money(fee.amount_minor, fee.club)

    def get_marked_by(self, fee) -> str | None:
        return fee.marked_by.get_username() if fee.marked_by_id else None


class SettleUpRuleInput(StrictFieldsMixin, serializers.Serializer):
    between_players = serializers.BooleanField(
        help_text="true: entry fees and prizes settle between players (no pot at the door)."
    )


class SettleUpRuleOutput(serializers.Serializer):
    between_players = serializers.BooleanField()

"""How the settle-up's stored rows are shown: settle-up versions, their lines and transfers, and
the fees marked at the door, as the settlements API answers them and the console's archive shows
them (one shape for both: the pages import this module, never the API's).

What it does: ``SettlementVersionOutput``, ``SettlementTransferOutput``, ``SettlementLineOutput``
and ``FeeOutput`` render stored rows; money goes out as decimal strings in the club's currency
(``amount_string``), a party (payer, payee, a fee's player) as ``{"id", "name"}`` with the club
as ``{"id": null, "name": "The club"}``.

What it does not do: query beyond what the selectors fetched, check any input, or shape the
API's other answers (``settlements.api.serializers`` holds the inputs and the outputs of nights,
prize splits and the settle-up rule).

Terms: *superseded* — an open transfer replaced by a later settle-up version.
"""

from __future__ import annotations

from rest_framework import serializers

from games.money import amount_string
from settlements import words


class PartyOutput(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="Null: the club.")
    name = serializers.CharField()


def party(player) -> dict:
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
        return party(transfer.payer)

    def get_payee(self, transfer) -> dict:
        return party(transfer.payee)

    def get_amount(self, transfer) -> str:
        return amount_string(transfer.amount_minor, transfer.settlement.club)

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
        **{name: amount_string(line.get(name, 0), club) for name in MONEY_FIELDS},
        "fee_status": line.get("fee_status"),
    }


class FeeOutput(serializers.Serializer):
    player = serializers.SerializerMethodField()
    status = serializers.CharField()
    amount = serializers.SerializerMethodField()
    marked_at = serializers.DateTimeField()
    marked_by = serializers.SerializerMethodField()

    def get_player(self, fee) -> dict:
        return party(fee.player)

    def get_amount(self, fee) -> str:
        return amount_string(fee.amount_minor, fee.club)

    def get_marked_by(self, fee) -> str | None:
        return fee.marked_by.get_username() if fee.marked_by_id else None

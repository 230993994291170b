"""Output shapes of the games API beyond a game and a hand: a correction, an undo, the
previews, the legal plays, the ledger, the balances and the history.

What it does: the ``*Output`` serializers render those responses (``XOutput(instance,
context=...).data``) and drf-spectacular documents them from the same classes; they build on
the game and hand shapes of ``games.representations`` (shared with the score pad). Money goes
out as decimal strings in the currency of ``context["club"]``. The previews render the dicts
``games.previews`` builds; these serializers document them.

What it does not do: check rules (engine), look anything up in the database, or decide who may
see what.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.representations import (
    HAND_KINDS,
    AmountField,
    GameSummaryOutput,
    HandOutput,
    HandWithGameOutput,
    PlayerRefOutput,
    TotalsField,
    UserRefOutput,
)


class OutcomeOutput(serializers.Serializer):
    """What a correction or an undo did to its game (``games.services.HandOutcome``)."""

    status_before = serializers.CharField(source="change.status_before")
    status_after = serializers.CharField(source="game.status")
    winner_before = serializers.IntegerField(source="change.winner_before", allow_null=True)
    winner_after = serializers.IntegerField(source="game.winner_side", allow_null=True)
    winner_changed = serializers.BooleanField(
        help_text="True when the game was finished and its winner is now another side (or none)."
    )
    reopened = serializers.BooleanField(help_text="True when a finished game is in play again.")
    finished = serializers.BooleanField(help_text="True when the game is now newly finished.")
    ledger_rebooked = serializers.BooleanField()
    recomputed_hands = serializers.ListField(
        child=serializers.IntegerField(), help_text="Later hands whose totals were recomputed."
    )


class CorrectionOutput(HandWithGameOutput):
    """A corrected hand, its game after the correction and what it changed
    (``context["outcome"]``)."""

    outcome = serializers.SerializerMethodField()

    @extend_schema_field(OutcomeOutput)
    def get_outcome(self, hand) -> dict[str, Any]:
        return OutcomeOutput(self.context["outcome"]).data


class HandPreviewOutput(serializers.Serializer):
    """A dry run of a hand: the engine's result fields merged in, as in ``HandOutput``."""

    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=HAND_KINDS)
    dealer = serializers.IntegerField()
    points = TotalsField(required=False)
    totals_before = TotalsField()
    totals = TotalsField()
    game = GameSummaryOutput()
    stored = serializers.BooleanField(help_text="Always false: a preview stores nothing.")


class LaterHandChangeOutput(serializers.Serializer):
    number = serializers.IntegerField()
    totals_before = TotalsField()
    totals_after = TotalsField()
    changed = serializers.BooleanField()


class CorrectionPreviewOutput(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=HAND_KINDS)
    points = TotalsField(required=False)
    totals = TotalsField()
    hands = LaterHandChangeOutput(many=True, help_text="The corrected hand and every later one.")
    game = GameSummaryOutput()
    winner_before = serializers.IntegerField(allow_null=True)
    winner_changed = serializers.BooleanField(
        help_text="True when the game was finished and the correction gives it another winner, "
        "or none (it is in play again)."
    )
    stored = serializers.BooleanField()


class UndoOutput(serializers.Serializer):
    """An undo: ``{"undone": hand, "game": game after, "totals": its totals, "outcome":
    games.services.HandOutcome}``."""

    undone = HandOutput()
    game = GameSummaryOutput()
    totals = TotalsField()
    outcome = OutcomeOutput()


class LegalPlaysOutput(serializers.Serializer):
    trump = serializers.CharField()
    legal = serializers.ListField(child=serializers.CharField())
    illegal = serializers.ListField(
        child=serializers.DictField(),
        help_text='Each card that may not be played, with why: {"card": "9C", "reason": "..."}.',
    )


class LedgerEntryOutput(serializers.Serializer):
    booking = serializers.IntegerField()
    player = PlayerRefOutput()
    amount = AmountField(source="amount_minor", help_text='+ receives, - pays; e.g. "-0.20".')
    reason = serializers.ChoiceField(choices=["stake", "reversal"])
    created_at = serializers.DateTimeField()


class LedgerOutput(serializers.Serializer):
    """A game's ledger: ``{"game", "currency", "stake", "net", "entries"}`` with the stake and
    each player's net in minor units, the entries with their players loaded."""

    game = serializers.IntegerField()
    currency = serializers.CharField()
    stake = AmountField(allow_null=True)
    net = serializers.DictField(
        child=AmountField(), help_text="Each player's net for this game, by player id."
    )
    entries = LedgerEntryOutput(many=True)


class BalanceOutput(serializers.Serializer):
    player = PlayerRefOutput()
    net = AmountField()


class TransferOutput(serializers.Serializer):
    payer = PlayerRefOutput()
    payee = PlayerRefOutput()
    amount = AmountField()


class BalancesOutput(serializers.Serializer):
    """A club's balances: ``{"currency", "balances": [{"player", "net"}], "transfers": [{"payer",
    "payee", "amount"}]}``, players as rows and amounts in minor units."""

    currency = serializers.CharField()
    balances = BalanceOutput(many=True)
    transfers = TransferOutput(many=True, help_text="Who pays whom to settle every balance.")


class HistoryChangeOutput(serializers.Serializer):
    field = serializers.CharField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)


class HistoryEntryOutput(serializers.Serializer):
    """An entry of ``games.history.game_history``; the acceptance fields are a hand's only."""

    id = serializers.CharField()
    at = serializers.DateTimeField()
    by = UserRefOutput(allow_null=True)
    object = serializers.ChoiceField(choices=["game", "hand"])
    hand = serializers.IntegerField(allow_null=True)
    action = serializers.ChoiceField(choices=["created", "changed", "deleted"])
    reason = serializers.CharField()
    table_link = serializers.IntegerField(
        allow_null=True,
        help_text="Hands: the id of the table link this change came through (recorded, "
        "corrected, recomputed or undone at the table); null otherwise and for the game.",
    )
    changes = HistoryChangeOutput(many=True)
    scored_by = PlayerRefOutput(
        required=False,
        allow_null=True,
        help_text="Hands: who entered this version at the table (named by the tablet).",
    )
    accepted_by = PlayerRefOutput(
        required=False,
        allow_null=True,
        help_text="Hands: the player of another side who accepted this version.",
    )
    accepted_by_organiser = UserRefOutput(
        required=False,
        allow_null=True,
        help_text="Hands: the organiser whose own console entry stood as the acceptance.",
    )

    def to_representation(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        output = super().to_representation(entry)
        for name in ("scored_by", "accepted_by", "accepted_by_organiser"):
            if name not in entry:
                del output[name]
        return output

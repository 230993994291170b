"""Output shapes of the games API: what a game, a hand, a correction, an undo, the ledger, the
balances, the history and the legal plays look like in a response.

What it does: the ``*Output`` serializers render the responses (``XOutput(instance,
context=...).data``) and drf-spectacular documents them from the same classes. They read rows
the selectors already fetched (a game with its club, seats, sides and creator; hands with who
entered, scored and accepted them; ledger entries with their players), so rendering costs no
query. Money goes out as decimal strings in the currency of ``context["club"]``. One response
keeps a fast plain builder beside its serializer: the hand just recorded
(``games.representations``), kept equal to ``HandWithGameOutput`` by
tests/games/test_representations.py. The previews render the dicts ``games.previews`` builds.

What it does not do: check rules (engine), look anything up in the database, or decide who may
see what.

Terms: *side summary* — a side's index, seats, players and team; *game summary* — the few fields
of a game a hand response repeats (status, winner, next dealer, double stake, hands played).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.money import minor_to_decimal_string
from rules_engine.results import per_side


class AmountField(serializers.CharField):
    """An amount in minor units, written as api.md writes money: a decimal string in the currency
    of ``context["club"]`` ("-0.20"). A string is taken as already written (the tournaments'
    settlement writes its own amounts)."""

    def to_representation(self, value: Any) -> str:
        if isinstance(value, str):
            return value
        return minor_to_decimal_string(value, self.context["club"].minor_unit_exponent)


@extend_schema_field(
    {"type": "object", "additionalProperties": {"type": "integer"}, "example": {"0": 15, "1": 20}}
)
class TotalsField(serializers.JSONField):
    """Points per side, keyed by side index; a list by side (a game's or a hand's totals) is
    keyed here, an object already keyed is rendered as it is."""

    def to_representation(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return per_side(value)
        return value


class PlayerRefOutput(serializers.Serializer):
    """A player named in a response: a ``Player`` row (its display name), or a mapping that
    already holds ``id`` and ``name``."""

    id = serializers.IntegerField()
    name = serializers.CharField()

    def to_representation(self, instance: Any) -> dict[str, Any]:
        if not isinstance(instance, Mapping):
            instance = {"id": instance.pk, "name": instance.display_name}
        return super().to_representation(instance)


class UserRefOutput(serializers.Serializer):
    """A user named in a response: a user row, or a mapping with ``id`` and ``username``."""

    id = serializers.IntegerField()
    username = serializers.CharField()


class TeamRefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    player = PlayerRefOutput()
    side = serializers.IntegerField()


class SideOutput(serializers.Serializer):
    """A side summary (``side_summaries``): its index, seats, players and team."""

    index = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.IntegerField())
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids.")
    team = TeamRefOutput(allow_null=True)


def side_summaries(game) -> list[dict[str, Any]]:
    """The game's sides in index order, each with its seats and players in seat order and its
    team (None without one); a side with seats but no side row has no team."""
    sides: dict[int, dict[str, Any]] = {
        side.index: {"index": side.index, "seats": [], "players": [], "team": side.team}
        for side in game.sides.all()
    }
    for seat in game.ordered_seats():
        side = sides.setdefault(
            seat.side, {"index": seat.side, "seats": [], "players": [], "team": None}
        )
        side["seats"].append(seat.seat)
        side["players"].append(seat.player_id)
    return [sides[index] for index in sorted(sides)]


class GameSummaryOutput(serializers.Serializer):
    status = serializers.ChoiceField(choices=["in_progress", "finished"])
    winner = serializers.IntegerField(
        source="winner_side", allow_null=True, help_text="The winning side's index."
    )
    next_dealer = serializers.IntegerField()
    double_stake = serializers.BooleanField()
    hands_played = serializers.IntegerField()


class GameOutput(serializers.Serializer):
    """A game; needs ``club``, ``created_by``, ``seats__player`` and ``sides__team`` loaded
    (``games.selectors.get_game``) and the club in the context."""

    id = serializers.IntegerField()
    club = serializers.CharField(source="club.slug", help_text="The club's slug.")
    game = serializers.CharField()
    house_rules = serializers.JSONField(help_text="The frozen rules of this game.")
    seats = SeatOutput(many=True, source="ordered_seats")
    sides = serializers.SerializerMethodField()
    first_dealer = serializers.IntegerField()
    stake = AmountField(source="stake_minor", allow_null=True)
    currency = serializers.CharField(source="club.currency")
    status = serializers.ChoiceField(choices=["in_progress", "finished"])
    winner = serializers.IntegerField(
        source="winner_side", allow_null=True, help_text="The winning side's index."
    )
    next_dealer = serializers.IntegerField()
    double_stake = serializers.BooleanField()
    hands_played = serializers.IntegerField()
    totals = TotalsField()
    tournament_match = serializers.IntegerField(source="tournament_match_id", allow_null=True)
    created_by = UserRefOutput(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    version = serializers.IntegerField()

    @extend_schema_field(SideOutput(many=True))
    def get_sides(self, game) -> list[dict[str, Any]]:
        return SideOutput(side_summaries(game), many=True, context=self.context).data


class HandOutput(serializers.Serializer):
    """A stored hand; needs ``entered_by``, ``confirmed_by``, ``scored_by`` and
    ``accepted_by_organiser`` loaded (``games.selectors.list_hands``). The engine's result fields
    (``kind``, ``trump``, ``trick_winners``, ``points``, ``best_trump``, ``bid``, ``reached``,
    ``renege``, ``rob``: ``HandResult.to_dict``) are at the top level."""

    number = serializers.IntegerField()
    kind = serializers.ChoiceField(
        source="result.kind", choices=["played", "renege", "misdeal", "redeal"]
    )
    dealer = serializers.IntegerField()
    trump = serializers.CharField(source="result.trump", required=False, allow_null=True)
    trick_winners = serializers.ListField(
        source="result.trick_winners", child=serializers.IntegerField(), required=False
    )
    points = TotalsField(source="result.points", required=False)
    best_trump = serializers.JSONField(source="result.best_trump", required=False, allow_null=True)
    bid = serializers.JSONField(source="result.bid", required=False, allow_null=True)
    reached = serializers.JSONField(
        source="result.reached",
        help_text="Per side: the 0-based trick at which it reached the target, or null.",
    )
    renege = serializers.JSONField(source="result.renege", allow_null=True)
    rob = serializers.JSONField(source="result.rob", allow_null=True)
    totals = TotalsField(source="totals_after")
    record = serializers.JSONField(help_text="The record exactly as entered.")
    entered_by = UserRefOutput(allow_null=True)
    entered_at = serializers.DateTimeField()
    confirmed_by = PlayerRefOutput(allow_null=True)
    scored_by = PlayerRefOutput(
        allow_null=True, help_text="The player the table's tablet named as having entered it."
    )
    accepted_by_organiser = UserRefOutput(
        allow_null=True,
        help_text="The organiser whose own console entry stood as the acceptance (confirm_hands).",
    )
    table_link = serializers.IntegerField(
        source="table_link_id",
        allow_null=True,
        help_text="The id of the table link through which the hand was recorded; null when it "
        "was recorded by a logged-in user or an API client.",
    )
    updated_at = serializers.DateTimeField()


class HandWithGameOutput(HandOutput):
    """A hand just written, with the summary of its game after the write (``context["game"]``:
    the hand's cached game may be an older copy of the row, or not loaded)."""

    game = serializers.SerializerMethodField()

    @extend_schema_field(GameSummaryOutput)
    def get_game(self, hand) -> dict[str, Any]:
        return GameSummaryOutput(self.context["game"]).data


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
    kind = serializers.ChoiceField(choices=["played", "renege", "misdeal", "redeal"])
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
    kind = serializers.ChoiceField(choices=["played", "renege", "misdeal", "redeal"])
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

"""Output shapes of the games API: what a game, a hand, a correction, an undo, the ledger, the
balances, the history and the legal plays look like in a response.

What it does: the ``*Output`` serializers document the responses (drf-spectacular); the plain
output builders (``game_output``, ``hand_output``, ...) build them over already-fetched rows.

What it does not do: check rules (engine), look anything up in the database, or decide who may
see what.

Terms: *side summary* — a side's index, seats, players and team; *game summary* — the few fields
of a game a hand response repeats (status, winner, next dealer, double stake, hands played).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Game, Hand, LedgerEntry
from games.money import minor_to_decimal_string

# ---------------------------------------------------------------------------------------------
# Output builders (plain functions: see the module docstring)


def user_summary(user) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.pk, "username": user.get_username()}


def totals_by_side(totals: list[int]) -> dict[str, int]:
    return {str(side): points for side, points in enumerate(totals)}


def stake_string(game: Game) -> str | None:
    if game.stake_minor is None:
        return None
    return minor_to_decimal_string(game.stake_minor, game.club.minor_unit_exponent)


def game_summary(game: Game) -> dict[str, Any]:
    return {
        "status": game.status,
        "winner": game.winner_side,
        "next_dealer": game.next_dealer,
        "double_stake": game.double_stake,
        "hands_played": game.hands_played,
    }


def game_output(game: Game) -> dict[str, Any]:
    """The full game; needs ``club``, ``seats__player`` and ``sides__team`` loaded."""
    seats = game.ordered_seats()
    sides: dict[int, dict[str, Any]] = {}
    for side in game.sides.all():
        sides[side.index] = {
            "index": side.index,
            "seats": [],
            "players": [],
            "team": None if side.team is None else {"id": side.team.pk, "name": side.team.name},
        }
    for seat in seats:
        side = sides.setdefault(
            seat.side, {"index": seat.side, "seats": [], "players": [], "team": None}
        )
        side["seats"].append(seat.seat)
        side["players"].append(seat.player_id)
    return {
        "id": game.pk,
        "club": game.club.slug,
        "game": game.game,
        "house_rules": game.house_rules,
        "seats": [
            {
                "seat": seat.seat,
                "player": {"id": seat.player_id, "name": seat.player.display_name},
                "side": seat.side,
            }
            for seat in seats
        ],
        "sides": [sides[index] for index in sorted(sides)],
        "first_dealer": game.first_dealer,
        "stake": stake_string(game),
        "currency": game.club.currency,
        **game_summary(game),
        "totals": totals_by_side(game.totals),
        "tournament_match": game.tournament_match_id,
        "created_by": user_summary(game.created_by) if game.created_by_id else None,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "version": game.version,
    }


def hand_output(hand: Hand, game: Game | None = None) -> dict[str, Any]:
    """A hand as api.md shows it: the engine's result, totals after it, and the record.

    With ``game`` (after recording or correcting) the game summary is included too.
    """
    output: dict[str, Any] = {"number": hand.number}
    output.update(hand.result)
    output["dealer"] = hand.dealer
    output["totals"] = totals_by_side(hand.totals_after)
    output["record"] = hand.record
    output["entered_by"] = user_summary(hand.entered_by) if hand.entered_by_id else None
    output["entered_at"] = hand.entered_at
    output["confirmed_by"] = (
        {"id": hand.confirmed_by_id, "name": hand.confirmed_by.display_name}
        if hand.confirmed_by_id
        else None
    )
    output["scored_by"] = (
        {"id": hand.scored_by_id, "name": hand.scored_by.display_name}
        if hand.scored_by_id
        else None
    )
    output["accepted_by_organiser"] = (
        user_summary(hand.accepted_by_organiser) if hand.accepted_by_organiser_id else None
    )
    output["table_link"] = hand.table_link_id
    output["updated_at"] = hand.updated_at
    if game is not None:
        output["game"] = game_summary(game)
    return output


def ledger_entry_output(entry: LedgerEntry, exponent: int) -> dict[str, Any]:
    return {
        "booking": entry.booking,
        "player": {"id": entry.player_id, "name": entry.player.display_name},
        "amount": minor_to_decimal_string(entry.amount_minor, exponent),
        "reason": entry.reason,
        "created_at": entry.created_at,
    }


# ---------------------------------------------------------------------------------------------
# Schema-only serializers (drf-spectacular documents the responses with these)


class PlayerRefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class UserRefOutput(serializers.Serializer):
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
    index = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.IntegerField())
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids.")
    team = TeamRefOutput(allow_null=True)


class GameSummaryOutput(serializers.Serializer):
    status = serializers.ChoiceField(choices=["in_progress", "finished"])
    winner = serializers.IntegerField(allow_null=True, help_text="The winning side's index.")
    next_dealer = serializers.IntegerField()
    double_stake = serializers.BooleanField()
    hands_played = serializers.IntegerField()


@extend_schema_field(
    {"type": "object", "additionalProperties": {"type": "integer"}, "example": {"0": 15, "1": 20}}
)
class TotalsField(serializers.JSONField):
    """Points per side, keyed by side index."""


class GameOutput(GameSummaryOutput):
    id = serializers.IntegerField()
    club = serializers.CharField(help_text="The club's slug.")
    game = serializers.CharField()
    house_rules = serializers.JSONField(help_text="The frozen rules of this game.")
    seats = SeatOutput(many=True)
    sides = SideOutput(many=True)
    first_dealer = serializers.IntegerField()
    stake = serializers.CharField(allow_null=True)
    currency = serializers.CharField()
    totals = TotalsField()
    tournament_match = serializers.IntegerField(allow_null=True)
    created_by = UserRefOutput(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    version = serializers.IntegerField()


class HandOutput(serializers.Serializer):
    """A stored hand. The engine's result fields (``trump``, ``trick_winners``, ``points``,
    ``best_trump``, ``bid``, ``misdeal``, ``renege``, ...) are merged in at the top level."""

    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["played", "renege", "misdeal", "redeal"])
    dealer = serializers.IntegerField()
    trump = serializers.CharField(required=False, allow_null=True)
    trick_winners = serializers.ListField(child=serializers.IntegerField(), required=False)
    points = TotalsField(required=False)
    best_trump = serializers.JSONField(required=False, allow_null=True)
    bid = serializers.JSONField(required=False, allow_null=True)
    reached = serializers.JSONField(
        help_text="Per side: the 0-based trick at which it reached the target, or null."
    )
    renege = serializers.JSONField(allow_null=True)
    rob = serializers.JSONField(allow_null=True)
    totals = TotalsField()
    record = serializers.JSONField(help_text="The record exactly as entered.")
    entered_by = UserRefOutput(allow_null=True)
    confirmed_by = PlayerRefOutput(allow_null=True)
    scored_by = PlayerRefOutput(
        allow_null=True, help_text="The player the table's tablet named as having entered it."
    )
    accepted_by_organiser = UserRefOutput(
        allow_null=True,
        help_text="The organiser whose own console entry stood as the acceptance (confirm_hands).",
    )
    entered_at = serializers.DateTimeField()
    table_link = serializers.IntegerField(
        allow_null=True,
        help_text="The id of the table link through which the hand was recorded; null when it "
        "was recorded by a logged-in user or an API client.",
    )
    updated_at = serializers.DateTimeField()


class HandWithGameOutput(HandOutput):
    game = GameSummaryOutput()


class OutcomeOutput(serializers.Serializer):
    status_before = serializers.CharField()
    status_after = serializers.CharField()
    winner_before = serializers.IntegerField(allow_null=True)
    winner_after = serializers.IntegerField(allow_null=True)
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
    outcome = OutcomeOutput()


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
    amount = serializers.CharField(help_text='+ receives, - pays; e.g. "-0.20".')
    reason = serializers.ChoiceField(choices=["stake", "reversal"])
    created_at = serializers.DateTimeField()


class LedgerOutput(serializers.Serializer):
    game = serializers.IntegerField()
    currency = serializers.CharField()
    stake = serializers.CharField(allow_null=True)
    net = serializers.DictField(
        child=serializers.CharField(), help_text="Each player's net for this game, by player id."
    )
    entries = LedgerEntryOutput(many=True)


class BalanceOutput(serializers.Serializer):
    player = PlayerRefOutput()
    net = serializers.CharField()


class TransferOutput(serializers.Serializer):
    payer = PlayerRefOutput()
    payee = PlayerRefOutput()
    amount = serializers.CharField()


class BalancesOutput(serializers.Serializer):
    currency = serializers.CharField()
    balances = BalanceOutput(many=True)
    transfers = TransferOutput(many=True, help_text="Who pays whom to settle every balance.")


class HistoryChangeOutput(serializers.Serializer):
    field = serializers.CharField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)


class HistoryEntryOutput(serializers.Serializer):
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

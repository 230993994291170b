"""How a game and its hands are shown, as the games API answers them and the score pad embeds
them (one shape for both: the pages import this module, never the API's).

What it does: the ``*Output`` serializers render a game (``GameOutput``), a hand (``HandOutput``)
and a hand just written with its game's summary (``HandWithGameOutput``), and drf-spectacular
documents them from the same classes. They read rows the selectors already fetched (a game with
its club, creator, seats and sides; hands with who entered, scored and accepted them), so
rendering costs no query. Money goes out as decimal strings in the currency of
``context["club"]`` (``AmountField``); points per side as objects keyed by side index
(``TotalsField``).

One response keeps a fast builder beside its serializer: ``recorded_hand``, the body of
``POST /api/games/{id}/hands/``. Recording a hand is the hottest path of the API, and a
serializer tree per response would cost more there than the rules do; the builder writes
``HandWithGameOutput``'s shape key for key and in the same order, and
tests/games/test_representations.py keeps the two equal over many hands (variants,
irregularities, corrections, teams, stakes, finished games).

What it does not do: look anything up in the database, check any input (``games.api.inputs``),
or shape the API's other answers (ledger, balances, history, corrections, undo, previews:
``games.api.outputs``).

Terms: *side summary* — a side's index, seats, players and team; *game summary* — the few fields
of a game a hand response repeats (status, winner, next dealer, double stake, hands played).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Game, Hand
from games.money import amount_string
from rules_engine.results import per_side

# What a hand can be (``HandResult.kind``); a paper score is one "paper" hand.
HAND_KINDS = ["played", "renege", "misdeal", "redeal", "paper"]


class AmountField(serializers.CharField):
    """An amount in minor units, written as api.md writes money: a decimal string in the currency
    of ``context["club"]`` ("-0.20"). A string is taken as already written (the tournaments'
    settlement writes its own amounts)."""

    def to_representation(self, value: Any) -> str:
        if isinstance(value, str):
            return value
        return amount_string(value, self.context["club"])


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
    game = serializers.CharField(source="variant")
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
    kind = serializers.ChoiceField(source="result.kind", choices=HAND_KINDS)
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


# ---------------------------------------------------------------------------------------------
# The fast builder of a recorded hand (see the module docstring)

# Timestamps are written as the serializers write them (ISO 8601, "Z" for UTC).
_TIMESTAMP = serializers.DateTimeField()


def _user(user) -> dict[str, Any]:
    return {"id": user.pk, "username": user.username}


def _player(player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.display_name}


def recorded_hand(hand: Hand, game: Game) -> dict[str, Any]:
    """``HandWithGameOutput(hand, context={"game": game}).data``, built by hand."""
    result = hand.result
    return {
        "number": hand.number,
        "kind": result["kind"],
        "dealer": hand.dealer,
        "trump": result["trump"],
        "trick_winners": list(result["trick_winners"]),
        "points": result["points"],
        "best_trump": result["best_trump"],
        "bid": result["bid"],
        "reached": result["reached"],
        "renege": result["renege"],
        "rob": result["rob"],
        "totals": per_side(hand.totals_after),
        "record": hand.record,
        "entered_by": _user(hand.entered_by) if hand.entered_by_id else None,
        "entered_at": _TIMESTAMP.to_representation(hand.entered_at),
        "confirmed_by": _player(hand.confirmed_by) if hand.confirmed_by_id else None,
        "scored_by": _player(hand.scored_by) if hand.scored_by_id else None,
        "accepted_by_organiser": (
            _user(hand.accepted_by_organiser) if hand.accepted_by_organiser_id else None
        ),
        "table_link": hand.table_link_id,
        "updated_at": _TIMESTAMP.to_representation(hand.updated_at),
        "game": {
            "status": game.status,
            "winner": game.winner_side,
            "next_dealer": game.next_dealer,
            "double_stake": game.double_stake,
            "hands_played": game.hands_played,
        },
    }

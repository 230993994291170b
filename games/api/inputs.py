"""Input shapes of the games API (api.md "Creating a game", "Recording a hand").

What it does: ``*Input`` serializers check types and shapes of request bodies (unknown keys are
refused by ``StrictFieldsMixin``); ``create_game_arguments`` turns a validated ``GameInput`` into
the keyword arguments of ``games.services.create_game``. Hand records themselves are checked by
the engine, not here: the body of ``POST .../hands/`` is passed to it as is (minus the optional
``number``, ``confirmed_by`` and ``scored_by``, which the view hands to the service as arguments
of their own), so its errors carry the engine's codes and pointers; ``HandRecordInput``
documents that body for the schema only.

What it does not do: check rules (engine), look anything up in the database, decide who may see
what, or shape responses (``games.representations``, ``games.api.outputs``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.problems import Problem
from config.serializers import StrictFieldsMixin
from games.money import InvalidAmount, decimal_string_to_minor


@extend_schema_field(
    {
        "oneOf": [
            {"type": "array", "items": {"type": "integer"}, "description": "the side's seats"},
            {
                "type": "object",
                "properties": {
                    "seats": {"type": "array", "items": {"type": "integer"}},
                    "team": {"type": "integer", "nullable": True},
                },
                "required": ["seats"],
                "additionalProperties": False,
            },
        ]
    }
)
class SideField(serializers.Field):
    """One side of a new game: ``[0, 2]`` or ``{"seats": [0, 2], "team": 7}``."""

    default_error_messages = {
        # Doubled braces: DRF formats this message with str.format.
        "invalid": 'A side is a list of seats, e.g. [0, 2], or {{"seats": [0, 2], "team": 7}}.',
    }

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, list):
            seats, team = data, None
        elif isinstance(data, dict) and set(data) <= {"seats", "team"} and "seats" in data:
            seats, team = data["seats"], data.get("team")
        else:
            self.fail("invalid")
        if not isinstance(seats, list) or not all(type(seat) is int for seat in seats):
            self.fail("invalid")
        if team is not None and type(team) is not int:
            self.fail("invalid")
        return {"seats": seats, "team": team}

    def to_representation(self, value: Any) -> Any:
        return value


class MoneyField(serializers.CharField):
    """An amount as api.md writes money: a decimal string ("0.20"), never a JSON number (a float
    such as 0.1 + 0.2 is not an amount). The view converts it to minor units."""

    default_error_messages = {"invalid": 'An amount is a decimal string such as "0.20".'}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class GameInput(StrictFieldsMixin, serializers.Serializer):
    game = serializers.CharField(help_text='"25", "45", "55", "110", "220" or "auction45".')
    seats = serializers.ListField(
        child=serializers.IntegerField(),
        allow_empty=False,
        help_text="Player ids, clockwise from seat 0.",
    )
    teams = serializers.ListField(
        child=SideField(),
        required=False,
        allow_null=True,
        # [] is refused rather than read as "no partnerships": leave teams out (or null) for that.
        allow_empty=False,
        help_text="Optional partnerships: each side's seats, optionally with the club team id. "
        "Without it every seat plays for itself.",
    )
    first_dealer = serializers.IntegerField(default=0, help_text="Seat of the first dealer.")
    house_rules = serializers.DictField(
        required=False, default=dict, help_text="Overrides of the club's (or tournament's) rules."
    )
    stake = MoneyField(
        required=False,
        allow_null=True,
        help_text='What each player of a losing side pays, in the club currency ("0.20").',
    )
    tournament_match = serializers.IntegerField(required=False, allow_null=True)


def create_game_arguments(data: dict, club) -> dict:
    """The keyword arguments of ``games.services.create_game`` (but the club and the user) from a
    validated ``GameInput`` (or a subclass): the stake in the club's minor units (400
    ``invalid_stake`` at ``/stake`` for an amount the currency cannot hold), each side's seats
    and team."""
    stake_minor = None
    if data.get("stake") is not None:
        try:
            stake_minor = decimal_string_to_minor(data["stake"], club.minor_unit_exponent)
        except InvalidAmount as error:
            raise Problem(
                code="invalid_stake", detail=f"stake: {error}", pointer="/stake"
            ) from error
    sides = data.get("teams")
    return {
        "game": data["game"],
        "seat_player_ids": data["seats"],
        "teams": [side["seats"] for side in sides] if sides else None,
        "team_ids": [side["team"] for side in sides] if sides else None,
        "first_dealer": data["first_dealer"],
        "house_rules": data.get("house_rules") or {},
        "stake_minor": stake_minor,
    }


class HandRecordInput(serializers.Serializer):
    """A hand record, for the schema only: the engine checks records, with its own
    codes and pointers. Trick-winner entry: ``dealer``, ``trump`` (or ``turn_up``),
    ``trick_winners``, ``best_trump``, ``bid``, ``rob``. Card-by-card entry: ``dealer``,
    ``turn_up``/``rob`` (25, 45) or ``bidding``/``kitty``/``discard``/``trump`` (bidding games),
    ``deal``, ``tricks``. Irregularities: ``misdeal``, ``renege``; ``redeal`` when all passed.
    A table that kept paper: ``dealer``, ``paper_score`` (and ``winner`` when needed)."""

    number = serializers.IntegerField(
        required=False, help_text="The hand number the client believes it is recording."
    )
    dealer = serializers.IntegerField()
    trump = serializers.CharField(required=False)
    turn_up = serializers.CharField(required=False)
    trick_winners = serializers.ListField(child=serializers.IntegerField(), required=False)
    best_trump = serializers.JSONField(required=False, help_text='{"seat": 2, "trick": 3}')
    bid = serializers.JSONField(required=False, help_text='{"seat": 1, "amount": 20}')
    rob = serializers.JSONField(required=False, help_text='{"seat": 1, "discard": "2D"}')
    deal = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), required=False
    )
    tricks = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), required=False
    )
    bidding = serializers.ListField(
        child=serializers.JSONField(), required=False, help_text='[{"seat": 1, "call": "15"}]'
    )
    kitty = serializers.ListField(child=serializers.CharField(), required=False)
    discard = serializers.ListField(child=serializers.CharField(), required=False)
    misdeal = serializers.BooleanField(required=False)
    redeal = serializers.BooleanField(required=False)
    renege = serializers.JSONField(required=False, help_text='{"seat": 1, "trick": 3}')
    paper_score = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="A paper score: the game's final score per side, by side index ([45, 30]); "
        "with dealer (and winner when needed) only. Ends the game; checked against the game's "
        "house rules (kind paper).",
    )
    winner = serializers.IntegerField(
        required=False,
        help_text="With paper_score only: the winning side, when several sides passed the "
        "target and the rules cannot tell from the totals who got there first.",
    )
    confirmed_by = serializers.IntegerField(
        required=False,
        help_text="The player of another side who accepts this hand, correction (or undo, in "
        "its body or query) — required by a club with confirm_hands.",
    )
    scored_by = serializers.IntegerField(
        required=False,
        help_text="The player who entered it at the table; the accepting player sits on another "
        "side. Required through a table link in a club with confirm_hands.",
    )


class LegalPlaysInput(StrictFieldsMixin, serializers.Serializer):
    hand = serializers.ListField(
        child=serializers.CharField(), allow_empty=False, help_text="The cards the seat holds."
    )
    trick = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        default=list,
        help_text="The cards played so far to the current trick, leader first ([] to lead).",
    )
    trump = serializers.CharField(
        required=False, help_text='Trump suit: "S", "H", "D", "C" (or ♠ ♥ ♦ ♣).'
    )
    turn_up = serializers.CharField(
        required=False, help_text="25 and 45: the turned-up card, instead of trump."
    )

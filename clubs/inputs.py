"""The shape of a club's settings as a person or a client gives them: one input for the API
(``POST``/``PATCH /api/clubs/``) and the console's club form (pages import this module, never
the API's).

What it does: ``ClubInput`` checks the types and shapes of a club's fields and refuses unknown
ones (``StrictFieldsMixin``); with ``partial=True`` it checks a change of some of them.

What it does not do: write anything or check what needs the database (a slug already taken,
house rules against the game): ``clubs.services`` does, with the same JSON pointers.
"""

from __future__ import annotations

from rest_framework import serializers

from clubs.models import CURRENCY_CHOICES, GAME_CHOICES, validate_time_zone
from config.serializers import StrictFieldsMixin


class ClubInput(StrictFieldsMixin, serializers.Serializer):
    """Create a club (all required fields) or, with ``partial=True``, change some of them."""

    name = serializers.CharField(max_length=100)
    slug = serializers.SlugField(max_length=50, help_text="Unique; the club's URL segment.")
    currency = serializers.ChoiceField(choices=CURRENCY_CHOICES, help_text="ISO 4217 code.")
    time_zone = serializers.CharField(
        max_length=64, validators=[validate_time_zone], help_text="IANA name: Europe/Dublin."
    )
    default_game = serializers.ChoiceField(choices=GAME_CHOICES, default="25")
    default_house_rules = serializers.DictField(
        default=dict,
        help_text="Overrides of the house rules of `default_game` (keys of the rules table).",
    )
    public_standings = serializers.BooleanField(
        default=False, help_text="Anyone may read this club, its players, teams and standings."
    )
    confirm_hands = serializers.BooleanField(
        default=False,
        help_text="A hand entered at a table needs a player of another side to accept it "
        "(`confirmed_by` of the hand).",
    )
    require_two_factor = serializers.BooleanField(
        default=False,
        help_text="The club's organisers must sign in with a second factor to use the console "
        "and the organiser actions (403 `second_factor_setup_required` until they do).",
    )

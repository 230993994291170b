"""Serializers of the seasons API: the season table and ratings (output only)."""

from __future__ import annotations

from rest_framework import serializers


class PlayerReferenceOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SeasonRowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerReferenceOutput()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField(help_text="The final points of the player's side, summed.")
    net_stakes = serializers.CharField(
        allow_null=True,
        help_text='Stakes received (+) or paid (-) over the games ("-0.40"); null for readers '
        "who are not members of the club.",
    )


class SeasonOutput(serializers.Serializer):
    club = serializers.CharField()
    date_from = serializers.DateField()
    date_to = serializers.DateField()
    version = serializers.IntegerField(help_text="The snapshot's version (its ETag).")
    stale = serializers.BooleanField(help_text="True while a newer recomputation is pending.")
    computed_at = serializers.DateTimeField()
    rows = SeasonRowOutput(many=True)


class SeasonInput(serializers.Serializer):
    # "from" is a keyword: the query parameters are mapped explicitly in the view.
    date_from = serializers.DateField(required=False)
    date_to = serializers.DateField(required=False)


class RatingOutput(serializers.Serializer):
    player = PlayerReferenceOutput(source="player_reference")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: the conservative rating shown.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class RatingHistoryOutput(serializers.Serializer):
    game = serializers.IntegerField(source="game_id")
    sequence = serializers.IntegerField()
    ordinal = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class PlayerRatingOutput(serializers.Serializer):
    player = PlayerReferenceOutput()
    rating = RatingOutput(allow_null=True)
    history = RatingHistoryOutput(many=True)

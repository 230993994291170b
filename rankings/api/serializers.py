"""Output serializers of the rankings API (the shapes of ``rankings.representations``)."""

from __future__ import annotations

from rest_framework import serializers


class PublicPlayerOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The whole name or its initials: the player's choice.")


class ClubReferenceOutput(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class RankingRowOutput(serializers.Serializer):
    position = serializers.IntegerField(
        help_text="Place in the list, from 1 (a filtered list counts its own; a history, the "
        "whole ranking's)."
    )
    player = PublicPlayerOutput()
    ordinal = serializers.FloatField(help_text="The rating shown: mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated games across member clubs.")
    form = serializers.FloatField(
        allow_null=True,
        help_text="Current form: 100 x games won / games expected over the window "
        "(docs/rankings.md); null without a game in it.",
    )
    form_games = serializers.IntegerField(help_text="Games in the form window.")
    points = serializers.IntegerField(help_text="Lifetime points for places at events.")
    events = serializers.IntegerField()


class HistoryStepOutput(serializers.Serializer):
    game = serializers.IntegerField()
    club = ClubReferenceOutput()
    game_type = serializers.CharField(help_text='The variant ("25", "45", ...).')
    finished_at = serializers.DateTimeField()
    won = serializers.BooleanField()
    chance = serializers.FloatField(help_text="The side's chance of winning before the game.")
    ordinal = serializers.FloatField(help_text="The rating after the game.")
    form = serializers.FloatField(allow_null=True, help_text="The form after the game.")


class PlacingOutput(serializers.Serializer):
    event = serializers.CharField()
    club = ClubReferenceOutput()
    kind = serializers.CharField(help_text='"tournament" or "night" (a club night).')
    held_at = serializers.DateTimeField()
    place = serializers.IntegerField()
    field = serializers.IntegerField(help_text="How many were placed.")
    points = serializers.IntegerField()


class PlayerHistoryOutput(serializers.Serializer):
    player = PublicPlayerOutput()
    rating = RankingRowOutput(allow_null=True)
    placings = PlacingOutput(many=True, help_text="Every event placed at, newest first.")
    count = serializers.IntegerField(help_text="Ranked games in all.")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = HistoryStepOutput(many=True, help_text="Ranked games, newest first (paged).")

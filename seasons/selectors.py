"""Reads of seasons: a club's ratings (ranked by ordinal) and one player's rating with history.

What it does not do: compute or store (``seasons.ratings``, ``seasons.table``).
"""

from __future__ import annotations

from django.db.models import QuerySet

from clubs.models import Club, Player
from seasons.models import PlayerRating, RatingChange


def list_ratings(*, club: Club) -> QuerySet[PlayerRating]:
    return (
        PlayerRating.objects.filter(club=club).select_related("player")
        .order_by("-ordinal", "player__display_name", "player_id")
    )


def get_player_rating(*, player: Player) -> PlayerRating | None:
    return PlayerRating.objects.filter(player=player).first()


def list_rating_history(*, player: Player) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(player=player).order_by("sequence")

"""Reads of seasons: a club's ratings (ranked by ordinal) and one player's rating with history.

What it does: ``list_ratings``, ``get_player_rating`` and ``list_rating_history`` for the API;
for the pages, ``season_for_page`` (the club page's season table, read through
``seasons.league_table.read_season``, with each player's rating; stakes for members only) and
``rating_for_page`` (a player's rating and their latest steps).

What it does not do: compute ratings or season tables (``seasons.ratings``,
``seasons.league_table``; the first read of a range stores its snapshot there, ``read_season``).
"""

from __future__ import annotations

from django.db.models import QuerySet

from clubs.models import Club, Player
from seasons.models import PlayerRating, RatingChange


def list_ratings(*, club: Club) -> QuerySet[PlayerRating]:
    return (
        PlayerRating.objects.filter(club=club)
        .select_related("player")
        .order_by("-ordinal", "player__display_name", "player_id")
    )


def get_player_rating(*, player: Player) -> PlayerRating | None:
    return PlayerRating.objects.filter(player=player).first()


def list_rating_history(*, player: Player) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(player=player).order_by("sequence")


def season_for_page(*, club: Club, user) -> dict:
    """The club page's season table (this calendar year) with each player's rating: the stored
    snapshot and the ratings, in a fixed number of queries; stakes for members only."""
    from clubs.permissions import role_in
    from seasons.league_table import read_season

    season = read_season(club)
    ratings = dict(PlayerRating.objects.filter(club=club).values_list("player_id", "ordinal"))
    season["rows"] = [{**row, "rating": ratings.get(row["player"]["id"])} for row in season["rows"]]
    season["show_money"] = role_in(user, club) is not None
    return season


def rating_for_page(*, player: Player, history_limit: int = 20) -> dict:
    """A player's current rating and their latest ``history_limit`` steps, oldest first."""
    history = list(RatingChange.objects.filter(player=player).order_by("-sequence")[:history_limit])
    return {"current": get_player_rating(player=player), "history": history[::-1]}

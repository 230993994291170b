"""HTTP endpoints of seasons: the club's season table, its ratings, one player's rating.

What it does: ``GET /api/clubs/{slug}/season/?from=YYYY-MM-DD&to=YYYY-MM-DD`` reads the stored
season table (default: this calendar year) with ``ETag``/``If-None-Match`` and ``stale``;
``GET /api/clubs/{slug}/ratings/`` the ratings by ordinal; ``GET
/api/clubs/{slug}/players/{player_id}/rating/`` one player's rating and history. Readers of the
club read (``ClubReadPermission``); net stakes are shown to members only.

What it does not do: compute (the jobs store what these read).
"""

from __future__ import annotations

import datetime

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.permissions import ClubReadPermission, role_in
from config.problems import Problem
from seasons import league_table, selectors
from seasons.api.serializers import PlayerRatingOutput, RatingOutput, SeasonOutput
from seasons.models import PlayerRating

MAX_RANGE_DAYS = 3660


class _ClubView(GenericAPIView):
    permission_classes = [ClubReadPermission]
    queryset = PlayerRating.objects.none()
    pagination_class = None  # a club's ratings and its season: answers of their own, never paged

    def get_club(self):
        if getattr(self, "_club", None) is None:
            self._club = club_selectors.get_club(slug=self.kwargs["slug"], user=self.request.user)
        return self._club


def _date(request, name: str) -> datetime.date | None:
    text = request.query_params.get(name)
    if text is None:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError as error:
        raise Problem(
            code="invalid_date",
            pointer=f"/{name}",
            detail=f"{name}: a date as YYYY-MM-DD, not {text!r}.",
        ) from error


def season_range_of(request) -> tuple[datetime.date, datetime.date]:
    date_from, date_to = _date(request, "from"), _date(request, "to")
    if date_from is None and date_to is None:
        return league_table.season_range()
    if date_from is None or date_to is None:
        raise Problem(
            code="invalid_range",
            pointer="/from",
            detail="Give both from and to, or neither (this calendar year).",
        )
    if date_to < date_from or (date_to - date_from).days > MAX_RANGE_DAYS:
        raise Problem(
            code="invalid_range",
            pointer="/to",
            detail=f"to must be on or after from, at most {MAX_RANGE_DAYS} days on.",
        )
    return date_from, date_to


class SeasonView(_ClubView):
    @extend_schema(
        operation_id="clubs_season",
        summary="The club's season table (stored snapshot; default: this calendar year)",
        parameters=[
            OpenApiParameter("from", OpenApiTypes.DATE, required=False),
            OpenApiParameter("to", OpenApiTypes.DATE, required=False),
            OpenApiParameter(
                "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False
            ),
        ],
        responses={200: SeasonOutput, 304: OpenApiResponse(description="Not modified.")},
    )
    def get(self, request, slug):
        club = self.get_club()
        date_from, date_to = season_range_of(request)
        season = league_table.read_season(club, date_from, date_to)
        etag = season.pop("etag")
        if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        if role_in(request.user, club) is None:
            season["rows"] = [{**row, "net_stakes": None} for row in season["rows"]]
        return Response(SeasonOutput(season).data, headers={"ETag": etag})


class RatingListView(_ClubView):
    @extend_schema(
        operation_id="clubs_ratings",
        responses=RatingOutput(many=True),
        summary="The club's OpenSkill ratings, best ordinal first",
    )
    def get(self, request, slug):
        ratings = list(selectors.list_ratings(club=self.get_club()))
        for rating in ratings:
            rating.player_reference = {"id": rating.player_id, "name": rating.player.display_name}
        return Response(RatingOutput(ratings, many=True).data)


class PlayerRatingView(_ClubView):
    @extend_schema(
        operation_id="clubs_players_rating",
        responses=PlayerRatingOutput,
        summary="One player's rating and its history, game by game",
    )
    def get(self, request, slug, player_id):
        player = club_selectors.get_player(club=self.get_club(), player_id=player_id)
        rating = selectors.get_player_rating(player=player)
        if rating is not None:
            rating.player_reference = {"id": player.pk, "name": player.display_name}
        return Response(
            PlayerRatingOutput(
                {
                    "player": {"id": player.pk, "name": player.display_name},
                    "rating": rating,
                    "history": selectors.list_rating_history(player=player),
                }
            ).data
        )

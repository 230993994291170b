"""HTTP endpoints of rankings: public reads of a federation's ranking and a player's history.

What it does: ``GET /api/federations/{federation_slug}/rankings/`` — the ranked players, best
first, paged, filtered by ``?game=`` and ``?club=`` (``rankings.filters``), with an ``ETag`` (the
stored ranking's version) answering ``If-None-Match`` with 304 before anything else is read;
``GET /api/federations/{federation_slug}/players/{federation_player_id}/history/`` — one
player's rating, every placing, and their ranked games newest first (paged), with the same
``ETag``. Anyone may read (no login): a player who chose not to be ranked, or merged into
another, is 404 like one that does not exist; names are shown as each player chose.

What it does not do: compute (``rankings.build``) or write anything.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from rankings import representations, selectors
from rankings.api.serializers import PlayerHistoryOutput, RankingRowOutput
from rankings.filters import RankingFilter
from rankings.models import FederationRating

IF_NONE_MATCH = OpenApiParameter(
    name="If-None-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The ranking's ETag from an earlier response; an unchanged ranking gives 304.",
)
NOT_MODIFIED = OpenApiResponse(description="Not modified: the ranking has not moved.")


def _not_modified(request, etag: str) -> bool:
    if_none_match = request.headers.get("If-None-Match", "")
    return etag in [tag.strip() for tag in if_none_match.split(",")] or if_none_match == "*"


class _FederationView(GenericAPIView):
    permission_classes = [AllowAny]
    queryset = FederationRating.objects.none()

    def get_federation(self):
        if getattr(self, "_federation", None) is None:
            self._federation = selectors.get_federation(slug=self.kwargs["federation_slug"])
        return self._federation


class RankingView(_FederationView):
    filterset_class = RankingFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return FederationRating.objects.none()
        return selectors.list_ranking(federation=self.get_federation())

    @extend_schema(
        operation_id="federations_rankings",
        summary="A federation's ranking across its member clubs (public)",
        parameters=[IF_NONE_MATCH],
        responses={200: RankingRowOutput(many=True), 304: NOT_MODIFIED},
    )
    def get(self, request, federation_slug):
        etag = selectors.ranking_etag(self.get_federation())
        if _not_modified(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        start = self.paginator.page.start_index()
        rows = [
            representations.ranking_row(rating, start + index) for index, rating in enumerate(page)
        ]
        response = self.get_paginated_response(RankingRowOutput(rows, many=True).data)
        response["ETag"] = etag
        return response


class PlayerHistoryView(_FederationView):
    filter_backends: list = []

    @extend_schema(
        operation_id="federations_player_history",
        summary="A federation player's history across member clubs (public)",
        parameters=[IF_NONE_MATCH],
        responses={200: PlayerHistoryOutput, 304: NOT_MODIFIED},
    )
    def get(self, request, federation_slug, federation_player_id):
        federation = self.get_federation()
        player = selectors.get_ranked_player(federation=federation, player_id=federation_player_id)
        etag = selectors.ranking_etag(federation)
        if _not_modified(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        rating = selectors.get_rating(player=player)
        if rating is not None:
            rating.federation, rating.federation_player = federation, player
        page = self.paginate_queryset(selectors.list_history(player=player))
        body = {
            "player": {"id": player.pk, "name": player.public_name},
            "rating": (
                representations.ranking_row(rating, selectors.position_of(rating))
                if rating
                else None
            ),
            "placings": [
                representations.placing_row(placing)
                for placing in selectors.list_placings(player=player)
            ],
            "count": self.paginator.page.paginator.count,
            "next": self.paginator.get_next_link(),
            "previous": self.paginator.get_previous_link(),
            "results": [representations.history_step(change) for change in page],
        }
        return Response(PlayerHistoryOutput(body).data, headers={"ETag": etag})

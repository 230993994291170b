"""HTTP endpoints of tournaments (thin: check permissions, parse, call, render).

What it does: the club-scoped list and creation of tournaments, and for one tournament its
settings, entrants, rounds (and drawing the next one), matches, bracket, standings, settlement
and closing. Writes call ``tournaments.services``; reads call ``tournaments.selectors``, the
stored standings (``tournaments.snapshots``) and ``tournaments.running_balances``. Creating POSTs
honour ``Idempotency-Key``; the tournament carries an ``ETag`` (``If-Match`` on PATCH, 412 when
stale); the standings and the settlement carry an ``ETag`` and answer ``If-None-Match`` with 304.

What it does not do: business rules or query shape.

Terms: a *tournament-scoped view* serves ``/api/tournaments/{id}/…``; its ``get_tournament()``
fetches the tournament once per request and ``TournamentPermission`` decides on it.
"""

from __future__ import annotations

from types import SimpleNamespace

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.permissions import ClubManagePermission, can_manage
from config.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from config.pagination import Pagination
from config.preconditions import read_if_match
from tournaments import running_balances, selectors, services, snapshots, standings
from tournaments.api.permissions import TournamentMemberReadPermission, TournamentPermission
from tournaments.api.serializers import (
    BracketOutput,
    EntrantOutput,
    EntrantsInput,
    EntrantUpdateInput,
    MatchOutput,
    RoundOutput,
    SettlementOutput,
    StandingsOutput,
    TournamentInput,
    TournamentOutput,
    TournamentUpdateInput,
)
from tournaments.models import Entrant, Match, Round, Tournament

IF_MATCH_PARAMETER = OpenApiParameter(
    name="If-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The tournament's ETag; a stale one is refused with 412.",
)
IF_NONE_MATCH_PARAMETER = OpenApiParameter(
    name="If-None-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The standings' ETag from an earlier response; unchanged standings give 304.",
)
SETTLEMENT_IF_NONE_MATCH_PARAMETER = OpenApiParameter(
    name="If-None-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The settlement's ETag from an earlier response; an unchanged settlement gives "
    "304.",
)


def _valid(serializer_class, request, *, partial: bool = False, context=None) -> dict:
    serializer = serializer_class(data=request.data, partial=partial, context=context or {})
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _detail_path(tournament: Tournament) -> str:
    return reverse("tournaments:tournament-detail", kwargs={"tournament_id": tournament.pk})


def _not_modified(request, etag: str) -> bool:
    """``If-None-Match`` names ``etag`` (in a list of tags) or is ``*``."""
    if_none_match = request.headers.get("If-None-Match", "")
    candidates = [candidate.strip() for candidate in if_none_match.split(",")]
    return etag in candidates or if_none_match.strip() == "*"


def _tagged(request, result: dict, output_class) -> Response:
    """``result`` (computed with its ``etag``) rendered by ``output_class``, or 304 when the
    client's ``If-None-Match`` names that tag."""
    etag = result.pop("etag")
    if _not_modified(request, etag):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
    return Response(output_class(result).data, headers={"ETag": etag})


def _with_etag(data, tournament: Tournament, *, status_code: int = 200, location=None):
    headers = {"ETag": services.etag_of(tournament)}
    if location:
        headers["Location"] = location
    return Response(data, status=status_code, headers=headers)


class FormatIsAFilter(DefaultContentNegotiation):
    """Content negotiation that leaves ``?format=`` alone: here it filters tournaments by format.

    DRF otherwise reads ``?format=swiss`` as a request for a renderer named "swiss" and answers
    404. Clients choose JSON with the ``Accept`` header as everywhere else.
    """

    settings = SimpleNamespace(URL_FORMAT_OVERRIDE=None)


class ClubTournamentListView(GenericAPIView):
    queryset = Tournament.objects.none()
    permission_classes = [ClubManagePermission]
    content_negotiation_class = FormatIsAFilter
    pagination_class = Pagination
    filterset_fields = ["status", "format", "game", "is_public"]
    ordering_fields = ["created_at", "name"]

    def get_club(self):
        if getattr(self, "_club", None) is None:
            self._club = club_selectors.get_club(slug=self.kwargs["slug"], user=self.request.user)
        return self._club

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Tournament.objects.none()
        return selectors.list_tournaments(club=self.get_club(), user=self.request.user)

    @extend_schema(
        operation_id="clubs_tournaments_list",
        summary="The club's tournaments (members: all; others: the public ones)",
        tags=["tournaments"],
        responses=TournamentOutput(many=True),
    )
    def get(self, request, slug):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(TournamentOutput(page, many=True).data)

    @extend_schema(
        operation_id="clubs_tournaments_create",
        summary="Create a tournament, optionally with its entrants (organisers)",
        tags=["tournaments"],
        request=TournamentInput,
        responses={201: TournamentOutput},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, slug):
        club = self.get_club()
        values = _valid(TournamentInput, request, context={"club": club})
        entrants = [dict(item) for item in values.pop("entrants", [])]
        tournament = services.create_tournament(
            club=club, user=request.user, values=values, entrants=entrants
        )
        tournament = selectors.get_tournament(tournament_id=tournament.pk)
        return _with_etag(
            TournamentOutput(tournament).data,
            tournament,
            status_code=status.HTTP_201_CREATED,
            location=_detail_path(tournament),
        )


class TournamentScopedView(GenericAPIView):
    permission_classes = [TournamentPermission]

    def get_tournament(self) -> Tournament:
        if getattr(self, "_tournament", None) is None:
            self._tournament = selectors.get_tournament(tournament_id=self.kwargs["tournament_id"])
        return self._tournament


class TournamentDetailView(TournamentScopedView):
    queryset = Tournament.objects.none()

    @extend_schema(operation_id="tournaments_retrieve", responses=TournamentOutput)
    def get(self, request, tournament_id):
        tournament = self.get_tournament()
        return _with_etag(TournamentOutput(tournament).data, tournament)

    @extend_schema(
        operation_id="tournaments_partial_update",
        summary="Change settings (organisers; play settings only before round 1: 409)",
        request=TournamentUpdateInput(partial=True),
        responses=TournamentOutput,
        parameters=[IF_MATCH_PARAMETER],
    )
    def patch(self, request, tournament_id):
        tournament = self.get_tournament()
        changes = _valid(
            TournamentUpdateInput, request, partial=True, context={"club": tournament.club}
        )
        services.update_tournament(
            tournament_id=tournament.pk,
            user=request.user,
            changes=changes,
            if_match=read_if_match(request, required=False, what=gettext("the tournament's ETag")),
        )
        tournament = selectors.get_tournament(tournament_id=tournament.pk)
        return _with_etag(TournamentOutput(tournament).data, tournament)


class EntrantListView(TournamentScopedView):
    queryset = Entrant.objects.none()
    pagination_class = None  # a tournament's entrants: a bare list, never paged
    filter_backends: list = []

    @extend_schema(operation_id="tournaments_entrants_list", responses=EntrantOutput(many=True))
    def get(self, request, tournament_id):
        entrants = selectors.list_entrants(tournament=self.get_tournament())
        return Response(EntrantOutput(entrants, many=True).data)

    @extend_schema(
        operation_id="tournaments_entrants_create",
        summary="Register entrants, with optional seeds (organisers, before round 1)",
        request=EntrantsInput,
        responses={201: EntrantOutput(many=True)},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, tournament_id):
        items = [dict(item) for item in _valid(EntrantsInput, request)["entrants"]]
        created = services.register_entrants(
            tournament_id=self.get_tournament().pk, user=request.user, entrants=items
        )
        entrants = selectors.list_entrants(tournament=self.get_tournament()).filter(
            pk__in=[entrant.pk for entrant in created]
        )
        return Response(EntrantOutput(entrants, many=True).data, status=status.HTTP_201_CREATED)


class EntrantDetailView(TournamentScopedView):
    queryset = Entrant.objects.none()

    @extend_schema(
        operation_id="tournaments_entrants_partial_update",
        summary="Change an entrant's seed (organisers, before round 1)",
        request=EntrantUpdateInput,
        responses=EntrantOutput,
    )
    def patch(self, request, tournament_id, entrant_id):
        seed = _valid(EntrantUpdateInput, request)["seed"]
        services.update_entrant(
            tournament_id=self.get_tournament().pk,
            entrant_id=entrant_id,
            user=request.user,
            seed=seed,
        )
        entrant = selectors.list_entrants(tournament=self.get_tournament()).get(pk=entrant_id)
        return Response(EntrantOutput(entrant).data)

    @extend_schema(
        operation_id="tournaments_entrants_destroy",
        summary="Withdraw an entrant (organisers, before round 1)",
        responses={204: None},
    )
    def delete(self, request, tournament_id, entrant_id):
        services.remove_entrant(
            tournament_id=self.get_tournament().pk, entrant_id=entrant_id, user=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


def _named_rounds(tournament: Tournament, rounds) -> list[Round]:
    total = selectors.knockout_round_total(tournament)
    rounds = list(rounds)
    for round_ in rounds:
        round_.name = selectors.round_name(tournament, round_.number, total)
    return rounds


class RoundListView(TournamentScopedView):
    queryset = Round.objects.none()
    pagination_class = None  # the rounds drawn so far: a bare list, never paged
    filter_backends: list = []

    @extend_schema(
        operation_id="tournaments_rounds_list",
        summary="The rounds drawn so far, each with its matches",
        responses=RoundOutput(many=True),
    )
    def get(self, request, tournament_id):
        tournament = self.get_tournament()
        rounds = _named_rounds(
            tournament,
            selectors.list_rounds(
                tournament=tournament, with_unreleased=can_manage(request.user, tournament.club)
            ),
        )
        return Response(RoundOutput(rounds, many=True).data)

    @extend_schema(
        operation_id="tournaments_rounds_create",
        summary="Draw the next round and start its matches (organisers)",
        description="A knockout draws its first round here; its later rounds fill by themselves "
        "as matches are decided. Refused with 409 `round_incomplete` while the last round has "
        "an undecided match, 409 `tournament_complete` after the last round, 400 "
        "`too_few_entrants` / `invalid_entrant_count` / `invalid_table_size` when the entrants "
        "cannot fill the tables.",
        request=None,
        responses={201: RoundOutput},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, tournament_id):
        tournament = self.get_tournament()
        drawn = services.draw_next_round(tournament_id=tournament.pk, user=request.user)
        tournament.refresh_from_db()
        round_ = selectors.list_rounds(tournament=tournament, with_unreleased=True).get(pk=drawn.pk)
        (round_,) = _named_rounds(tournament, [round_])
        return Response(RoundOutput(round_).data, status=status.HTTP_201_CREATED)


class MatchListView(TournamentScopedView):
    queryset = Match.objects.none()
    pagination_class = Pagination
    filterset_fields = ["status", "round__number"]
    ordering_fields = ["id", "round__number", "table", "decided_at"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Match.objects.none()
        tournament = self.get_tournament()
        return selectors.list_matches(
            tournament=tournament,
            with_unreleased=can_manage(self.request.user, tournament.club),
        )

    @extend_schema(
        operation_id="tournaments_matches_list",
        summary="The matches, round by round, with entrants in seat order, games and results",
        responses=MatchOutput(many=True),
    )
    def get(self, request, tournament_id):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(MatchOutput(page, many=True).data)


class MatchDetailView(TournamentScopedView):
    """``/api/matches/{id}/``: one match, readable by the readers of its tournament."""

    queryset = Match.objects.none()

    def get_match(self) -> Match:
        if getattr(self, "_match", None) is None:
            self._match = selectors.get_match(match_id=self.kwargs["match_id"])
        return self._match

    def get_tournament(self) -> Tournament:
        if getattr(self, "_tournament", None) is None:
            self._tournament = selectors.get_tournament(
                tournament_id=self.get_match().tournament_id
            )
        return self._tournament

    @extend_schema(
        operation_id="matches_retrieve",
        summary="One match: entrants in seat order, its games (the one in progress to score), "
        "result",
        responses=MatchOutput,
    )
    def get(self, request, match_id):
        tournament = self.get_tournament()
        match = self.get_match()
        if match.round.released_at is None and not can_manage(request.user, tournament.club):
            raise Http404("No match with this id.")  # a private draw stays private
        return Response(MatchOutput(match).data)


class BracketView(TournamentScopedView):
    queryset = Tournament.objects.none()

    @extend_schema(
        operation_id="tournaments_bracket",
        summary="Everything a bracket page needs: rounds, tables, entrants and winners",
        responses=BracketOutput,
    )
    def get(self, request, tournament_id):
        tournament = self.get_tournament()
        bracket = selectors.bracket_of(
            tournament, with_unreleased=can_manage(request.user, tournament.club)
        )
        data = {
            "tournament": tournament,
            "entrants": list(selectors.list_entrants(tournament=tournament)),
            "rounds": bracket["rounds"],
            "winners": standings.winners_of(tournament, bracket["champion"]),
        }
        return Response(BracketOutput(data).data)


class StandingsView(TournamentScopedView):
    """The stored standings (``tournaments.snapshots``): one query for the tournament, its club,
    the reader's role and the snapshot together, whether the answer is 200 or 304."""

    queryset = Tournament.objects.none()

    def get_tournament(self) -> Tournament:
        if getattr(self, "_tournament", None) is None:
            self._tournament = selectors.get_tournament_with_standings(
                tournament_id=self.kwargs["tournament_id"], user=self.request.user
            )
        return self._tournament

    @extend_schema(
        operation_id="tournaments_standings",
        summary="The standings, ranked by the tournament's tie-break chain (stored snapshot)",
        description="Read from the snapshot a job stores after every change: `version` is the "
        "`ETag`, `stale` is true while a newer recomputation is pending (the data moved since "
        "`computed_at`).",
        responses={200: StandingsOutput, 304: OpenApiResponse(description="Not modified.")},
        parameters=[IF_NONE_MATCH_PARAMETER],
    )
    def get(self, request, tournament_id):
        tournament = self.get_tournament()
        snapshot = getattr(tournament, "standings_snapshot", None)
        if snapshot is None:
            return _tagged(request, snapshots.read_standings(tournament), StandingsOutput)
        etag = snapshots.etag_of_snapshot(snapshot)
        if _not_modified(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return _tagged(request, snapshots.snapshot_json(snapshot, tournament), StandingsOutput)


class SettlementView(TournamentScopedView):
    """Who pays whom: the stakes of the tournament's games per player, settled in the fewest
    transfers, and the entry fees owed to the club (members of the club only)."""

    queryset = Tournament.objects.none()
    permission_classes = [TournamentMemberReadPermission]
    # Who owes whom is not for a shared cache or a browser's disk, despite the ETag.
    cache_control = "private, no-store"

    @extend_schema(
        operation_id="tournaments_settlement",
        summary="Who pays whom, in the fewest transfers (members of the club only)",
        description="Each player's net of the stakes booked for the tournament's games, the "
        "fewest player-to-player transfers that clear them, and apart from them the entry fees "
        "each entered player owes the club (the pot). Money as decimal strings in the club's "
        "currency. Readers of the tournament who are not members of its club get 401 "
        "(anonymous) or 403; others 404.",
        responses={200: SettlementOutput, 304: OpenApiResponse(description="Not modified.")},
        parameters=[SETTLEMENT_IF_NONE_MATCH_PARAMETER],
    )
    def get(self, request, tournament_id):
        return _tagged(
            request, running_balances.running_balances_for(self.get_tournament()), SettlementOutput
        )


class CloseView(TournamentScopedView):
    queryset = Tournament.objects.none()

    @extend_schema(
        operation_id="tournaments_close",
        summary="Close the tournament: its results become final (organisers)",
        request=None,
        responses=TournamentOutput,
    )
    def post(self, request, tournament_id):
        services.close_tournament(tournament_id=self.get_tournament().pk, user=request.user)
        tournament = selectors.get_tournament(tournament_id=self.get_tournament().pk)
        return _with_etag(TournamentOutput(tournament).data, tournament)

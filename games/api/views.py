"""HTTP endpoints of games, legal plays, history, ledger and balances (thin views); a game's hands
are ``games.api.hand_views``.

What it does: each view checks permissions through ``clubs.permissions`` (scorekeepers and
organisers write, readers read, a club the user may not read is a 404) and
``games.api.permissions``, validates the body, calls one service or selector and renders the
output serializers (a game: ``games.representations``, the rest: ``games.api.outputs``). Creating
a game honours ``Idempotency-Key`` (``config.idempotency``); a game carries its ``ETag`` and
answers ``If-None-Match`` with 304. ``GameScopedView`` is the base of every game-scoped view,
the hand views' included: it fetches the game once (a game of a private draw is a 404 but to the
club's organisers and to a table granted that game), reads ``If-Match``
(``config.preconditions``) and ``?reset_dependents=``; ``ProblemExtrasMixin`` adds the stored
hand to a ``hand_conflict`` problem, and ``problem_response`` documents a problem for the schema.

What it does not do: rules (engine), workflows (``games.services``) or query shape (selectors).

Terms: a *game-scoped view* serves ``/api/games/{game_id}/…``; its ``get_club()`` is the game's
club, so the same permission classes as the club-scoped views apply.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response

from clubs.api.views import ClubScopedView
from clubs.models import Club
from clubs.permissions import ClubScorePermission, grant_of
from config.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from config.pagination import Pagination
from config.preconditions import etag_matches, read_if_match
from config.problems import PROBLEM_CONTENT_TYPE
from config.serializers import ProblemSerializer
from games import plans, representations, selectors, services
from games.api import inputs, outputs
from games.api.filters import GameFilter
from games.api.permissions import ClubMemberReadPermission, ClubQuestionPermission
from games.history import game_history
from games.ledger import fewest_transfers
from games.legal_plays import legal_plays_for
from games.models import Game

OPTIONAL_IF_MATCH_PARAMETER = OpenApiParameter(
    name="If-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="Optional: the game's ETag the client last saw; a stale one is 412, an empty "
    "one 428.",
)
IF_NONE_MATCH_PARAMETER = OpenApiParameter(
    name="If-None-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The game's ETag from an earlier response; an unchanged game gives 304.",
)
IF_MATCH_PARAMETER = OpenApiParameter(
    name="If-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=True,
    description="The game's current ETag (from GET /api/games/{id}/ or any hand response).",
)
RESET_DEPENDENTS_PARAMETER = OpenApiParameter(
    name="reset_dependents",
    type=OpenApiTypes.BOOL,
    location=OpenApiParameter.QUERY,
    required=False,
    description="Tournament games: allow a change of a decided match's winner even when a later "
    "match depending on it has begun (organisers; the later matches are reset).",
)


def problem_response(status_code: int, description: str) -> dict:
    """A documented problem response of one status (for ``extend_schema(responses=...)``)."""
    return {
        (status_code, PROBLEM_CONTENT_TYPE): OpenApiResponse(
            response=ProblemSerializer, description=description
        )
    }


class ProblemExtrasMixin:
    """Adds the stored hand to a ``hand_conflict`` problem (services raise ``HandConflict``)."""

    def handle_exception(self, exc):
        response = super().handle_exception(exc)
        if isinstance(exc, plans.HandConflict) and isinstance(response.data, dict):
            response.data["hand"] = representations.HandOutput(exc.hand).data
        return response


class ClubGamesView(ProblemExtrasMixin, ClubScopedView):
    """A club's games. Filters: `status`, `game`, `player` (id), `tournament_match`, `date`,
    `date_from`, `date_to` (days in the club's time zone); `ordering` by `created_at` or `id`."""

    queryset = Game.objects.none()
    permission_classes = [ClubScorePermission]
    filterset_class = GameFilter
    ordering_fields = ["created_at", "id"]

    def get_queryset(self):
        if self.is_schema_generation():
            return Game.objects.none()
        club = self.get_club()
        # A private draw stays private: games of rounds not yet released, organisers only.
        return selectors.without_private_draws(
            selectors.list_games(club=club), user=self.request.user, club=club
        )

    @extend_schema(
        operation_id="games_list",
        summary="A club's games, newest first",
        responses=representations.GameOutput(many=True),
    )
    def get(self, request, slug):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(
            representations.GameOutput(page, many=True, context={"club": self.get_club()}).data
        )

    @extend_schema(
        operation_id="games_create",
        summary="Start a game (scorekeepers and organisers)",
        request=inputs.GameInput,
        responses={201: representations.GameOutput},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, slug):
        club = self.get_club()
        serializer = inputs.GameInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        game = services.create_game(
            club=club,
            user=request.user,
            tournament_match=data.get("tournament_match"),
            **inputs.create_game_arguments(data, club),
        )
        game = selectors.get_game(game_id=game.pk)
        return Response(
            representations.GameOutput(game, context={"club": club}).data,
            status=status.HTTP_201_CREATED,
            headers={
                "Location": reverse("games:game-detail", kwargs={"game_id": game.pk}),
                "ETag": game.etag,
            },
        )


class GameScopedView(ProblemExtrasMixin, GenericAPIView):
    """Base of ``/api/games/{game_id}/…``: the game (with its club) is fetched once."""

    queryset = Game.objects.none()
    permission_classes = [ClubScorePermission]
    filter_backends: list = []

    @cached_property
    def game(self) -> Game:
        if self.request.method in SAFE_METHODS:
            game = selectors.get_game(game_id=self.kwargs["game_id"])
        else:
            game = selectors.get_game_for_check(game_id=self.kwargs["game_id"])
        # A game of a round not yet released (a private draw) does not exist for anyone but the
        # club's organisers, or a table holding a grant for this very game.
        if selectors.is_hidden_from(game, self.request.user) and not self._holds_table_grant():
            raise Http404("No game with this id.")
        return game

    def get_club(self) -> Club:
        return self.game.club

    def _holds_table_grant(self) -> bool:
        # A table's grant (``request.auth.allows_game``) is checked by the permission classes.
        return getattr(grant_of(self.request), "allows_game", None) is not None

    def if_match(self, required: bool) -> str | None:
        return read_if_match(
            self.request,
            required=required,
            what=gettext("the game's current ETag (GET /api/games/{id}/)"),
        )

    def not_modified(self, etag: str) -> bool:
        if_none_match = self.request.headers.get("If-None-Match")
        return if_none_match is not None and etag_matches(if_none_match, etag)

    def reset_dependents(self) -> bool:
        return self.request.query_params.get("reset_dependents", "").lower() in ("1", "true")


class GameDetailView(GameScopedView):
    """A game with its seats, sides, frozen house rules and totals. The `ETag` header is the
    game's version; `If-None-Match` with it gives 304."""

    @extend_schema(
        operation_id="games_retrieve",
        summary="One game, with its ETag",
        responses={
            200: representations.GameOutput,
            304: OpenApiResponse(description="Not modified."),
        },
        parameters=[IF_NONE_MATCH_PARAMETER],
    )
    def get(self, request, game_id):
        game = self.game
        if self.not_modified(game.etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": game.etag})
        return Response(
            representations.GameOutput(game, context={"club": game.club}).data,
            headers={"ETag": game.etag},
        )


class LegalPlaysView(GameScopedView):
    """Which cards of `hand` may be played to `trick` under this game's rules; nothing is
    stored. Give `trump`, or `turn_up` in 25 and 45."""

    # A pure question about the game's rules: anyone who may read the game may ask it.
    permission_classes = [ClubQuestionPermission]
    may_conflict = False

    @extend_schema(
        operation_id="games_legal_plays",
        summary="Which cards the next seat may play (for a tablet's card picker)",
        request=inputs.LegalPlaysInput,
        responses=outputs.LegalPlaysOutput,
    )
    def post(self, request, game_id):
        serializer = inputs.LegalPlaysInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(
            outputs.LegalPlaysOutput(legal_plays_for(self.game, **serializer.validated_data)).data
        )


class GameHistoryView(GameScopedView):
    """The audit trail of a game and its hands, oldest first."""

    pagination_class = Pagination

    @extend_schema(
        operation_id="games_history",
        summary="Every change to the game and its hands: who, when, before and after",
        responses=outputs.HistoryEntryOutput(many=True),
    )
    def get(self, request, game_id):
        page = self.paginate_queryset(game_history(game=self.game))
        return self.get_paginated_response(outputs.HistoryEntryOutput(page, many=True).data)


class GameLedgerView(GameScopedView):
    """A game's stake bookings (members of the club only); they always sum to zero."""

    permission_classes = [ClubMemberReadPermission]

    @extend_schema(
        operation_id="games_ledger",
        summary="The stake bookings of a game (they sum to zero)",
        responses=outputs.LedgerOutput,
    )
    def get(self, request, game_id):
        game = self.game
        entries = list(selectors.list_ledger_entries(game=game))
        net: dict[str, int] = {}
        for entry in entries:
            net[str(entry.player_id)] = net.get(str(entry.player_id), 0) + entry.amount_minor
        ledger = {
            "game": game.pk,
            "currency": game.club.currency,
            "stake": game.stake_minor,
            "net": net,
            "entries": entries,
        }
        return Response(outputs.LedgerOutput(ledger, context={"club": game.club}).data)


class ClubBalancesView(ClubScopedView):
    """Each player's net over the club's game stakes (members only), and the transfers that
    settle them."""

    queryset = Game.objects.none()
    permission_classes = [ClubMemberReadPermission]
    filter_backends: list = []

    @extend_schema(
        operation_id="clubs_balances",
        summary="Each player's net from game stakes, and who pays whom to settle",
        responses=outputs.BalancesOutput,
    )
    def get(self, request, slug):
        club = self.get_club()
        balances = selectors.club_balances(club=club)
        players = {player.pk: player for player, _ in balances}
        transfers = fewest_transfers({player.pk: net for player, net in balances})
        sheet = {
            "currency": club.currency,
            "balances": [{"player": player, "net": net} for player, net in balances],
            "transfers": [
                {"payer": players[payer], "payee": players[payee], "amount": amount}
                for payer, payee, amount in transfers
            ],
        }
        return Response(outputs.BalancesOutput(sheet, context={"club": club}).data)

"""HTTP endpoints of settlements: nights, prize splits, settle-up versions, marking paid.

What it does (all members-only, as all money: an unreadable club is a 404, a reader who is not a
member gets 401/403):
- ``GET/POST /api/clubs/{slug}/nights/``: the club's nights; open one (organisers).
- ``GET /api/nights/{id}/``: one night with its games (and its tables' games);
  ``POST /api/nights/{id}/close/``
  (organisers): close it, which queues its settle-up.
- ``POST /api/nights/{id}/games/`` (organisers and scorekeepers, as ``POST
  /api/clubs/{slug}/games/``; ``Idempotency-Key`` honoured): start a game at table *N* of the
  open night (``settlements.night_tables.start_night_game``: 409 ``night_closed``, 409
  ``table_busy``, 400 ``invalid_table``, then the games API's own refusals); the answer is the
  game, as the games API gives it.
- ``PUT /api/nights/{id}/prize-split/``, ``PUT /api/tournaments/{id}/prize-split/``
  (organisers): the percentages per place.
- ``GET /api/nights/{id}/settlements/``, ``GET /api/tournaments/{id}/settlements/``: every
  stored version of the settle-up, oldest first, with its transfers.
- ``POST /api/transfers/{id}/paid/``: mark a transfer paid (its payer, its payee or an organiser;
  the service decides); a transfer a later version replaced is a 409 ``transfer_superseded``.
- ``GET/POST /api/tournaments/{id}/fees/``, ``GET/POST /api/nights/{id}/fees/``: how each
  player's entry fee was taken (cash, card or owed); marking one (organisers and scorekeepers:
  the door is theirs).
- ``GET/PUT /api/clubs/{slug}/settle-up-rule/``: the pot at the door, or everything between
  players (organisers write).

What it does not do: business rules (``settlements.services``, ``settlements.settle_up``,
``settlements.night_tables``) or query shape (selectors).
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.models import Role
from clubs.permissions import (
    ClubScorePermission,
    can_manage,
    can_read_club,
    require_second_factor,
    role_in,
)
from config.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from games import selectors as game_selectors
from games.api.inputs import create_game_arguments
from games.representations import GameOutput
from settlements import night_tables, selectors, services, settle_up
from settlements.api.serializers import (
    FeeInput,
    NightDetailOutput,
    NightGameInput,
    NightInput,
    NightOutput,
    PrizeSplitInput,
    PrizeSplitOutput,
    SettleUpRuleInput,
    SettleUpRuleOutput,
)
from settlements.models import Night
from settlements.representations import (
    FeeOutput,
    SettlementTransferOutput,
    SettlementVersionOutput,
)
from tournaments.models import Tournament


class MoneyPermission(BasePermission):
    """Members read; organisers write unless the view says ``members_write``."""

    def has_permission(self, request, view) -> bool:
        user = request.user
        if request.method not in SAFE_METHODS and not user.is_authenticated:
            return False  # 401, as every anonymous write
        club = view.get_club()
        if not can_read_club(user, club):
            raise NotFound()
        if role_in(user, club) is None:
            return False
        if request.method in SAFE_METHODS or getattr(view, "members_write", False):
            return True
        if getattr(view, "door_write", False):
            return role_in(user, club) in (Role.ORGANISER, Role.SCOREKEEPER)
        if not can_manage(user, club):
            return False
        require_second_factor(user, club)
        return True


class _MoneyView(GenericAPIView):
    permission_classes = [MoneyPermission]
    queryset = Night.objects.none()
    pagination_class = None  # nights, settle-up versions: bare lists, never paged


class ClubNightListView(_MoneyView):
    def get_club(self):
        if getattr(self, "_club", None) is None:
            self._club = club_selectors.get_club(slug=self.kwargs["slug"], user=self.request.user)
        return self._club

    @extend_schema(
        operation_id="clubs_nights_list",
        responses=NightOutput(many=True),
        summary="The club's nights, newest first (members)",
    )
    def get(self, request, slug):
        nights = list(selectors.list_nights(club=self.get_club()))
        for night in nights:
            if night.status == "open":  # at most one: its games are not linked until it closes
                night.game_count = len(selectors.list_night_game_ids(night=night))
        return Response(NightOutput(nights, many=True).data)

    @extend_schema(
        operation_id="clubs_nights_create",
        request=NightInput,
        responses={201: NightOutput},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        summary="Open a night (organisers; 409 night_open while one is open)",
    )
    @idempotent
    def post(self, request, slug):
        club = self.get_club()
        serializer = NightInput(data=request.data, context={"club": club})
        serializer.is_valid(raise_exception=True)
        values = serializer.validated_data
        night = services.open_night(
            club=club,
            user=request.user,
            name=values.get("name", ""),
            entry_fee_minor=values.get("entry_fee"),
            prize_split=values.get("prize_split"),
        )
        night = selectors.get_night(night_id=night.pk)
        return Response(NightOutput(night).data, status=status.HTTP_201_CREATED)


class _NightView(_MoneyView):
    def get_night(self) -> Night:
        if getattr(self, "_night", None) is None:
            self._night = selectors.get_night(night_id=self.kwargs["night_id"])
        return self._night

    def get_club(self):
        return self.get_night().club


class NightDetailView(_NightView):
    @extend_schema(
        operation_id="nights_retrieve",
        responses=NightDetailOutput,
        summary="One night with its games (members)",
    )
    def get(self, request, night_id):
        night = self.get_night()
        night.game_ids = selectors.list_night_game_ids(night=night)
        night.game_count = len(night.game_ids)
        night.tables = night_tables.list_night_table_game_ids(night)
        return Response(NightDetailOutput(night).data)


class NightCloseView(_NightView):
    @extend_schema(
        operation_id="nights_close",
        request=None,
        responses=NightOutput,
        summary="Close the night and queue its settle-up (organisers)",
    )
    def post(self, request, night_id):
        services.close_night(night_id=self.get_night().pk, user=request.user)
        return Response(NightOutput(selectors.get_night(night_id=night_id)).data)


class NightGamesView(_NightView):
    permission_classes = [ClubScorePermission]  # as the games API: scorekeepers start games

    @extend_schema(
        operation_id="nights_games_start",
        request=NightGameInput,
        responses={201: GameOutput},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        summary="Start a game at table N of the open night (organisers and "
        "scorekeepers; 409 night_closed, 409 table_busy)",
    )
    @idempotent
    def post(self, request, night_id):
        night = self.get_night()
        serializer = NightGameInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        game = night_tables.start_night_game(
            night_id=night.pk,
            table_number=data["table"],
            user=request.user,
            **create_game_arguments(data, night.club),
        )
        game = game_selectors.get_game(game_id=game.pk)
        return Response(
            GameOutput(game, context={"club": night.club}).data,
            status=status.HTTP_201_CREATED,
            headers={
                "Location": reverse("games:game-detail", kwargs={"game_id": game.pk}),
                "ETag": game.etag,
            },
        )


class NightPrizeSplitView(_NightView):
    @extend_schema(
        operation_id="nights_prize_split",
        request=PrizeSplitInput,
        responses=PrizeSplitOutput,
        summary="Set the night's prize split (organisers)",
    )
    def put(self, request, night_id):
        serializer = PrizeSplitInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.set_prize_split(
            night_id=self.get_night().pk,
            user=request.user,
            percentages=serializer.validated_data["percentages"],
            pointer="/percentages",
        )
        return Response({"percentages": selectors.get_prize_split(night_id=night_id)})


class NightSettlementListView(_NightView):
    @extend_schema(
        operation_id="nights_settlements",
        responses=SettlementVersionOutput(many=True),
        summary="Every stored version of the night's settle-up (members)",
    )
    def get(self, request, night_id):
        versions = list(selectors.list_settlements(night_id=self.get_night().pk))
        return Response(
            SettlementVersionOutput(
                versions, many=True, context={"names": selectors.party_names(versions)}
            ).data
        )


class _TournamentMoneyView(_MoneyView):
    queryset = Tournament.objects.none()

    def get_tournament(self) -> Tournament:
        if getattr(self, "_tournament", None) is None:
            self._tournament = (
                Tournament.objects.select_related("club")
                .filter(pk=self.kwargs["tournament_id"])
                .first()
            )
            if self._tournament is None:
                raise NotFound()
        return self._tournament

    def get_club(self):
        return self.get_tournament().club


class TournamentPrizeSplitView(_TournamentMoneyView):
    @extend_schema(
        operation_id="tournaments_prize_split",
        request=PrizeSplitInput,
        responses=PrizeSplitOutput,
        summary="Set the tournament's prize split (organisers)",
    )
    def put(self, request, tournament_id):
        serializer = PrizeSplitInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.set_prize_split(
            tournament_id=self.get_tournament().pk,
            user=request.user,
            percentages=serializer.validated_data["percentages"],
            pointer="/percentages",
        )
        return Response({"percentages": selectors.get_prize_split(tournament_id=tournament_id)})


class TournamentSettlementListView(_TournamentMoneyView):
    @extend_schema(
        operation_id="tournaments_settlements",
        responses=SettlementVersionOutput(many=True),
        summary="Every stored version of the tournament's settle-up (members)",
    )
    def get(self, request, tournament_id):
        versions = list(selectors.list_settlements(tournament_id=self.get_tournament().pk))
        return Response(
            SettlementVersionOutput(
                versions, many=True, context={"names": selectors.party_names(versions)}
            ).data
        )


class TransferPaidView(_MoneyView):
    members_write = True  # the service lets the payer, the payee or an organiser mark it

    def get_transfer(self):
        if getattr(self, "_transfer", None) is None:
            self._transfer = selectors.get_transfer(transfer_id=self.kwargs["transfer_id"])
        return self._transfer

    def get_club(self):
        return self.get_transfer().settlement.club

    @extend_schema(
        operation_id="transfers_paid",
        request=None,
        responses=SettlementTransferOutput,
        summary="Mark a transfer paid (its payer, its payee or an organiser)",
    )
    def post(self, request, transfer_id):
        settle_up.mark_transfer_paid(transfer_id=self.get_transfer().pk, user=request.user)
        transfer = selectors.get_transfer(transfer_id=transfer_id)
        return Response(SettlementTransferOutput(transfer).data)


class _FeesMixin:
    door_write = True  # organisers and scorekeepers take the fees at the door

    def _event_key(self) -> dict:
        raise NotImplementedError

    def _list(self):
        return Response(FeeOutput(selectors.list_fees(**self._event_key()), many=True).data)

    def _mark(self, request):
        serializer = FeeInput(data=request.data, context={"club": self.get_club()})
        serializer.is_valid(raise_exception=True)
        values = serializer.validated_data
        mark = services.mark_entry_fee(
            user=request.user,
            player_id=values["player"],
            status=values["status"],
            amount_minor=values.get("amount"),
            **self._event_key(),
        )
        fee = selectors.list_fees(**self._event_key()).get(pk=mark.pk)
        return Response(FeeOutput(fee).data, status=status.HTTP_201_CREATED)


class TournamentFeeView(_FeesMixin, _TournamentMoneyView):
    def _event_key(self) -> dict:
        return {"tournament_id": self.get_tournament().pk}

    @extend_schema(
        operation_id="tournaments_fees_list",
        responses=FeeOutput(many=True),
        summary="How each entry fee was taken (members)",
    )
    def get(self, request, tournament_id):
        return self._list()

    @extend_schema(
        operation_id="tournaments_fees_mark",
        request=FeeInput,
        responses={201: FeeOutput},
        summary="Mark an entry fee paid in cash, by card, or owed (organisers, "
        "scorekeepers; 409 fee_already_marked)",
    )
    def post(self, request, tournament_id):
        return self._mark(request)


class NightFeeView(_FeesMixin, _NightView):
    def _event_key(self) -> dict:
        return {"night_id": self.get_night().pk}

    @extend_schema(
        operation_id="nights_fees_list",
        responses=FeeOutput(many=True),
        summary="How each entry fee was taken (members)",
    )
    def get(self, request, night_id):
        return self._list()

    @extend_schema(
        operation_id="nights_fees_mark",
        request=FeeInput,
        responses={201: FeeOutput},
        summary="Mark an entry fee paid in cash, by card, or owed (organisers, "
        "scorekeepers; 409 fee_already_marked)",
    )
    def post(self, request, night_id):
        return self._mark(request)


class ClubSettleUpRuleView(_MoneyView):
    def get_club(self):
        if getattr(self, "_club", None) is None:
            self._club = club_selectors.get_club(slug=self.kwargs["slug"], user=self.request.user)
        return self._club

    @extend_schema(
        operation_id="clubs_settle_up_rule",
        responses=SettleUpRuleOutput,
        summary="The club's settle-up rule (members)",
    )
    def get(self, request, slug):
        return Response({"between_players": settle_up.between_players(self.get_club().pk)})

    @extend_schema(
        operation_id="clubs_settle_up_rule_set",
        request=SettleUpRuleInput,
        responses=SettleUpRuleOutput,
        summary="Settle everything between players, or keep the pot at the door (organisers)",
    )
    def put(self, request, slug):
        serializer = SettleUpRuleInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        rule = settle_up.set_settle_up_rule(
            club=self.get_club(), between_players=serializer.validated_data["between_players"]
        )
        return Response({"between_players": rule.between_players})

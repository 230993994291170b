"""HTTP endpoints of the evening's running of a tournament: check-in, swapping two entrants
between tables of a private round, and releasing it.

What it does: ``POST .../check-in/`` marks who is here (the next draw uses only them);
``POST .../rounds/{n}/swap/`` trades two entrants' tables before the round is released;
``POST .../rounds/{n}/release/`` shows a privately drawn round to the players. Each calls
``tournaments.evening`` (audit entries, the tournament's lock) and answers the entrants or the
round. Organisers only (``TournamentPermission``), like every write on a tournament.

What it does not do: draw (``views.RoundListView``) or business rules.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from tournaments import evening, selectors
from tournaments.api.serializers import CheckInInput, EntrantOutput, RoundOutput, SwapInput
from tournaments.api.views import TournamentScopedView, _named_rounds, _valid
from tournaments.models import Entrant, Round, Tournament


class CheckInView(TournamentScopedView):
    pagination_class = None  # the entrants with who is here: a bare list, never paged
    queryset = Entrant.objects.none()

    @extend_schema(
        operation_id="tournaments_check_in",
        summary="Check in: the entrants here tonight (organisers); the next draw uses only them",
        description="Every entrant not listed is marked absent. A late arrival checked in "
        "before a later round joins that round (swiss, round robin; a drive seats newcomers at "
        "its foot table once they fill a table).",
        request=CheckInInput,
        responses=EntrantOutput(many=True),
    )
    def post(self, request, tournament_id):
        tournament = self.get_tournament()
        values = _valid(CheckInInput, request)
        evening.mark_present(
            tournament_id=tournament.pk, user=request.user, present_ids=values["present"]
        )
        entrants = selectors.list_entrants(tournament=tournament)
        return Response(EntrantOutput(entrants, many=True).data)


def _round_response(tournament: Tournament, number: int) -> Response:
    round_ = selectors.list_rounds(tournament=tournament, with_unreleased=True).get(number=number)
    (round_,) = _named_rounds(tournament, [round_])
    return Response(RoundOutput(round_).data)


class RoundSwapView(TournamentScopedView):
    queryset = Round.objects.none()

    @extend_schema(
        operation_id="tournaments_rounds_swap",
        summary="Swap two entrants between tables of a round not yet released (organisers)",
        description="409 `round_released` once released, 409 `match_begun` after a hand at "
        "either table, 400 `same_table` / `unknown_entrant`.",
        request=SwapInput,
        responses=RoundOutput,
    )
    def post(self, request, tournament_id, round_number):
        tournament = self.get_tournament()
        values = _valid(SwapInput, request)
        evening.swap_entrants(
            tournament_id=tournament.pk,
            round_number=round_number,
            first_entrant_id=values["first"],
            second_entrant_id=values["second"],
            user=request.user,
        )
        return _round_response(tournament, round_number)


class RoundReleaseView(TournamentScopedView):
    queryset = Round.objects.none()

    @extend_schema(
        operation_id="tournaments_rounds_release",
        summary="Release a privately drawn round: players see it from now on (organisers)",
        request=None,
        responses=RoundOutput,
    )
    def post(self, request, tournament_id, round_number):
        tournament = self.get_tournament()
        evening.release_round(
            tournament_id=tournament.pk, round_number=round_number, user=request.user
        )
        return _round_response(tournament, round_number)

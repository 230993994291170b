"""HTTP endpoints of leagues, under ``/api/federations/{slug}/leagues/`` (docs/leagues.md).

Leagues: ``GET/POST …/leagues/`` (anyone lists; the federation's organisers create one),
``GET …/leagues/{league}/`` (anyone: the league, its teams, its table with the penalties).
Teams: ``GET/POST …/teams/`` (anyone lists; organisers enter a member club's team),
``POST …/teams/{id}/players/`` and ``DELETE …/teams/{id}/players/{player}/`` (the team's captain
or the organisers add a club player to the team, take one off). Fixtures:
``GET …/fixtures/`` (anyone; ``?team=`` or ``?club=`` narrow it), ``POST …/fixtures/`` (organisers:
draw the season), ``GET …/fixtures/{id}/``, ``POST …/fixtures/{id}/postpone/`` and
``…/walkover/`` (organisers), ``POST …/fixtures/{id}/result/`` (either team's captain enters the
result), ``…/accept/`` and ``…/dispute/`` (the other team's captain). Penalties: ``GET/POST
…/penalties/`` (anyone reads; organisers give one, with a reason). The creating POSTs take an
``Idempotency-Key`` (``config.idempotency``).

What it does not do: decide rules (``leagues.services``), who may (``leagues.permissions``), or
the table's order (``leagues.standings``).
"""

from __future__ import annotations

import re

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from clubs.models import Club
from config.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from config.problems import Problem
from leagues import selectors, services
from leagues.api import serializers as s
from leagues.models import League
from leagues.permissions import (
    FixtureCaptainPermission,
    LeagueReadPermission,
    TeamManagerPermission,
)
from leagues.standings import league_table


def _valid(serializer_class, request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _detail(league: League) -> dict:
    return s.LeagueDetailOutput(
        {
            **s.LeagueOutput(league).data,
            "teams": list(selectors.list_teams(league=league)),
            "table": [{**vars(row), "difference": row.difference} for row in league_table(league)],
            "penalties": list(selectors.list_penalties(league=league)),
        }
    ).data


class _LeagueView(GenericAPIView):
    queryset = League.objects.none()
    pagination_class = None
    permission_classes = [LeagueReadPermission]

    def get_federation(self):
        if getattr(self, "_federation", None) is None:
            self._federation = selectors.get_federation(slug=self.kwargs["slug"])
        return self._federation

    def get_league(self) -> League:
        if getattr(self, "_league", None) is None:
            self._league = selectors.get_league(
                federation=self.get_federation(), slug=self.kwargs["league_slug"]
            )
        return self._league

    def get_fixture(self):
        if getattr(self, "_fixture", None) is None:
            self._fixture = selectors.get_fixture(
                league=self.get_league(), fixture_id=self.kwargs["fixture_id"]
            )
        return self._fixture

    def get_team(self):
        if getattr(self, "_team", None) is None:
            self._team = selectors.get_team(
                league=self.get_league(), team_id=self.kwargs["team_id"]
            )
        return self._team

    def team_of_body(self, team_id: int, pointer: str = "/team"):
        """A team of this league named in the body; another league's is a 404 with a pointer."""
        try:
            return selectors.get_team(league=self.get_league(), team_id=team_id)
        except Http404:
            raise Problem(code="not_found", detail=_("No such team."), pointer=pointer) from None


class LeagueListView(_LeagueView):
    @extend_schema(operation_id="leagues_list", responses=s.LeagueOutput(many=True))
    def get(self, request, slug):
        leagues = selectors.list_leagues(federation=self.get_federation())
        return Response(s.LeagueOutput(leagues, many=True).data)

    @extend_schema(
        operation_id="leagues_create",
        request=s.LeagueInput,
        responses={201: s.LeagueDetailOutput},
        summary="Create a league of the federation (its organisers)",
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, slug):
        data = dict(_valid(s.LeagueInput, request))
        league = services.create_league(
            federation=self.get_federation(),
            user=request.user,
            name=data.pop("name"),
            slug=data.pop("slug"),
            **data,
        )
        return Response(_detail(league), status=status.HTTP_201_CREATED)


class LeagueDetailView(_LeagueView):
    @extend_schema(
        operation_id="leagues_retrieve",
        responses=s.LeagueDetailOutput,
        summary="A league: its teams, its table (tie-breaks applied) and its penalties",
    )
    def get(self, request, slug, league_slug):
        return Response(_detail(self.get_league()))


class TeamListView(_LeagueView):
    @extend_schema(operation_id="leagues_teams_list", responses=s.LeagueTeamOutput(many=True))
    def get(self, request, slug, league_slug):
        return Response(
            s.LeagueTeamOutput(selectors.list_teams(league=self.get_league()), many=True).data
        )

    @extend_schema(
        operation_id="leagues_teams_create",
        request=s.LeagueTeamInput,
        responses={201: s.LeagueTeamOutput},
        summary="Enter a member club's team (organisers; before the fixtures are drawn)",
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, slug, league_slug):
        league = self.get_league()  # a league of another federation is a 404 before the body
        data = _valid(s.LeagueTeamInput, request)
        club = Club.objects.filter(slug=data["club"]).first()
        if club is None:
            raise Problem(code="unknown_club", detail=_("No club has this slug."), pointer="/club")
        team = services.add_team(
            league=league,
            user=request.user,
            club=club,
            name=data["name"],
            captain_id=data["captain"],
            player_ids=data["players"],
        )
        team = selectors.get_team(league=self.get_league(), team_id=team.pk)
        return Response(s.LeagueTeamOutput(team).data, status=status.HTTP_201_CREATED)


def _team_answer(self, status_code=status.HTTP_200_OK) -> Response:
    team = selectors.get_team(league=self.get_league(), team_id=self.get_team().pk)
    return Response(s.LeagueTeamOutput(team).data, status=status_code)


class TeamPlayerListView(_LeagueView):
    permission_classes = [TeamManagerPermission]

    @extend_schema(
        operation_id="leagues_teams_players_add",
        request=s.LeagueTeamPlayerInput,
        responses={201: s.LeagueTeamOutput},
        summary="Add one of the club's active players to the team (its captain, organisers)",
    )
    def post(self, request, slug, league_slug, team_id):
        team = self.get_team()
        data = _valid(s.LeagueTeamPlayerInput, request)
        services.add_team_player(team=team, user=request.user, player_id=data["player"])
        return _team_answer(self, status.HTTP_201_CREATED)


class TeamPlayerDetailView(_LeagueView):
    permission_classes = [TeamManagerPermission]

    @extend_schema(
        operation_id="leagues_teams_players_remove",
        request=None,
        responses=s.LeagueTeamOutput,
        summary="Take a player off the team, never its captain (its captain, organisers)",
    )
    def delete(self, request, slug, league_slug, team_id, player_id):
        services.remove_team_player(team=self.get_team(), user=request.user, player_id=player_id)
        return _team_answer(self)


SLUG = re.compile(r"[-a-zA-Z0-9_]{1,50}")

FIXTURE_FILTERS = [
    OpenApiParameter("team", OpenApiTypes.INT, description="Only this team's fixtures."),
    OpenApiParameter("club", OpenApiTypes.STR, description="Only the fixtures of this club."),
]


class FixtureListView(_LeagueView):
    @extend_schema(
        operation_id="leagues_fixtures_list",
        parameters=FIXTURE_FILTERS,
        responses=s.FixtureOutput(many=True),
    )
    def get(self, request, slug, league_slug):
        league = self.get_league()
        team = club = None
        # A value no team or club can have (not digits, not a slug) is a 404 like an unknown one.
        if team_id := request.query_params.get("team"):
            if not team_id.isdigit() or not team_id.isascii():
                raise Http404("No such team.")
            team = selectors.get_team(league=league, team_id=int(team_id))
        if club_slug := request.query_params.get("club"):
            if not SLUG.fullmatch(club_slug):
                raise Http404("No such club.")
            club = selectors.get_club_of_league(league=league, slug=club_slug)
        fixtures = selectors.list_fixtures(league=league, team=team, club=club)
        return Response(s.FixtureOutput(fixtures, many=True).data)

    @extend_schema(
        operation_id="leagues_fixtures_draw",
        request=s.FixturesDrawInput,
        responses={201: s.FixtureOutput(many=True)},
        summary="Draw the season: a double round robin, home and away (organisers)",
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, slug, league_slug):
        league = self.get_league()
        data = _valid(s.FixturesDrawInput, request)
        services.generate_fixtures(league=league, user=request.user, **data)
        fixtures = selectors.list_fixtures(league=league)
        return Response(s.FixtureOutput(fixtures, many=True).data, status=status.HTTP_201_CREATED)


class FixtureDetailView(_LeagueView):
    @extend_schema(operation_id="leagues_fixtures_retrieve", responses=s.FixtureOutput)
    def get(self, request, slug, league_slug, fixture_id):
        return Response(s.FixtureOutput(self.get_fixture()).data)


def _fixture_answer(self, fixture) -> Response:
    fixture = selectors.get_fixture(league=self.get_league(), fixture_id=fixture.pk)
    return Response(s.FixtureOutput(fixture).data)


class PostponeView(_LeagueView):
    @extend_schema(
        operation_id="leagues_fixtures_postpone",
        request=s.FixturePostponeInput,
        responses=s.FixtureOutput,
        summary="Postpone a fixture to a new date (organisers)",
    )
    def post(self, request, slug, league_slug, fixture_id):
        fixture = self.get_fixture()
        data = _valid(s.FixturePostponeInput, request)
        fixture = services.postpone_fixture(
            fixture=fixture, user=request.user, new_date=data["date"]
        )
        return _fixture_answer(self, fixture)


class WalkoverView(_LeagueView):
    @extend_schema(
        operation_id="leagues_fixtures_walkover",
        request=s.FixtureWalkoverInput,
        responses=s.FixtureOutput,
        summary="Give the fixture to a team, won by every table (organisers)",
    )
    def post(self, request, slug, league_slug, fixture_id):
        fixture = self.get_fixture()
        data = _valid(s.FixtureWalkoverInput, request)
        fixture = services.give_walkover(
            fixture=fixture, user=request.user, team=self.team_of_body(data["team"])
        )
        return _fixture_answer(self, fixture)


class ResultView(_LeagueView):
    permission_classes = [FixtureCaptainPermission]

    @extend_schema(
        operation_id="leagues_fixtures_result",
        request=s.FixtureResultInput,
        responses=s.FixtureOutput,
        summary="Enter the result: final scores, or the tables' games (either captain)",
    )
    def post(self, request, slug, league_slug, fixture_id):
        fixture = self.get_fixture()
        data = _valid(s.FixtureResultInput, request)
        fixture = services.enter_result(fixture=fixture, user=request.user, **data)
        return _fixture_answer(self, fixture)


class AcceptView(_LeagueView):
    permission_classes = [FixtureCaptainPermission]

    @extend_schema(
        operation_id="leagues_fixtures_accept",
        request=None,
        responses=s.FixtureOutput,
        summary="Accept the result the other captain entered",
    )
    def post(self, request, slug, league_slug, fixture_id):
        fixture = services.accept_result(fixture=self.get_fixture(), user=request.user)
        return _fixture_answer(self, fixture)


class DisputeView(_LeagueView):
    permission_classes = [FixtureCaptainPermission]

    @extend_schema(
        operation_id="leagues_fixtures_dispute",
        request=s.FixtureDisputeInput,
        responses=s.FixtureOutput,
        summary="Dispute the result the other captain entered, with a reason",
    )
    def post(self, request, slug, league_slug, fixture_id):
        fixture = self.get_fixture()
        data = _valid(s.FixtureDisputeInput, request)
        fixture = services.dispute_result(fixture=fixture, user=request.user, reason=data["reason"])
        return _fixture_answer(self, fixture)


class PenaltyListView(_LeagueView):
    @extend_schema(
        operation_id="leagues_penalties_list", responses=s.LeaguePenaltyOutput(many=True)
    )
    def get(self, request, slug, league_slug):
        penalties = selectors.list_penalties(league=self.get_league())
        return Response(s.LeaguePenaltyOutput(penalties, many=True).data)

    @extend_schema(
        operation_id="leagues_penalties_create",
        request=s.LeaguePenaltyInput,
        responses={201: s.LeaguePenaltyOutput},
        summary="Take points off a team, with the reason the table shows (organisers)",
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, slug, league_slug):
        league = self.get_league()
        data = _valid(s.LeaguePenaltyInput, request)
        penalty = services.give_penalty(
            league=league,
            user=request.user,
            team=self.team_of_body(data["team"]),
            points=data["points"],
            reason=data["reason"],
        )
        return Response(s.LeaguePenaltyOutput(penalty).data, status=status.HTTP_201_CREATED)

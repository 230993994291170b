"""HTTP endpoints of federations, under ``/api/federations/`` (docs/federations.md has the table).

Federations: ``GET/POST /api/federations/`` (anyone lists; any signed-in user creates one and
becomes its organiser), ``GET/PATCH /api/federations/{slug}/`` (anyone reads; organisers change
the name and the levy rate). Clubs: ``GET/POST …/clubs/`` (organisers: the memberships; invite a
club), ``POST …/clubs/{club}/withdraw/`` (organisers), ``POST …/clubs/{club}/accept/``,
``…/decline/`` and ``…/leave/`` (the club's organisers), ``GET …/clubs/{club}/results/``
(organisers: a member club's nights, events and last games, read only). Organisers:
``GET/POST …/organisers/`` (organisers: the list; add an existing account by its username or
e-mail address), ``DELETE …/organisers/{user}/`` (organisers: never the last). Players, links,
merges, the levy and the audit: ``federations.api.player_views``.

What it does not do: decide rules (``federations.services``) or who may
(``federations.permissions``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from clubs.permissions import AuthenticatedWritePermission
from config.problems import Problem
from federations import levy, organisers, selectors, services
from federations.api import serializers as s
from federations.models import Federation
from federations.permissions import (
    ClubAnswerPermission,
    FederationOrganiserPermission,
    FederationReadPermission,
)


def _with_members(federation: Federation) -> Federation:
    federation.member_club_slugs = list(
        selectors.list_member_clubs(federation=federation).values_list("slug", flat=True)
    )
    return federation


def valid_input(serializer_class, request, **kwargs):
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class FederationScopedView(GenericAPIView):
    queryset = Federation.objects.none()
    pagination_class = None

    def get_federation(self) -> Federation:
        if getattr(self, "_federation", None) is None:
            self._federation = selectors.get_federation(slug=self.kwargs["slug"])
        return self._federation


class FederationListView(GenericAPIView):
    permission_classes = [AuthenticatedWritePermission]
    queryset = Federation.objects.none()
    pagination_class = None

    @extend_schema(operation_id="federations_list", responses=s.FederationOutput(many=True))
    def get(self, request):
        federations = [_with_members(each) for each in selectors.list_federations()]
        return Response(s.FederationOutput(federations, many=True).data)

    @extend_schema(
        operation_id="federations_create",
        request=s.FederationInput,
        responses={201: s.FederationOutput},
        summary="Create a federation; you become its organiser",
    )
    def post(self, request):
        data = valid_input(s.FederationInput, request)
        rate = levy.parse_rate(data.pop("levy_rate"), data["currency"])
        federation = services.create_federation(user=request.user, levy_rate_minor=rate, **data)
        return Response(
            s.FederationOutput(_with_members(federation)).data, status=status.HTTP_201_CREATED
        )


class FederationDetailView(FederationScopedView):
    permission_classes = [FederationReadPermission]

    @extend_schema(operation_id="federations_retrieve", responses=s.FederationOutput)
    def get(self, request, slug):
        return Response(s.FederationOutput(_with_members(self.get_federation())).data)

    @extend_schema(
        operation_id="federations_update",
        request=s.FederationChangeInput,
        responses=s.FederationOutput,
        summary="Change the name or the levy rate (organisers)",
    )
    def patch(self, request, slug):
        federation = self.get_federation()
        data = valid_input(s.FederationChangeInput, request)
        if "levy_rate" in data:
            data["levy_rate_minor"] = levy.parse_rate(data.pop("levy_rate"), federation.currency)
        federation = services.update_federation(federation=federation, user=request.user, **data)
        return Response(s.FederationOutput(_with_members(federation)).data)


class MembershipListView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_clubs_list", responses=s.FederationMembershipOutput(many=True)
    )
    def get(self, request, slug):
        memberships = selectors.list_memberships(federation=self.get_federation())
        return Response(s.FederationMembershipOutput(memberships, many=True).data)

    @extend_schema(
        operation_id="federations_clubs_invite",
        request=s.FederationInviteInput,
        responses={201: s.FederationMembershipOutput},
        summary="Invite a club (organisers); its organisers accept or decline",
    )
    def post(self, request, slug):
        data = valid_input(s.FederationInviteInput, request)
        club = selectors.find_club(slug=data["club"])
        if club is None:
            raise Problem(code="unknown_club", detail=_("No club has this slug."), pointer="/club")
        membership = services.invite_club(
            federation=self.get_federation(), user=request.user, club=club
        )
        return Response(
            s.FederationMembershipOutput(membership).data, status=status.HTTP_201_CREATED
        )


class ClubOfFederationView(FederationScopedView):
    def get_club(self):
        if getattr(self, "_club", None) is None:
            self._club = selectors.get_club_of_federation(
                federation=self.get_federation(), slug=self.kwargs["club_slug"]
            )
        return self._club


class WithdrawView(ClubOfFederationView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_clubs_withdraw",
        request=None,
        responses=s.FederationMembershipOutput,
        summary="Withdraw a pending invitation (organisers)",
    )
    def post(self, request, slug, club_slug):
        membership = services.withdraw_invitation(
            federation=self.get_federation(), user=request.user, club=self.get_club()
        )
        return Response(s.FederationMembershipOutput(membership).data)


def _club_answer(action: str, summary: str):
    class ClubAnswerView(ClubOfFederationView):
        permission_classes = [ClubAnswerPermission]

        @extend_schema(
            operation_id=f"federations_clubs_{action}",
            request=None,
            responses=s.FederationMembershipOutput,
            summary=summary,
        )
        def post(self, request, slug, club_slug):
            service = {
                "accept": services.accept_invitation,
                "decline": services.decline_invitation,
                "leave": services.leave_federation,
            }[action]
            membership = service(
                federation=self.get_federation(), user=request.user, club=self.get_club()
            )
            return Response(s.FederationMembershipOutput(membership).data)

    ClubAnswerView.__name__ = ClubAnswerView.__qualname__ = f"Club{action.title()}View"
    return ClubAnswerView


AcceptView = _club_answer("accept", "Accept the federation's invitation (the club's organisers)")
DeclineView = _club_answer("decline", "Decline the federation's invitation (the club's organisers)")
LeaveView = _club_answer("leave", "Leave the federation (the club's organisers)")


class ClubResultsView(ClubOfFederationView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_clubs_results",
        responses=s.FederationClubResultsOutput,
        summary="A member club's nights, events and last games (organisers; read only)",
    )
    def get(self, request, slug, club_slug):
        club = self.get_club()
        if not selectors.is_member(self.get_federation(), club.pk):
            raise Problem(
                code="not_a_member", detail=_("The club is not a member of this federation.")
            )
        results = selectors.member_club_results(club=club)
        return Response(s.FederationClubResultsOutput({"club": club.slug, **results}).data)


class OrganiserListView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_organisers_list", responses=s.OrganiserOutput(many=True)
    )
    def get(self, request, slug):
        organisers = selectors.list_organisers(federation=self.get_federation())
        return Response(s.OrganiserOutput(organisers, many=True).data)

    @extend_schema(
        operation_id="federations_organisers_add",
        request=s.OrganiserInput,
        responses={201: s.OrganiserOutput},
        summary="Add an organiser: an existing account, by its username or e-mail (organisers)",
    )
    def post(self, request, slug):
        data = valid_input(s.OrganiserInput, request)
        role = organisers.add_organiser(
            federation=self.get_federation(), user=request.user, identifier=data["identifier"]
        )
        return Response(s.OrganiserOutput(role).data, status=status.HTTP_201_CREATED)


class OrganiserDetailView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_organisers_remove",
        request=None,
        responses={204: None},
        summary="Remove an organiser, never the last (organisers)",
    )
    def delete(self, request, slug, user_id):
        federation = self.get_federation()
        role = selectors.get_organiser(federation=federation, user_id=user_id)
        organisers.remove_organiser(federation=federation, user=request.user, role=role)
        return Response(status=status.HTTP_204_NO_CONTENT)

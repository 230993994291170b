"""HTTP endpoints of clubs, memberships, players and teams (thin: parse, call, render).

What it does: each view checks permissions through ``clubs.permissions``, validates the body with
an input serializer, calls one service (writes) or selector (reads) and renders an output
serializer. Lists are paginated (``config.pagination``), filtered (``clubs.api.filters``) and
ordered (``?ordering=``). Creating POSTs honour ``Idempotency-Key`` (``config.idempotency``).

What it does not do: business rules (``clubs.services``) or query shape (``clubs.selectors``).

Terms: a *club-scoped view* serves ``/api/clubs/{slug}/…``; its ``get_club()`` resolves the slug
once per request, and ``clubs.permissions`` turns a club the user may not read into a 404.
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from clubs import invitations, selectors, services
from clubs.api import filters
from clubs.api.serializers import (
    ClubOutput,
    InvitationOutput,
    MembershipInput,
    MembershipOutput,
    MembershipUpdateInput,
    PlayerInput,
    PlayerOutput,
    PlayerWriteOutput,
    TeamInput,
    TeamOutput,
)
from clubs.inputs import ClubInput
from clubs.models import Club, Membership, Player, PlayerInvitation, Team
from clubs.permissions import (
    AuthenticatedWritePermission,
    ClubManagePermission,
    ClubOrganiserOnlyPermission,
)
from config.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from config.pagination import Pagination

_NOT_SENT = object()


def _valid(serializer_class, request, *, partial: bool = False) -> dict:
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _created(data: dict, location: str) -> Response:
    return Response(data, status=status.HTTP_201_CREATED, headers={"Location": location})


class ClubScopedView(GenericAPIView):
    """Base of the views under ``/api/clubs/{slug}/``."""

    pagination_class = Pagination

    def get_club(self) -> Club:
        if getattr(self, "_club", None) is None:
            self._club = selectors.get_club(slug=self.kwargs["slug"], user=self.request.user)
        return self._club

    def is_schema_generation(self) -> bool:
        # drf-spectacular instantiates views without a real request to read their querysets.
        return getattr(self, "swagger_fake_view", False)


# Clubs ------------------------------------------------------------------------------------------


class ClubListView(GenericAPIView):
    """Clubs: the list a user may read (their own and public ones), and creating one."""

    queryset = Club.objects.none()
    permission_classes = [AuthenticatedWritePermission]
    pagination_class = Pagination
    filterset_class = filters.ClubFilter
    ordering_fields = ["name", "created_at"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Club.objects.none()
        return selectors.list_clubs(user=self.request.user)

    @extend_schema(
        operation_id="clubs_list",
        summary="Clubs the user belongs to, and public clubs",
        responses=ClubOutput(many=True),
    )
    def get(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(
            ClubOutput(page, many=True, context={"request": request}).data
        )

    @extend_schema(
        operation_id="clubs_create",
        summary="Create a club; the caller becomes its organiser",
        request=ClubInput,
        responses={201: ClubOutput},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request):
        club = services.create_club(user=request.user, **_valid(ClubInput, request))
        data = ClubOutput(club, context={"request": request}).data
        return _created(data, reverse("clubs:club-detail", kwargs={"slug": club.slug}))


class ClubDetailView(ClubScopedView):
    """One club: readers read it; organisers change or delete it."""

    queryset = Club.objects.none()
    permission_classes = [ClubManagePermission]

    @extend_schema(operation_id="clubs_retrieve", responses=ClubOutput)
    def get(self, request, slug):
        return Response(ClubOutput(self.get_club(), context={"request": request}).data)

    @extend_schema(
        operation_id="clubs_partial_update",
        summary="Change a club (organisers)",
        request=ClubInput(partial=True),
        responses=ClubOutput,
    )
    def patch(self, request, slug):
        club = services.update_club(
            club=self.get_club(), **_valid(ClubInput, request, partial=True)
        )
        return Response(ClubOutput(club, context={"request": request}).data)

    @extend_schema(
        operation_id="clubs_destroy",
        summary="Delete a club and its books (organisers; 409 once results are recorded)",
        responses={204: None},
    )
    def delete(self, request, slug):
        services.delete_club(club=self.get_club())
        return Response(status=status.HTTP_204_NO_CONTENT)


# Memberships ------------------------------------------------------------------------------------


class MembershipListView(ClubScopedView):
    """Who holds which role in a club; organisers only, reads included."""

    queryset = Membership.objects.none()
    permission_classes = [ClubOrganiserOnlyPermission]
    filterset_class = filters.MembershipFilter
    ordering_fields = ["created_at", "role", "user__username"]

    def get_queryset(self):
        if self.is_schema_generation():
            return Membership.objects.none()
        return selectors.list_memberships(club=self.get_club())

    @extend_schema(
        operation_id="clubs_memberships_list",
        summary="Who holds which role in the club (organisers)",
        responses=MembershipOutput(many=True),
    )
    def get(self, request, slug):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(MembershipOutput(page, many=True).data)

    @extend_schema(
        operation_id="clubs_memberships_create",
        summary="Give a user (by username) a role in the club (organisers)",
        request=MembershipInput,
        responses={201: MembershipOutput},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, slug):
        club = self.get_club()
        membership = services.add_membership(club=club, **_valid(MembershipInput, request))
        location = reverse(
            "clubs:membership-detail", kwargs={"slug": slug, "membership_id": membership.pk}
        )
        return _created(MembershipOutput(membership).data, location)


class MembershipDetailView(ClubScopedView):
    """One membership: organisers change the role or remove it."""

    queryset = Membership.objects.none()
    permission_classes = [ClubOrganiserOnlyPermission]

    def get_membership(self) -> Membership:
        return selectors.get_membership(
            club=self.get_club(), membership_id=self.kwargs["membership_id"]
        )

    @extend_schema(operation_id="clubs_memberships_retrieve", responses=MembershipOutput)
    def get(self, request, slug, membership_id):
        return Response(MembershipOutput(self.get_membership()).data)

    @extend_schema(
        operation_id="clubs_memberships_partial_update",
        summary="Change a member's role (a club keeps at least one organiser: 409)",
        request=MembershipUpdateInput,
        responses=MembershipOutput,
    )
    def patch(self, request, slug, membership_id):
        membership = services.change_membership_role(
            membership=self.get_membership(), **_valid(MembershipUpdateInput, request)
        )
        return Response(MembershipOutput(membership).data)

    @extend_schema(
        operation_id="clubs_memberships_destroy",
        summary="Take a user's role away (not the last organiser's: 409)",
        responses={204: None},
    )
    def delete(self, request, slug, membership_id):
        services.remove_membership(membership=self.get_membership())
        return Response(status=status.HTTP_204_NO_CONTENT)


# Players ----------------------------------------------------------------------------------------


class PlayerListView(ClubScopedView):
    """A club's players: readers list them; organisers add them."""

    queryset = Player.objects.none()
    permission_classes = [ClubManagePermission]
    filterset_class = filters.PlayerFilter
    ordering_fields = ["display_name", "created_at"]

    def get_queryset(self):
        if self.is_schema_generation():
            return Player.objects.none()
        return selectors.list_players(club=self.get_club())

    @extend_schema(
        operation_id="clubs_players_list",
        summary="The club's players",
        responses=PlayerOutput(many=True),
    )
    def get(self, request, slug):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(PlayerOutput(page, many=True).data)

    @extend_schema(
        operation_id="clubs_players_create",
        summary="Add a player to the club's books (organisers)",
        request=PlayerInput,
        responses={201: PlayerWriteOutput},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, slug):
        data = _valid(PlayerInput, request)
        username = data.pop("username", None)
        player = services.add_player(club=self.get_club(), **data)
        if username:
            invitations.invite_account(player=player, username=username, invited_by=request.user)
        location = reverse("clubs:player-detail", kwargs={"slug": slug, "player_id": player.pk})
        return _created(PlayerWriteOutput(player).data, location)


class PlayerDetailView(ClubScopedView):
    """One player of a club: readers read; organisers change or delete (deactivate)."""

    queryset = Player.objects.none()
    permission_classes = [ClubManagePermission]

    def get_player(self) -> Player:
        return selectors.get_player(club=self.get_club(), player_id=self.kwargs["player_id"])

    @extend_schema(operation_id="clubs_players_retrieve", responses=PlayerOutput)
    def get(self, request, slug, player_id):
        return Response(PlayerOutput(self.get_player()).data)

    @extend_schema(
        operation_id="clubs_players_partial_update",
        summary="Rename, link/unlink an account, (de)activate (organisers)",
        request=PlayerInput(partial=True),
        responses=PlayerWriteOutput,
    )
    def patch(self, request, slug, player_id):
        data = _valid(PlayerInput, request, partial=True)
        username = data.pop("username", _NOT_SENT)
        player = self.get_player()
        if username is None:
            data["username"] = None  # unlinking needs no consent
            PlayerInvitation.objects.filter(player=player).delete()
        player = services.update_player(player=player, **data)
        if username not in (None, _NOT_SENT):
            invitations.invite_account(player=player, username=username, invited_by=request.user)
        return Response(PlayerWriteOutput(player).data)

    @extend_schema(
        operation_id="clubs_players_destroy",
        summary="Delete a player; one referred to by teams or games is deactivated instead",
        responses={
            204: OpenApiResponse(description="Deleted."),
            200: OpenApiResponse(PlayerOutput, description="Kept but deactivated (referenced)."),
        },
    )
    def delete(self, request, slug, player_id):
        player = self.get_player()
        if services.delete_player(player=player):
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(PlayerOutput(player).data)


# Teams ------------------------------------------------------------------------------------------


class TeamListView(ClubScopedView):
    """A club's teams (2 or 3 players each): readers list them; organisers create them."""

    queryset = Team.objects.none()
    permission_classes = [ClubManagePermission]
    filterset_class = filters.TeamFilter
    ordering_fields = ["name", "created_at"]

    def get_queryset(self):
        if self.is_schema_generation():
            return Team.objects.none()
        return selectors.list_teams(club=self.get_club())

    @extend_schema(
        operation_id="clubs_teams_list",
        summary="The club's teams (partnerships of 2 or 3 players)",
        responses=TeamOutput(many=True),
    )
    def get(self, request, slug):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(TeamOutput(page, many=True).data)

    @extend_schema(
        operation_id="clubs_teams_create",
        summary="Create a team (organisers)",
        request=TeamInput,
        responses={201: TeamOutput},
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
    )
    @idempotent
    def post(self, request, slug):
        data = _valid(TeamInput, request)
        team = services.create_team(
            club=self.get_club(),
            name=data["name"],
            member_ids=data["members"],
            is_active=data["is_active"],
        )
        team = selectors.get_team(club=self.get_club(), team_id=team.pk)
        location = reverse("clubs:team-detail", kwargs={"slug": slug, "team_id": team.pk})
        return _created(TeamOutput(team).data, location)


class TeamDetailView(ClubScopedView):
    """One team of a club: readers read; organisers change or delete (deactivate)."""

    queryset = Team.objects.none()
    permission_classes = [ClubManagePermission]

    def get_team(self) -> Team:
        return selectors.get_team(club=self.get_club(), team_id=self.kwargs["team_id"])

    @extend_schema(operation_id="clubs_teams_retrieve", responses=TeamOutput)
    def get(self, request, slug, team_id):
        return Response(TeamOutput(self.get_team()).data)

    @extend_schema(
        operation_id="clubs_teams_partial_update",
        summary="Rename, replace the members of, (de)activate a team (organisers)",
        request=TeamInput(partial=True),
        responses=TeamOutput,
    )
    def patch(self, request, slug, team_id):
        data = _valid(TeamInput, request, partial=True)
        if "members" in data:
            data["member_ids"] = data.pop("members")
        services.update_team(team=self.get_team(), **data)
        return Response(TeamOutput(self.get_team()).data)

    @extend_schema(
        operation_id="clubs_teams_destroy",
        summary="Delete a team; one referred to by games is deactivated instead",
        responses={
            204: OpenApiResponse(description="Deleted."),
            200: OpenApiResponse(TeamOutput, description="Kept but deactivated (referenced)."),
        },
    )
    def delete(self, request, slug, team_id):
        team = self.get_team()
        if services.delete_team(team=team):
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(TeamOutput(self.get_team()).data)


# Invitations ------------------------------------------------------------------------------------


class InvitationListView(GenericAPIView):
    """The invitations to be a club's player that the requesting account may accept."""

    queryset = PlayerInvitation.objects.none()
    pagination_class = Pagination
    filter_backends: list = []

    @extend_schema(
        operation_id="invitations_list",
        summary="Invitations to be a club's player, addressed to my account",
        responses=InvitationOutput(many=True),
        tags=["auth"],
    )
    def get(self, request):
        page = self.paginate_queryset(invitations.list_my_invitations(user=request.user))
        return self.get_paginated_response(InvitationOutput(page, many=True).data)


class InvitationDetailView(GenericAPIView):
    """Decline an invitation addressed to my account."""

    queryset = PlayerInvitation.objects.none()
    may_conflict = False

    @extend_schema(
        operation_id="invitations_decline",
        summary="Decline an invitation (404 when it is not mine)",
        responses={204: None},
        tags=["auth"],
    )
    def delete(self, request, invitation_id):
        invitations.decline_invitation(invitation_id=invitation_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationAcceptView(GenericAPIView):
    """Accept an invitation addressed to my account: I become that club's player."""

    queryset = PlayerInvitation.objects.none()

    @extend_schema(
        operation_id="invitations_accept",
        summary="Accept an invitation: my account becomes the player (409 already_linked)",
        request=None,
        responses={200: PlayerOutput},
        tags=["auth"],
    )
    def post(self, request, invitation_id):
        player = invitations.accept_invitation(invitation_id=invitation_id, user=request.user)
        return Response(PlayerOutput(player).data)

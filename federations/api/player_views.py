"""HTTP endpoints of a federation's players, links, merges, levy and audit (organisers, mostly).

``GET/POST /api/federations/{slug}/players/``; ``GET/PATCH …/players/{id}/`` (the public choices:
set by the player, read by organisers too); ``GET/POST …/links/``; ``POST …/links/{id}/unlink/``;
``POST …/link-invitations/``; ``POST …/link-invitations/{id}/accept/`` and ``…/decline/`` (the
organisers of the player's club); ``POST …/merges/``; ``POST …/merges/{id}/undo/`` (the id is the
merge's audit entry); ``GET …/levy/?from=YYYY-MM-DD&to=YYYY-MM-DD``; ``GET …/audit/``.

What it does not do: decide rules (``federations.services``) or who may
(``federations.permissions``).
"""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from federations import levy, selectors, services
from federations.api import serializers as s
from federations.api.views import FederationScopedView, valid_input
from federations.permissions import (
    ClubAnswerPermission,
    FederationOrganiserPermission,
    PlayerChoicesPermission,
)


class PlayerListView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_players_list", responses=s.FederationPlayerOutput(many=True)
    )
    def get(self, request, slug):
        players = selectors.list_players(federation=self.get_federation())
        return Response(s.FederationPlayerOutput(players, many=True).data)

    @extend_schema(
        operation_id="federations_players_create",
        request=s.FederationPlayerInput,
        responses={201: s.FederationPlayerOutput},
    )
    def post(self, request, slug):
        data = valid_input(s.FederationPlayerInput, request)
        player = services.create_player(federation=self.get_federation(), user=request.user, **data)
        return Response(s.FederationPlayerOutput(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(FederationScopedView):
    permission_classes = [PlayerChoicesPermission]

    def get_federation_player(self):
        if getattr(self, "_player", None) is None:
            self._player = selectors.get_federation_player(
                federation=self.get_federation(), player_id=self.kwargs["player_id"]
            )
        return self._player

    @extend_schema(operation_id="federations_players_retrieve", responses=s.FederationPlayerOutput)
    def get(self, request, slug, player_id):
        return Response(s.FederationPlayerOutput(self.get_federation_player()).data)

    @extend_schema(
        operation_id="federations_players_choices",
        request=s.PublicChoicesInput,
        responses=s.FederationPlayerOutput,
        summary="The player's public choices: name shown, ranking shown (the player only)",
    )
    def patch(self, request, slug, player_id):
        data = valid_input(s.PublicChoicesInput, request)
        player = services.set_public_choices(
            federation_player=self.get_federation_player(), user=request.user, **data
        )
        return Response(s.FederationPlayerOutput(player).data)


def _link_targets(view, data):
    federation = view.get_federation()
    return (
        selectors.get_federation_player(federation=federation, player_id=data["federation_player"]),
        selectors.get_club_player(federation=federation, player_id=data["player"]),
    )


class LinkListView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(operation_id="federations_links_list", responses=s.PlayerLinkOutput(many=True))
    def get(self, request, slug):
        return Response(
            s.PlayerLinkOutput(
                selectors.list_links(federation=self.get_federation()), many=True
            ).data
        )

    @extend_schema(
        operation_id="federations_links_create",
        request=s.PlayerLinkInput,
        responses={201: s.PlayerLinkOutput},
        summary="Link a member club's player to a federation player (organisers)",
    )
    def post(self, request, slug):
        federation_player, player = _link_targets(self, valid_input(s.PlayerLinkInput, request))
        link = services.link_player(
            federation=self.get_federation(),
            user=request.user,
            federation_player=federation_player,
            player=player,
        )
        return Response(s.PlayerLinkOutput(link).data, status=status.HTTP_201_CREATED)


class UnlinkView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_links_unlink", request=None, responses=s.PlayerLinkOutput
    )
    def post(self, request, slug, link_id):
        link = selectors.get_link(federation=self.get_federation(), link_id=link_id)
        return Response(
            s.PlayerLinkOutput(services.unlink_player(link=link, user=request.user)).data
        )


class LinkInvitationListView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_link_invitations_create",
        request=s.PlayerLinkInput,
        responses={201: s.PlayerLinkInvitationOutput},
        summary="Propose a link to the player's club, whose organisers accept it (organisers)",
    )
    def post(self, request, slug):
        federation_player, player = _link_targets(self, valid_input(s.PlayerLinkInput, request))
        invitation = services.invite_link(
            federation=self.get_federation(),
            user=request.user,
            federation_player=federation_player,
            player=player,
        )
        return Response(
            s.PlayerLinkInvitationOutput(invitation).data, status=status.HTTP_201_CREATED
        )


class _LinkInvitationView(FederationScopedView):
    permission_classes = [ClubAnswerPermission]

    def get_invitation(self):
        if getattr(self, "_invitation", None) is None:
            self._invitation = selectors.get_link_invitation(
                federation=self.get_federation(), invitation_id=self.kwargs["invitation_id"]
            )
        return self._invitation

    def get_club(self):
        return self.get_invitation().player.club


class LinkInvitationAcceptView(_LinkInvitationView):
    @extend_schema(
        operation_id="federations_link_invitations_accept",
        request=None,
        responses=s.PlayerLinkOutput,
        summary="Accept a proposed link (the organisers of the player's club)",
    )
    def post(self, request, slug, invitation_id):
        link = services.accept_link_invitation(invitation=self.get_invitation(), user=request.user)
        return Response(s.PlayerLinkOutput(link).data)


class LinkInvitationDeclineView(_LinkInvitationView):
    @extend_schema(
        operation_id="federations_link_invitations_decline",
        request=None,
        responses={204: None},
        summary="Decline a proposed link (the organisers of the player's club)",
    )
    def post(self, request, slug, invitation_id):
        services.decline_link_invitation(invitation=self.get_invitation(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MergeListView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_merges_create",
        request=s.FederationMergeInput,
        responses={201: s.FederationAuditEntryOutput},
        summary="Merge two federation players into one (organisers; undone by …/undo/)",
    )
    def post(self, request, slug):
        data = valid_input(s.FederationMergeInput, request)
        federation = self.get_federation()
        entry = services.merge_players(
            federation=federation,
            user=request.user,
            source=selectors.get_federation_player(federation=federation, player_id=data["source"]),
            target=selectors.get_federation_player(federation=federation, player_id=data["target"]),
        )
        return Response(s.FederationAuditEntryOutput(entry).data, status=status.HTTP_201_CREATED)


class UnmergeView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_merges_undo",
        request=None,
        responses=s.FederationPlayerOutput,
        summary="Undo a merge: its links go back to the merged-away player (organisers)",
    )
    def post(self, request, slug, entry_id):
        entry = selectors.get_merge(federation=self.get_federation(), entry_id=entry_id)
        player = services.unmerge(entry=entry, user=request.user)
        return Response(s.FederationPlayerOutput(player).data)


class LevyView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_levy",
        parameters=[
            OpenApiParameter("from", str, description="First day, YYYY-MM-DD (default: the 1st)"),
            OpenApiParameter("to", str, description="Last day, included (default: today)"),
        ],
        responses=s.FederationLevyOutput,
        summary="Player-sessions per member club and the levy each owes (organisers)",
    )
    def get(self, request, slug):
        date_from, date_to = levy.parse_period(
            request.query_params.get("from"),
            request.query_params.get("to"),
            today=timezone.localdate(),
        )
        report = levy.levy_report(self.get_federation(), date_from, date_to)
        return Response(s.FederationLevyOutput(levy.report_as_dict(report)).data)


class AuditView(FederationScopedView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_audit", responses=s.FederationAuditEntryOutput(many=True)
    )
    def get(self, request, slug):
        entries = selectors.list_audit(federation=self.get_federation())[:500]
        return Response(s.FederationAuditEntryOutput(entries, many=True).data)

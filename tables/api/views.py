"""HTTP endpoints of table links (thin views).

- ``/api/clubs/{slug}/table-links/``: organisers list the club's links (GET) and make one (POST,
  ``{"game": id}`` or ``{"match": id}``); the creation response is the only one with the token,
  the short code, the link's URL and its QR code.
- ``/api/clubs/{slug}/table-links/{link_id}/``: DELETE revokes the link at once.
- ``/api/table/``: for a request holding a table link only (``Authorization: Table …``): the
  table's games and which one is being played; the table app polls it to open a match's next
  game. Anybody else gets 404.

What it does not do: authenticate table links (``tables.authentication``) or decide what they
allow (``tables.selectors.TableGrant``).
"""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from clubs.api.views import ClubScopedView
from clubs.permissions import ClubOrganiserOnlyPermission
from tables import selectors, services
from tables.api import serializers as shapes
from tables.models import TableLink
from tables.qr import qr_svg
from tables.table_state import table_state


class TableLinksView(ClubScopedView):
    """A club's table links (organisers only)."""

    queryset = TableLink.objects.none()
    permission_classes = [ClubOrganiserOnlyPermission]
    filter_backends: list = []

    @extend_schema(operation_id="table_links_list", responses=shapes.TableLinkOutput(many=True))
    def get(self, request, slug):
        now = timezone.now()
        page = self.paginate_queryset(selectors.list_table_links(club=self.get_club()))
        return self.get_paginated_response([shapes.table_link_output(link, now) for link in page])

    @extend_schema(
        operation_id="table_links_create",
        summary="Make a table link for a game or a tournament match (its token is shown once)",
        request=shapes.TableLinkInput,
        responses={201: shapes.TableLinkOutput},
    )
    def post(self, request, slug):
        club = self.get_club()
        serializer = shapes.TableLinkInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        link, token, code = services.create_table_link(
            club=club,
            user=request.user,
            game_id=data.get("game"),
            match_id=data.get("match"),
            expires_at=data.get("expires_at"),
        )
        link = selectors.list_table_links(club=club).get(pk=link.pk)
        url = request.build_absolute_uri(f"/t/{token}/")
        body = shapes.created_output(
            link, timezone.now(), token=token, code=code, url=url, svg=qr_svg(url)
        )
        return Response(body, status=status.HTTP_201_CREATED)


class TableLinkDetailView(ClubScopedView):
    """Revoke one of the club's table links (organisers only)."""

    queryset = TableLink.objects.none()
    permission_classes = [ClubOrganiserOnlyPermission]
    filter_backends: list = []

    @extend_schema(operation_id="table_links_revoke", responses=shapes.TableLinkOutput)
    def delete(self, request, slug, link_id):
        club = self.get_club()
        services.revoke_table_link(club=club, link_id=link_id, user=request.user)
        link = selectors.list_table_links(club=club).get(pk=link_id)
        return Response(shapes.table_link_output(link, timezone.now()))


class CurrentTableView(GenericAPIView):
    """The table a table link opens: its games, the one in play, a match's score."""

    permission_classes = [AllowAny]  # the grant is checked here: nobody else has a table
    filter_backends: list = []

    @extend_schema(operation_id="table_current", responses=dict)
    def get(self, request):
        grant = request.auth
        if getattr(grant, "allows_game", None) is None:
            raise NotFound()
        return Response(table_state(grant.link))

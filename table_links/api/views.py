"""HTTP endpoints of table links (thin views).

- ``/api/clubs/{slug}/table-links/``: organisers list the club's links (GET) and make one (POST,
  ``{"game": id}``, ``{"match": id}``, ``{"tournament": id, "table": n}`` or
  ``{"night": id, "table": n}``); the creation response is the only one with the token, the
  short code, the link's URL and its QR code.
- ``/api/clubs/{slug}/table-links/{link_id}/``: DELETE revokes the link at once.
- ``/api/table/``: for a request holding a table link only (``Authorization: Table …``): the
  table's games and which one is being played (``table_links.table_state``); the table app polls it,
  with ``If-None-Match``, to follow its table (a hand stored elsewhere, the match's next game, the
  next round's game at an event's table, the next game started at a night's table). Its
  ``ETag`` is ``table_links.selectors.table_etag``: an unchanged table answers 304 after two queries
  (the link, the fingerprint). Anybody else gets 404.

What it does not do: authenticate table links (``table_links.authentication``) or decide what they
allow (``table_links.selectors.TableGrant``).
"""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from clubs.api.views import ClubScopedView
from clubs.permissions import ClubOrganiserOnlyPermission
from config.preconditions import etag_matches
from games.api.views import IF_NONE_MATCH_PARAMETER
from table_links import selectors, services
from table_links.api import serializers as shapes
from table_links.models import TableLink
from table_links.qr import qr_svg
from table_links.table_state import table_state


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
        summary="Make a table link for a game, a tournament match, or table N of an event or a "
        "club night (its token is shown once)",
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
            tournament_id=data.get("tournament"),
            night_id=data.get("night"),
            table_number=data.get("table"),
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

    @extend_schema(operation_id="table_links_revoke", responses={200: shapes.TableLinkOutput})
    def delete(self, request, slug, link_id):
        club = self.get_club()
        services.revoke_table_link(club=club, link_id=link_id, user=request.user)
        link = selectors.list_table_links(club=club).get(pk=link_id)
        return Response(shapes.table_link_output(link, timezone.now()))


class CurrentTableView(GenericAPIView):
    """The table a table link opens: its games, the one in play, a match's score."""

    permission_classes = [AllowAny]  # the grant is checked here: nobody else has a table
    filter_backends: list = []
    may_be_not_found = True  # 404 to any request without a table link (config.schema)

    @extend_schema(
        operation_id="table_current",
        responses={200: dict, 304: OpenApiResponse(description="Not modified.")},
        parameters=[IF_NONE_MATCH_PARAMETER],
    )
    def get(self, request):
        grant = request.auth
        if getattr(grant, "allows_game", None) is None:
            raise NotFound()
        etag = selectors.table_etag(grant.link)
        if_none_match = request.headers.get("If-None-Match")
        if if_none_match is not None and etag_matches(if_none_match, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return Response(table_state(grant.link), headers={"ETag": etag})

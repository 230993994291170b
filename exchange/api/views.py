"""HTTP endpoints of the exchange format (thin views; docs/exchange.md).

- ``GET /api/nights/{id}/exchange/`` and ``GET /api/tournaments/{id}/exchange/``: the night's or
  the event's "jink-exchange" document (``exchange.document``), as an attachment;
- ``POST /api/clubs/{slug}/imports/``: import a document into the club
  (``exchange.services.import_document``): 201 when it created a night or an event (a
  tournament), 200 when it updated one or changed nothing (``outcome``: ``created``,
  ``updated``, ``unchanged``; ``night`` or ``event``: the id of what it made). The body is the
  document itself, up to ``exchange.checks.MAX_BYTES`` (413 ``body_too_large`` beyond).

Organisers of the club only (``ClubOrganiserOnlyPermission``: other members 403, a club one may
not read 404). What it does not do: check or import (the services), shape the document.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.permissions import ClubOrganiserOnlyPermission
from exchange import document, services
from exchange.checks import MAX_BYTES
from exchange.models import ImportOutcome, ImportRecord
from settlements import selectors as settlement_selectors
from tournaments import selectors as tournament_selectors


class ImportOutput(serializers.ModelSerializer):
    night = serializers.IntegerField(source="summary.night", allow_null=True)
    event = serializers.IntegerField(source="summary.event", allow_null=True, default=None)
    by = serializers.CharField(source="by.get_username", allow_null=True, default=None)

    class Meta:
        model = ImportRecord
        fields = [
            "id",
            "origin",
            "outcome",
            "night",
            "event",
            "summary",
            "document_hash",
            "by",
            "at",
        ]


class _ExchangeView(GenericAPIView):
    queryset = ImportRecord.objects.none()
    permission_classes = [ClubOrganiserOnlyPermission]
    filter_backends: list = []
    pagination_class = None


def _attachment(data: dict, stem: str) -> Response:
    response = Response(data)
    response["Content-Disposition"] = f'attachment; filename="{stem}.exchange.json"'
    return response


class NightExchangeView(_ExchangeView):
    def get_night(self):
        if getattr(self, "_night", None) is None:
            self._night = settlement_selectors.get_night(night_id=self.kwargs["night_id"])
        return self._night

    def get_club(self):
        return self.get_night().club

    @extend_schema(
        operation_id="nights_exchange",
        responses={200: OpenApiTypes.OBJECT},
        summary="The night as an exchange document (organisers; docs/exchange.schema.json)",
    )
    def get(self, request, night_id):
        night = self.get_night()
        return _attachment(document.night_document(night), f"{night.club.slug}-night-{night.pk}")


class TournamentExchangeView(_ExchangeView):
    def get_tournament(self):
        if getattr(self, "_tournament", None) is None:
            self._tournament = tournament_selectors.get_tournament(
                tournament_id=self.kwargs["tournament_id"]
            )
        return self._tournament

    def get_club(self):
        return self.get_tournament().club

    @extend_schema(
        operation_id="tournaments_exchange",
        responses={200: OpenApiTypes.OBJECT},
        summary="The event as an exchange document (organisers; docs/exchange.schema.json)",
    )
    def get(self, request, tournament_id):
        tournament = self.get_tournament()
        return _attachment(
            document.event_document(tournament), f"{tournament.club.slug}-event-{tournament.pk}"
        )


class ClubImportsView(_ExchangeView):
    max_body_bytes = MAX_BYTES

    def get_club(self):
        if getattr(self, "_club", None) is None:
            self._club = club_selectors.get_club(slug=self.kwargs["slug"], user=self.request.user)
        return self._club

    @extend_schema(
        operation_id="clubs_imports_create",
        request=OpenApiTypes.OBJECT,
        responses={201: ImportOutput, 200: ImportOutput},
        summary="Import an exchange document into the club (organisers; idempotent)",
    )
    def post(self, request, slug):
        record = services.import_document(
            club=self.get_club(),
            user=request.user,
            document=request.data,
            document_hash=document.document_hash(request.data),
        )
        created = record.outcome == ImportOutcome.CREATED
        return Response(
            ImportOutput(record).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

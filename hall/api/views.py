"""HTTP endpoints of the hall screen (thin views).

- ``/api/tournaments/{id}/hall/``: the organiser's hall settings (GET, PATCH ``hide_leaders``);
- ``/api/tournaments/{id}/hall/clock/``: POST a clock action (start, pause, resume, extend,
  stop);
- ``/api/tournaments/{id}/hall/link/``: POST makes the event's hall link (201), DELETE revokes
  it. Organisers of the event's club only (``ClubOrganiserOnlyPermission``: a member of another
  role gets 403, a club one may not read 404).
- ``/api/nights/{id}/hall/``, ``.../hall/clock/``, ``.../hall/link/``: the same for a club
  night (``hall.services`` with ``night_id``; a night's clock has no round).
- ``/api/hall/{credential}/``: the screen's JSON for whoever holds a live hall link's token or
  short code, no login (``hall.nights.screen_state``: an event's or a club night's). With
  ``If-None-Match`` an unchanged screen answers 304 after ONE query (``get_hall_fingerprint``);
  every answer carries the server's time (``X-Jink-Server-Time``) so screens correct their clock.
  An unknown, revoked or ended credential is a 404 that counts against the table links' guessing
  limit (``table_links.guessing``: the same counters), and past the limit every look-up is a 429.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status
from rest_framework.exceptions import Throttled
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from clubs.permissions import ClubOrganiserOnlyPermission
from config.preconditions import etag_matches
from config.problems import Problem
from hall import nights, selectors, services
from hall.api import serializers as shapes
from hall.models import HallSettings
from settlements import selectors as settlement_selectors
from table_links import guessing
from table_links.qr import qr_svg
from table_links.services import format_code, reveal_table_link
from tournaments import selectors as tournament_selectors

SERVER_TIME_HEADER = "X-Jink-Server-Time"


def hall_url(request, token: str) -> str:
    return request.build_absolute_uri(f"/h/{token}/")


def hall_output(request, event) -> dict:
    """The organiser's view of an event's or a night's hall: the switch, the clock, the live
    link."""
    settings, link = selectors.get_event_hall(event)
    now = timezone.now()
    shown_link = None
    if link is not None:
        secrets = reveal_table_link(link)
        url = hall_url(request, secrets[0]) if secrets else None
        shown_link = {
            "id": link.pk,
            "url": url,
            "code": format_code(secrets[1]) if secrets else None,
            "qr_svg": qr_svg(url) if url else None,
            "created_at": link.created_at,
        }
    return shapes.HallOutput(
        {
            "tournament": settings.tournament_id,
            "night": settings.night_id,
            "hide_leaders": settings.hide_leaders,
            "server_time": selectors.iso(now),
            "clock": selectors.clock_state(settings, now),
            "link": shown_link,
        }
    ).data


class EventHallView(GenericAPIView):
    """Base: the event of the URL and its club, for the organisers-only permission."""

    queryset = HallSettings.objects.none()
    permission_classes = [ClubOrganiserOnlyPermission]
    filter_backends: list = []
    pagination_class = None

    def get_tournament(self):
        """The tournament of the URL, or the club night of a ``nights/`` URL."""
        if getattr(self, "_tournament", None) is None:
            if "night_id" in self.kwargs:
                self._tournament = settlement_selectors.get_night(night_id=self.kwargs["night_id"])
            else:
                self._tournament = tournament_selectors.get_tournament(
                    tournament_id=self.kwargs["tournament_id"]
                )
        return self._tournament

    def get_club(self):
        return self.get_tournament().club

    def scope(self) -> dict:
        """The services' keyword: ``tournament_id`` or ``night_id``."""
        if "night_id" in self.kwargs:
            return {"night_id": self.get_tournament().pk}
        return {"tournament_id": self.get_tournament().pk}

    def valid(self, serializer_class) -> dict:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


class HallSettingsView(EventHallView):
    @extend_schema(operation_id="hall_retrieve", responses=shapes.HallOutput)
    def get(self, request, **ids):
        return Response(hall_output(request, self.get_tournament()))

    @extend_schema(
        operation_id="hall_partial_update",
        summary="Hide or show the leaders on the hall screen",
        request=shapes.HallSettingsInput,
        responses=shapes.HallOutput,
    )
    def patch(self, request, **ids):
        data = self.valid(shapes.HallSettingsInput)
        services.update_hall_settings(
            user=request.user, hide_leaders=data["hide_leaders"], **self.scope()
        )
        return Response(hall_output(request, self.get_tournament()))


class HallClockView(EventHallView):
    @extend_schema(
        operation_id="hall_clock",
        summary="Start, pause, resume, extend or stop the round clock",
        request=shapes.ClockInput,
        responses=shapes.HallOutput,
    )
    def post(self, request, **ids):
        data = self.valid(shapes.ClockInput)
        services.act_on_clock(
            user=request.user, action=data["action"], minutes=data.get("minutes"), **self.scope()
        )
        return Response(hall_output(request, self.get_tournament()))


class HallLinkView(EventHallView):
    @extend_schema(
        operation_id="hall_link_create",
        summary="Make the event's hall link (read only, no login; one live link an event)",
        request=None,
        responses={201: shapes.HallOutput},
    )
    def post(self, request, **ids):
        services.create_hall_link(user=request.user, **self.scope())
        return Response(hall_output(request, self.get_tournament()), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="hall_link_revoke", summary="Revoke the hall link", responses=shapes.HallOutput
    )
    def delete(self, request, **ids):
        services.revoke_hall_link(user=request.user, **self.scope())
        return Response(hall_output(request, self.get_tournament()))


# A club night's hall: the same views, their own operation ids.
@extend_schema_view(
    get=extend_schema(operation_id="night_hall_retrieve"),
    patch=extend_schema(operation_id="night_hall_partial_update"),
)
class NightHallSettingsView(HallSettingsView):
    pass


@extend_schema_view(post=extend_schema(operation_id="night_hall_clock"))
class NightHallClockView(HallClockView):
    pass


@extend_schema_view(
    post=extend_schema(operation_id="night_hall_link_create"),
    delete=extend_schema(operation_id="night_hall_link_revoke"),
)
class NightHallLinkView(HallLinkView):
    pass


IF_NONE_MATCH = OpenApiParameter(
    name="If-None-Match",
    type=str,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The screen's ETag from an earlier answer; an unchanged screen gives 304.",
)
SERVER_TIME = {
    SERVER_TIME_HEADER: {
        "description": "The server's time (ISO 8601, UTC, milliseconds).",
        "schema": {"type": "string"},
    }
}


class HallScreenView(GenericAPIView):
    """The hall screen's JSON, for whoever holds a live hall link."""

    permission_classes = [AllowAny]  # the credential in the URL is the check
    authentication_classes: list = []  # no session, no table link: one query for a 304
    filter_backends: list = []
    may_be_not_found = True

    @extend_schema(
        operation_id="hall_screen",
        summary="What the hall screen shows (a hall link's token or short code, no login)",
        parameters=[IF_NONE_MATCH],
        responses={
            200: OpenApiResponse(shapes.HallScreenOutput, description="The screen."),
            304: OpenApiResponse(description="Not modified."),
        },
    )
    def get(self, request, credential):
        wait = guessing.refused_for(request)
        if wait is not None:
            raise Throttled(wait=wait)
        fingerprint = selectors.get_hall_fingerprint(credential)
        now = timezone.now()
        if fingerprint is None or selectors.is_link_over(fingerprint, now):
            guessing.note_failure(request)
            raise Problem(code="not_found", detail=gettext("No live hall link with this code."))
        etag = selectors.hall_etag(fingerprint)
        headers = {
            "ETag": etag,
            SERVER_TIME_HEADER: selectors.iso(now),
            "Cache-Control": "no-cache",
        }
        if_none_match = request.headers.get("If-None-Match")
        if if_none_match is not None and etag_matches(if_none_match, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        body = nights.screen_state(fingerprint, now)
        return Response(body, headers=headers)

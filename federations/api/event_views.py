"""HTTP endpoints of federation events, under ``/api/federations/{slug}/events/``.

``GET/POST …/events/`` (read: the federation's organisers and its member clubs' organisers;
create: the federation's organisers); ``GET/PATCH …/events/{id}/`` (the same); ``GET
…/events/{id}/nominations/`` (the federation's organisers: every club's nominations);
``GET/POST …/events/{id}/clubs/{club}/nominations/`` and ``DELETE
…/events/{id}/clubs/{club}/nominations/{nomination}/`` (the organisers of that member club: its
own nominations); ``POST …/events/{id}/select/`` and ``POST …/events/{id}/tournament/`` (the
federation's organisers: select the entrants, create the host club's tournament).

What it does not do: decide rules (``federations.events``) or who may
(``federations.permissions``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from clubs.models import Player
from config.problems import Problem
from federations import events, selectors
from federations.api import event_serializers as s
from federations.api.views import ClubOfFederationView, FederationScopedView, valid_input
from federations.models import EventStatus, PlayerLink, SelectionRule
from federations.permissions import (
    ClubAnswerPermission,
    EventReadPermission,
    FederationOrganiserPermission,
)

TAGS = ["federations"]


def _event_values(data: dict) -> dict:
    """The validated input as ``events.create_event`` / ``update_event`` take it."""
    values = dict(data)
    if "host_club" in values:
        club = selectors.find_club(slug=values["host_club"])
        if club is None:
            raise Problem(
                code="unknown_club", detail=_("No club has this slug."), pointer="/host_club"
            )
        values["host_club"] = club
    if "settings" in values:
        values["settings"] = dict(values["settings"])
    return values


class _EventView(FederationScopedView):
    def get_event(self):
        if getattr(self, "_event", None) is None:
            self._event = selectors.get_event(
                federation=self.get_federation(), event_id=self.kwargs["event_id"]
            )
        return self._event


class EventListView(FederationScopedView):
    permission_classes = [EventReadPermission]

    @extend_schema(
        operation_id="federations_events_list",
        responses=s.FederationEventOutput(many=True),
        tags=TAGS,
    )
    def get(self, request, slug):
        found = selectors.list_events(federation=self.get_federation())
        return Response(s.FederationEventOutput(found, many=True).data)

    @extend_schema(
        operation_id="federations_events_create",
        request=s.FederationEventInput,
        responses={201: s.FederationEventOutput},
        summary="Create a federation event at a member club (organisers)",
        tags=TAGS,
    )
    def post(self, request, slug):
        values = _event_values(valid_input(s.FederationEventInput, request))
        event = events.create_event(federation=self.get_federation(), user=request.user, **values)
        event = selectors.get_event(federation=self.get_federation(), event_id=event.pk)
        return Response(s.FederationEventOutput(event).data, status=status.HTTP_201_CREATED)


class EventDetailView(_EventView):
    permission_classes = [EventReadPermission]

    @extend_schema(
        operation_id="federations_events_retrieve", responses=s.FederationEventOutput, tags=TAGS
    )
    def get(self, request, slug, event_id):
        return Response(s.FederationEventOutput(self.get_event()).data)

    @extend_schema(
        operation_id="federations_events_update",
        request=s.FederationEventInput,
        responses=s.FederationEventOutput,
        summary="Change an event not yet created (organisers); a selection is dropped",
        tags=TAGS,
    )
    def patch(self, request, slug, event_id):
        values = _event_values(valid_input(s.FederationEventInput, request, partial=True))
        events.update_event(event=self.get_event(), user=request.user, **values)
        event = selectors.get_event(federation=self.get_federation(), event_id=event_id)
        return Response(s.FederationEventOutput(event).data)


class EventNominationListView(_EventView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_events_nominations_list",
        responses=s.NominationOutput(many=True),
        summary="Every member club's nominations (organisers)",
        tags=TAGS,
    )
    def get(self, request, slug, event_id):
        found = selectors.list_nominations(event=self.get_event())
        return Response(s.NominationOutput(found, many=True).data)


class _ClubEventView(ClubOfFederationView):
    permission_classes = [ClubAnswerPermission]

    def get_event(self):
        if getattr(self, "_event", None) is None:
            self._event = selectors.get_event(
                federation=self.get_federation(), event_id=self.kwargs["event_id"]
            )
        return self._event


def _club_nominations(event, club) -> dict:
    return {
        "event": event.pk,
        "club": club.slug,
        "quota": event.quota,
        "open": event.rule == SelectionRule.NOMINATIONS and event.status == EventStatus.DRAFT,
        "nominations": selectors.list_nominations(event=event, club=club),
    }


class ClubNominationListView(_ClubEventView):
    @extend_schema(
        operation_id="federations_events_club_nominations_list",
        responses=s.ClubNominationsOutput,
        summary="The club's nominations for the event (the club's organisers)",
        tags=TAGS,
    )
    def get(self, request, slug, event_id, club_slug):
        event, club = self.get_event(), self.get_club()
        return Response(s.ClubNominationsOutput(_club_nominations(event, club)).data)

    @extend_schema(
        operation_id="federations_events_club_nominations_create",
        request=s.NominationInput,
        responses={201: s.NominationOutput},
        summary="Nominate a player of the club (the club's organisers, within the quota)",
        tags=TAGS,
    )
    def post(self, request, slug, event_id, club_slug):
        data = valid_input(s.NominationInput, request)
        club = self.get_club()
        if "player" in data:
            player = Player.objects.filter(pk=data["player"], club=club).first()
            pointer = "/player"
        else:
            link = (
                PlayerLink.objects.current()
                .filter(
                    federation=self.get_federation(),
                    federation_player_id=data["federation_player"],
                    player__club=club,
                )
                .select_related("player")
                .first()
            )
            player, pointer = (link.player if link else None), "/federation_player"
        if player is None:
            raise Problem(
                code="unknown_player", detail=_("No such player in this club."), pointer=pointer
            )
        nomination = events.nominate(
            event=self.get_event(), user=request.user, club=club, player=player
        )
        return Response(s.NominationOutput(nomination).data, status=status.HTTP_201_CREATED)


class ClubNominationDetailView(_ClubEventView):
    @extend_schema(
        operation_id="federations_events_club_nominations_withdraw",
        responses={204: None},
        summary="Withdraw one of the club's nominations while the event is a draft",
        tags=TAGS,
    )
    def delete(self, request, slug, event_id, club_slug, nomination_id):
        nomination = selectors.get_nomination(
            event=self.get_event(), club=self.get_club(), nomination_id=nomination_id
        )
        events.withdraw_nomination(nomination=nomination, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventSelectView(_EventView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_events_select",
        request=None,
        responses=s.FederationEventOutput,
        summary="Select the entrants from the rule (organisers); replaces an earlier selection",
        tags=TAGS,
    )
    def post(self, request, slug, event_id):
        events.select_entrants(event=self.get_event(), user=request.user)
        event = selectors.get_event(federation=self.get_federation(), event_id=event_id)
        return Response(s.FederationEventOutput(event).data)


class EventTournamentView(_EventView):
    permission_classes = [FederationOrganiserPermission]

    @extend_schema(
        operation_id="federations_events_tournament",
        request=None,
        responses={201: s.FederationEventOutput},
        summary="Create the host club's tournament with the selected entrants (organisers)",
        tags=TAGS,
    )
    def post(self, request, slug, event_id):
        events.create_event_tournament(event=self.get_event(), user=request.user)
        event = selectors.get_event(federation=self.get_federation(), event_id=event_id)
        return Response(s.FederationEventOutput(event).data, status=status.HTTP_201_CREATED)

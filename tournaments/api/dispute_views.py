"""``/api/matches/{id}/dispute/``: a table flagged as disputed, and its resolution.

What it does: GET shows the match's dispute (readers of the tournament; a private draw stays
private); POST ``{"note": "..."}`` flags it (the club's scorers: organisers and scorekeepers);
DELETE, optionally ``{"resolution": "..."}``, resolves it (organisers). Both writes go through
``tournaments.disputes`` (audit entries, the tournament's lock).

What it does not do: change a score (hands are corrected through games).
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response

from clubs.permissions import can_manage, can_score
from config.serializers import StrictFieldsMixin
from tournaments import disputes, selectors
from tournaments.models import Match


class DisputeInput(StrictFieldsMixin, serializers.Serializer):
    note = serializers.CharField(
        max_length=disputes.NOTE_LENGTH, help_text="What is disputed, in a few words."
    )


class ResolutionInput(StrictFieldsMixin, serializers.Serializer):
    resolution = serializers.CharField(
        max_length=disputes.NOTE_LENGTH,
        required=False,
        allow_blank=True,
        help_text="How it was settled (kept in the audit trail).",
    )


DisputeOutput = inline_serializer(
    name="MatchDispute",
    fields={
        "match": serializers.IntegerField(),
        "disputed": serializers.BooleanField(),
        "note": serializers.CharField(),
        "disputed_at": serializers.DateTimeField(allow_null=True),
        "disputed_by": serializers.CharField(allow_null=True),
    },
)


def dispute_data(match: Match) -> dict:
    return {
        "match": match.pk,
        "disputed": match.disputed_at is not None,
        "note": match.dispute_note,
        "disputed_at": match.disputed_at.isoformat() if match.disputed_at else None,
        "disputed_by": match.disputed_by.username if match.disputed_by_id else None,
    }


class DisputePermission(BasePermission):
    """The checks are the view's own (``_match``: they need the match); this class tells the
    schema (``config.schema``) that a public tournament's dispute is read without logging in."""

    anonymous_may_read = True

    def has_permission(self, request, view) -> bool:
        return True


class MatchDisputeView(GenericAPIView):
    """Readers read; scorers flag; organisers resolve. An unreadable tournament is 404."""

    queryset = Match.objects.none()
    permission_classes = [DisputePermission]

    def _match(self, request, match_id: int, allowed) -> Match:
        match = (
            Match.objects.select_related("round", "tournament__club", "disputed_by")
            .filter(pk=match_id)
            .first()
        )
        if match is None:
            raise NotFound()
        tournament = match.tournament
        user = request.user
        if not selectors.can_read_tournament(user, tournament):
            if request.method not in SAFE_METHODS and not user.is_authenticated:
                raise NotAuthenticated()
            raise NotFound()
        if match.round.released_at is None and not can_manage(user, tournament.club):
            raise Http404("No match with this id.")  # a private draw stays private
        if allowed is not None:
            if not user.is_authenticated:
                raise NotAuthenticated()
            if not allowed(user, tournament.club):
                raise PermissionDenied()
        return match

    @extend_schema(
        operation_id="matches_dispute_retrieve",
        summary="Whether the table is disputed, with its note",
        responses=DisputeOutput,
    )
    def get(self, request, match_id):
        return Response(dispute_data(self._match(request, match_id, None)))

    @extend_schema(
        operation_id="matches_dispute_create",
        summary="Flag the table as disputed with a short note (scorers)",
        request=DisputeInput,
        responses=DisputeOutput,
    )
    def post(self, request, match_id):
        match = self._match(request, match_id, can_score)
        serializer = DisputeInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = disputes.flag_dispute(
            match_id=match.pk, user=request.user, note=serializer.validated_data["note"]
        )
        match.disputed_by = request.user
        return Response(dispute_data(match))

    @extend_schema(
        operation_id="matches_dispute_resolve",
        summary="Resolve the table's dispute (organisers)",
        request=ResolutionInput,
        responses={200: DisputeOutput},
    )
    def delete(self, request, match_id):
        match = self._match(request, match_id, can_manage)
        serializer = ResolutionInput(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        match, _ = disputes.resolve_dispute(
            match_id=match.pk,
            user=request.user,
            resolution=serializer.validated_data.get("resolution", ""),
        )
        return Response(dispute_data(match))

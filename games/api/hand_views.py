"""HTTP endpoints of a game's hands: record, correct and undo a hand, and their previews (thin
views).

What it does: each view checks permissions as every game-scoped view does
(``games.api.views.GameScopedView``), validates the body, calls one service (``games.services``)
or preview (``games.previews``) and renders the output serializers (a hand:
``games.representations``, a hand just recorded by its fast builder there; a correction and an
undo: ``games.api.outputs``; a preview: the dict ``games.previews`` builds).
Recording honours ``Idempotency-Key`` (``config.idempotency``); ``PUT``/``DELETE`` of a hand need
``If-Match`` (428 without, 412 when stale); a hand entered through a table link keeps the link.

What it does not do: rules (engine), workflows (``games.services``) or query shape (selectors).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from config.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from config.pagination import Pagination
from config.problems import Problem
from games import previews, representations, selectors, services
from games.api import inputs, outputs
from games.api.views import (
    IF_MATCH_PARAMETER,
    OPTIONAL_IF_MATCH_PARAMETER,
    RESET_DEPENDENTS_PARAMETER,
    GameScopedView,
    problem_response,
)


def _table_link_id(request) -> int | None:
    """The table link a request came through (``request.auth`` is then a table grant, read by
    duck typing: games does not import table_links), or None."""
    link = getattr(request.auth, "link", None)
    return getattr(link, "pk", None)


def _hand_record(body) -> dict:
    """A copy of a hand-record request body (POST or PUT); 400 ``invalid_record`` if not an
    object."""
    if not isinstance(body, dict):
        raise Problem(
            code="invalid_record",
            detail=gettext("A hand record is a JSON object."),
            pointer="",
        )
    return dict(body)


def _query_player(request, name: str):
    """A player id from the query string (``?confirmed_by=12``): an int, the text as sent when it
    is not one (the service refuses it), or None."""
    text = request.query_params.get(name)
    if text is None:
        return None
    return int(text) if text.isdigit() else text


def _hand_number(record: dict) -> int | None:
    """Pop the optional ``number`` of a POSTed record; 400 ``invalid_record`` if not positive."""
    number = record.pop("number", None)
    if number is not None and (type(number) is not int or number < 1):
        raise Problem(
            code="invalid_record",
            detail=gettext("number must be a positive integer."),
            pointer="/number",
        )
    return number


class HandsView(GameScopedView):
    """The hands of a game; the response's `ETag` is the game's."""

    pagination_class = Pagination

    @extend_schema(
        operation_id="hands_list",
        summary="The hands of a game, in order",
        responses=representations.HandOutput(many=True),
    )
    def get(self, request, game_id):
        game = self.game
        page = self.paginate_queryset(selectors.list_hands(game=game))
        response = self.get_paginated_response(representations.HandOutput(page, many=True).data)
        response["ETag"] = game.etag
        return response

    @extend_schema(
        operation_id="hands_create",
        summary="Record a hand (trick-winner or card-by-card entry)",
        description="The body is a hand record (trick-winner or card-by-card entry), optionally "
        "with `number`: the hand "
        "number the client believes it is recording. A taken number is 409 `hand_conflict` "
        "with the stored hand in the problem's `hand`.",
        request=inputs.HandRecordInput,
        responses={
            201: representations.HandWithGameOutput,
            **problem_response(
                409,
                "hand_conflict (the stored hand is in `hand`), hand_out_of_sequence, game_over "
                "or idempotency_in_progress",
            ),
            **problem_response(412, "precondition_failed: an If-Match was sent and is stale"),
            **problem_response(422, "idempotency_key_reused"),
        },
        parameters=[IDEMPOTENCY_KEY_PARAMETER, OPTIONAL_IF_MATCH_PARAMETER],
    )
    @idempotent
    def post(self, request, game_id):
        self.game  # noqa: B018 - permission checks ran on it; the service locks it again
        record = _hand_record(request.data)
        number = _hand_number(record)
        hand, outcome = services.record_hand(
            game_id=self.game.pk,
            user=request.user,
            record=record,
            number=number,
            if_match=self.if_match(required=False),
            confirmed_by=record.pop("confirmed_by", None),
            scored_by=record.pop("scored_by", None),
            table_link_id=_table_link_id(request),
        )
        return Response(
            representations.recorded_hand(hand, outcome.game),
            status=status.HTTP_201_CREATED,
            headers={
                "Location": reverse(
                    "games:hand-detail", kwargs={"game_id": hand.game_id, "number": hand.number}
                ),
                "ETag": outcome.game.etag,
            },
        )


class HandDetailView(GameScopedView):
    """One hand. Corrections and undo need `If-Match` with the game's current ETag."""

    @extend_schema(operation_id="hands_retrieve", responses=representations.HandOutput)
    def get(self, request, game_id, number):
        hand = selectors.get_hand(game=self.game, number=number)
        return Response(representations.HandOutput(hand).data, headers={"ETag": self.game.etag})

    @extend_schema(
        operation_id="hands_update",
        summary="Correct a hand; every later total is recomputed",
        request=inputs.HandRecordInput,
        responses={
            200: outputs.CorrectionOutput,
            **problem_response(409, "later_hand_invalid or match_locked"),
            **problem_response(412, "precondition_failed: the If-Match is stale"),
            **problem_response(428, "precondition_required: no If-Match"),
        },
        parameters=[IF_MATCH_PARAMETER, RESET_DEPENDENTS_PARAMETER],
    )
    def put(self, request, game_id, number):
        if_match = self.if_match(required=True)
        record = _hand_record(request.data)
        sent_number = record.pop("number", number)
        if type(sent_number) is not int or sent_number != number:
            raise Problem(
                code="invalid_record",
                detail=gettext("number does not match the URL."),
                pointer="/number",
            )
        hand, outcome = services.correct_hand(
            game_id=self.game.pk,
            number=number,
            user=request.user,
            record=record,
            if_match=if_match,
            reset_dependents=self.reset_dependents(),
            table_link_id=_table_link_id(request),
            confirmed_by=record.pop("confirmed_by", None),
            scored_by=record.pop("scored_by", None),
        )
        body = outputs.CorrectionOutput(
            hand, context={"game": outcome.game, "outcome": outcome}
        ).data
        return Response(body, headers={"ETag": outcome.game.etag})

    @extend_schema(
        operation_id="hands_destroy",
        summary="Undo the last hand",
        responses={
            200: outputs.UndoOutput,
            **problem_response(409, "not_last_hand or match_locked"),
            **problem_response(412, "precondition_failed: the If-Match is stale"),
            **problem_response(428, "precondition_required: no If-Match"),
        },
        parameters=[IF_MATCH_PARAMETER, RESET_DEPENDENTS_PARAMETER],
    )
    def delete(self, request, game_id, number):
        if_match = self.if_match(required=True)
        # Who accepts the undo (confirm_hands): in the body, or in the query for a client that
        # sends no body with DELETE.
        body = request.data if isinstance(request.data, dict) else {}
        hand, outcome = services.undo_last_hand(
            game_id=self.game.pk,
            number=number,
            user=request.user,
            if_match=if_match,
            reset_dependents=self.reset_dependents(),
            table_link_id=_table_link_id(request),
            confirmed_by=body.get("confirmed_by", _query_player(request, "confirmed_by")),
            scored_by=body.get("scored_by", _query_player(request, "scored_by")),
        )
        undo = {
            "undone": hand,
            "game": outcome.game,
            "totals": outcome.game.totals,
            "outcome": outcome,
        }
        return Response(outputs.UndoOutput(undo).data, headers={"ETag": outcome.game.etag})


class HandPreviewView(GameScopedView):
    """A dry run of recording a hand: the same checks and problems as the POST, nothing
    stored (no hand, no history, no idempotency record)."""

    @extend_schema(
        operation_id="hands_preview",
        summary="What recording this hand would do (points, totals, game after); stores nothing",
        request=inputs.HandRecordInput,
        responses={
            200: outputs.HandPreviewOutput,
            **problem_response(409, "hand_conflict, hand_out_of_sequence or game_over"),
            **problem_response(412, "precondition_failed: an If-Match was sent and is stale"),
        },
    )
    def post(self, request, game_id):
        self.game  # noqa: B018 - the permission checks run on it
        record = _hand_record(request.data)
        number = _hand_number(record)
        record.pop("confirmed_by", None)  # who accepts it is asked after the preview
        record.pop("scored_by", None)
        return Response(
            previews.preview_hand(
                game_id=self.game.pk,
                record=record,
                number=number,
                if_match=self.if_match(required=False),
            )
        )


class CorrectionPreviewView(GameScopedView):
    """A dry run of correcting hand `number`: the corrected hand and every later hand's totals
    before and after; nothing stored."""

    @extend_schema(
        operation_id="hands_correction_preview",
        summary="What correcting this hand would change (later totals); stores nothing",
        request=inputs.HandRecordInput,
        responses={
            200: outputs.CorrectionPreviewOutput,
            **problem_response(409, "later_hand_invalid"),
            **problem_response(412, "precondition_failed: an If-Match was sent and is stale"),
        },
    )
    def post(self, request, game_id, number):
        self.game  # noqa: B018 - the permission checks run on it
        record = _hand_record(request.data)
        record.pop("number", None)
        record.pop("confirmed_by", None)
        record.pop("scored_by", None)
        return Response(
            previews.preview_correction(
                game_id=self.game.pk,
                number=number,
                record=record,
                if_match=self.if_match(required=False),
            )
        )

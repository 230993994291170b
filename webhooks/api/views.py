"""HTTP endpoints of webhooks (organisers of the club only, reads included).

``GET/POST /api/clubs/{slug}/webhooks/``: the club's endpoints; register one (its secret is in
the 201 response only). ``DELETE /api/webhooks/{id}/``: deactivate it (its log stays).
``GET /api/webhooks/{id}/deliveries/``: its delivery log, newest first (status, attempts, last
response).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.permissions import ClubOrganiserOnlyPermission
from config.pagination import Pagination
from webhooks import delivery
from webhooks.api.serializers import (
    DeliveryOutput,
    EndpointCreatedOutput,
    EndpointInput,
    EndpointOutput,
)
from webhooks.models import WebhookDelivery, WebhookEndpoint


class ClubEndpointListView(GenericAPIView):
    permission_classes = [ClubOrganiserOnlyPermission]
    queryset = WebhookEndpoint.objects.none()
    pagination_class = None  # a club's few endpoints: a bare list, never paged

    def get_club(self):
        if getattr(self, "_club", None) is None:
            self._club = club_selectors.get_club(slug=self.kwargs["slug"], user=self.request.user)
        return self._club

    @extend_schema(
        operation_id="clubs_webhooks_list",
        responses=EndpointOutput(many=True),
        summary="The club's webhook endpoints (organisers)",
    )
    def get(self, request, slug):
        endpoints = WebhookEndpoint.objects.filter(club=self.get_club()).order_by("id")
        return Response(EndpointOutput(endpoints, many=True).data)

    @extend_schema(
        operation_id="clubs_webhooks_create",
        request=EndpointInput,
        responses={201: EndpointCreatedOutput},
        summary="Register an HTTPS endpoint for some events (organisers)",
    )
    def post(self, request, slug):
        serializer = EndpointInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        endpoint = delivery.register_endpoint(
            club=self.get_club(), user=request.user, **serializer.validated_data
        )
        return Response(EndpointCreatedOutput(endpoint).data, status=status.HTTP_201_CREATED)


class _EndpointView(GenericAPIView):
    permission_classes = [ClubOrganiserOnlyPermission]
    queryset = WebhookDelivery.objects.none()

    def get_endpoint(self) -> WebhookEndpoint:
        if getattr(self, "_endpoint", None) is None:
            self._endpoint = (
                WebhookEndpoint.objects.select_related("club")
                .filter(pk=self.kwargs["endpoint_id"])
                .first()
            )
            if self._endpoint is None:
                raise NotFound()
        return self._endpoint

    def get_club(self):
        return self.get_endpoint().club


class EndpointDetailView(_EndpointView):
    @extend_schema(
        operation_id="webhooks_destroy",
        responses={204: None},
        summary="Deactivate an endpoint; its delivery log stays (organisers)",
    )
    def delete(self, request, endpoint_id):
        delivery.remove_endpoint(endpoint_id=self.get_endpoint().pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryListView(_EndpointView):
    pagination_class = Pagination

    @extend_schema(
        operation_id="webhooks_deliveries",
        responses=DeliveryOutput(many=True),
        summary="The endpoint's delivery log, newest first (organisers)",
    )
    def get(self, request, endpoint_id):
        deliveries = WebhookDelivery.objects.filter(endpoint=self.get_endpoint()).order_by(
            "-created_at", "-id"
        )
        page = self.paginate_queryset(deliveries)
        return self.get_paginated_response(DeliveryOutput(page, many=True).data)

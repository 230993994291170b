"""Serializers of the webhooks API: endpoints (the secret only when created) and deliveries."""

from __future__ import annotations

from rest_framework import serializers

from config.serializers import StrictFieldsMixin


class EndpointInput(StrictFieldsMixin, serializers.Serializer):
    url = serializers.CharField(max_length=500)
    events = serializers.JSONField(
        help_text="Event types: game.finished, match.decided, "
        "round.drawn, standings.updated, settlement.ready."
    )


class EndpointOutput(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.CharField())
    is_active = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class EndpointCreatedOutput(EndpointOutput):
    secret = serializers.CharField(help_text="The HMAC-SHA256 key; shown this once only.")


class DeliveryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    event_id = serializers.UUIDField()
    event_type = serializers.CharField()
    status = serializers.CharField()
    attempts = serializers.IntegerField()
    last_status_code = serializers.IntegerField(allow_null=True)
    last_error = serializers.CharField()
    next_attempt_at = serializers.DateTimeField()
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)

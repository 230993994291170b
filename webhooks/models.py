"""Webhook endpoints of a club and the log of every delivery to them.

What it holds: ``WebhookEndpoint`` — an HTTPS address an organiser registered for some of the
events (``EVENT_TYPES``), with the secret its deliveries are signed with; ``WebhookDelivery`` —
one event for one endpoint: its id (for the receiver's de-duplication), type, body, status,
attempts, the last response and when the next attempt is due; ``WebhookResend`` — the audit of an
organiser sending a dead delivery again.

What it does not do: send (``webhooks.delivery``) or decide which events happen (the
subscribers).

Terms: *event id* — a UUID, the same on every attempt of one delivery (and on a resend); *dead
letter* — a ``failed`` delivery, given up after its attempts; *due* — a pending delivery
whose ``next_attempt_at`` has passed.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

EVENT_TYPES = (
    "game.finished",
    "match.decided",
    "round.drawn",
    "standings.updated",
    "settlement.ready",
)


class WebhookEndpoint(models.Model):
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64, help_text="HMAC-SHA256 key of the signatures.")
    events = models.JSONField(help_text="The event types delivered here.")
    is_active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "id"]

    def __str__(self) -> str:
        return self.url


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed (gave up: the dead letter)"


class WebhookDelivery(models.Model):
    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    event_id = models.UUIDField(default=uuid.uuid4, editable=False)
    event_type = models.CharField(max_length=32)
    body = models.JSONField(help_text="What is posted (the signature covers its exact bytes).")
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    next_attempt_at = models.DateTimeField(db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    resent_at = models.DateTimeField(
        null=True, blank=True, help_text="When an organiser last sent it again (dead letter)."
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "event_id"], name="webhooks_delivery_unique_event"
            )
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.event_type} {self.event_id} to {self.endpoint_id}: {self.status}"


class WebhookResend(models.Model):
    """The audit of a dead delivery sent again: who, when, and what it had come to."""

    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="resends")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    attempts_before = models.PositiveSmallIntegerField()
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"delivery {self.delivery_id} resent by {self.user_id} at {self.created_at:%H:%M}"

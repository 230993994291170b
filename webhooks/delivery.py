"""Publishing an event to a club's webhooks, signing and sending each delivery, retrying.

What it does:
- ``register_endpoint`` / ``remove_endpoint``: an organiser's HTTPS endpoint for some events,
  with a fresh secret (shown once, at registration); ``check_url`` refuses any other address.
- ``publish_event(club_id, event_type, data, key)``: called after the commit of what it
  announces (from the subscribers of ``games.changes``, ``tournaments.changes`` and
  ``settlements.changes``, delivering that change's outbox row: ``config.announce``), it stores
  one delivery per active endpoint listening to the type, and queues each on the commit of those
  rows — so a receiver is never called before the commit of what it hears about. The event id
  is ``uuid5`` of ``key`` (the announcement's key and the type): the same change published
  twice stores each delivery once (unique endpoint and event id).
- ``send_delivery(delivery_id)``: under the delivery's row lock, POST the body with
  ``Jink-Event``, ``Jink-Event-Id`` and ``Jink-Signature: t=<unix time>,v1=<hex>`` where ``v1``
  is HMAC-SHA256 (the endpoint's secret) of ``"<t>.<body bytes>"``. A 2xx delivers it; anything
  else (status, timeout, refused connection) counts an attempt and schedules the next after
  ``RETRY_DELAYS`` (exponential: 10 s, 30 s, 90 s, 4.5 min, 13.5 min, 40.5 min, then hourly; the
  setting ``JINK_WEBHOOK_RETRY_DELAYS``, from the environment, replaces them), until
  ``MAX_ATTEMPTS`` attempts (10; ``JINK_WEBHOOK_MAX_ATTEMPTS``) or a day after the event
  (``GIVE_UP_AFTER``): then it is ``failed``, the dead letter. ``list_due_deliveries`` feeds the
  beat sweep.
- ``list_dead_deliveries(club)`` and ``resend_delivery(club, delivery_id, user)``: the console's
  dead letters and its resend button (audited: ``WebhookResend``).
- ``signature_of(secret, timestamp, body)``: what receivers recompute.

What it does not do: follow redirects, accept plain HTTP (except loopback when
``JINK_WEBHOOKS_ALLOW_LOOPBACK_HTTP`` is on: debug and the tests), or guarantee a single
delivery: a worker killed between the receiver's answer and the commit sends it again, with the
same event id, which receivers use to drop duplicates.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import secrets
import time
import urllib.error
import urllib.request
import uuid
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.problems import Problem
from config.tasks import enqueue
from webhooks.models import (
    EVENT_TYPES,
    DeliveryStatus,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookResend,
)

# Exponential: 10 s, then three times longer each attempt, at most an hour.
RETRY_DELAYS = (10, 30, 90, 270, 810, 2430, 3600)
GIVE_UP_AFTER = datetime.timedelta(days=1)
MAX_ATTEMPTS = 10
# The namespace of the event ids derived from an announcement's key (uuid5).
EVENT_NAMESPACE = uuid.UUID("6a1f0c44-2f59-4d0e-9c1e-4b8f0b9d2a17")
TIMEOUT_SECONDS = 10
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def retry_delays() -> tuple[int, ...]:
    return tuple(getattr(settings, "JINK_WEBHOOK_RETRY_DELAYS", None) or RETRY_DELAYS)


def max_attempts() -> int:
    return int(getattr(settings, "JINK_WEBHOOK_MAX_ATTEMPTS", None) or MAX_ATTEMPTS)


def check_url(url: str) -> str:
    parts = urlsplit(url)
    loopback_ok = getattr(settings, "JINK_WEBHOOKS_ALLOW_LOOPBACK_HTTP", False)
    if parts.scheme == "https" and parts.hostname:
        return url
    if parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS and loopback_ok:
        return url
    raise Problem(
        code="invalid_url",
        pointer="/url",
        detail="A webhook endpoint is an https:// address.",
    )


def register_endpoint(*, club, user, url: str, events: list[str]) -> WebhookEndpoint:
    check_url(url)
    if not isinstance(events, list) or not events:
        raise Problem(
            code="invalid_events",
            pointer="/events",
            detail=f"A non-empty list of event types: {', '.join(EVENT_TYPES)}.",
        )
    for index, event in enumerate(events):
        if event not in EVENT_TYPES:
            raise Problem(
                code="invalid_events",
                pointer=f"/events/{index}",
                detail=f"{event!r} is not one of {', '.join(EVENT_TYPES)}.",
            )
    return WebhookEndpoint.objects.create(
        club=club,
        url=url,
        events=sorted(set(events)),
        secret=secrets.token_hex(32),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


def remove_endpoint(*, endpoint_id: int) -> None:
    WebhookEndpoint.objects.filter(pk=endpoint_id).update(is_active=False)


def event_id_of(key: str | None) -> uuid.UUID:
    """The event id of the event named ``key`` (the same for the same key), or a fresh one."""
    return uuid.uuid4() if key is None else uuid.uuid5(EVENT_NAMESPACE, key)


def publish_event(
    *, club_id: int, event_type: str, data: dict, key: str | None = None
) -> list[int]:
    """Store and queue one delivery per endpoint of the club listening to ``event_type``; with a
    ``key``, an event already stored under it is not stored again (its pending deliveries are
    queued again, which sends nothing twice: ``send_delivery`` decides under the row lock)."""
    assert event_type in EVENT_TYPES, event_type
    endpoints = [
        endpoint
        for endpoint in WebhookEndpoint.objects.filter(club_id=club_id, is_active=True)
        if event_type in endpoint.events
    ]
    if not endpoints:
        return []
    now = timezone.now()
    event_id = event_id_of(key)
    with transaction.atomic():
        deliveries = []
        for endpoint in endpoints:
            delivery = WebhookDelivery(
                endpoint=endpoint,
                event_id=event_id,
                event_type=event_type,
                next_attempt_at=now,
                body={},
            )
            delivery.body = {
                "id": str(delivery.event_id),
                "type": event_type,
                "created": now.isoformat(),
                "data": data,
            }
            deliveries.append(delivery)
        if key is None:
            WebhookDelivery.objects.bulk_create(deliveries)
            ids = [delivery.pk for delivery in deliveries]
        else:  # a second delivery of the same change: the unique (endpoint, event id) holds
            WebhookDelivery.objects.bulk_create(deliveries, ignore_conflicts=True)
            ids = list(
                WebhookDelivery.objects.filter(
                    event_id=event_id,
                    endpoint__in=endpoints,
                    status=DeliveryStatus.PENDING,
                ).values_list("pk", flat=True)
            )
        transaction.on_commit(lambda: _queue(ids))
    return ids


def _queue(ids: list[int]) -> None:
    for delivery_id in ids:
        enqueue("webhooks.deliver_webhook_task", delivery_id)


def signature_of(secret: str, timestamp: int, body: bytes) -> str:
    message = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def _post(url: str, body: bytes, headers: dict) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer, not a delivery: it counts as a failure


def send_delivery(*, delivery_id: int) -> dict:
    """One attempt if the delivery is due; returns ``{"status", "attempts", "retry_in"}``."""
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update(skip_locked=True)
            .select_related("endpoint")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None:
            return {"status": "busy", "attempts": None, "retry_in": None}
        if delivery.status != DeliveryStatus.PENDING or delivery.next_attempt_at > timezone.now():
            return {"status": delivery.status, "attempts": delivery.attempts, "retry_in": None}
        body = json.dumps(delivery.body, sort_keys=True, separators=(",", ":")).encode()
        timestamp = int(time.time())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "Jink-Webhooks/1",
            "Jink-Event": delivery.event_type,
            "Jink-Event-Id": str(delivery.event_id),
            "Jink-Signature": f"t={timestamp},v1="
            f"{signature_of(delivery.endpoint.secret, timestamp, body)}",
        }
        delivery.attempts += 1
        try:
            code = _post(delivery.endpoint.url, body, headers)
            delivery.last_status_code, delivery.last_error = code, ""
        except OSError as error:  # refused, reset, timed out, name not found: all transient
            code = None
            delivery.last_status_code, delivery.last_error = None, str(error)[:300]
        now = timezone.now()
        retry_in = None
        if code is not None and 200 <= code < 300:
            delivery.status, delivery.delivered_at = DeliveryStatus.DELIVERED, now
        else:
            delays = retry_delays()
            retry_in = delays[min(delivery.attempts - 1, len(delays) - 1)]
            next_attempt = now + datetime.timedelta(seconds=retry_in)
            since = delivery.resent_at or delivery.created_at
            if delivery.attempts >= max_attempts() or next_attempt - since > GIVE_UP_AFTER:
                delivery.status, retry_in = DeliveryStatus.FAILED, None  # the dead letter
            else:
                delivery.next_attempt_at = next_attempt
        delivery.save()
    return {"status": delivery.status, "attempts": delivery.attempts, "retry_in": retry_in}


def list_due_deliveries(limit: int = 500) -> list[int]:
    return list(
        WebhookDelivery.objects.filter(
            status=DeliveryStatus.PENDING, next_attempt_at__lte=timezone.now()
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )


def list_dead_deliveries(*, club, limit: int = 100) -> list[WebhookDelivery]:
    """The club's dead letters (``failed``), newest first, with their endpoints."""
    return list(
        WebhookDelivery.objects.filter(endpoint__club=club, status=DeliveryStatus.FAILED)
        .select_related("endpoint")
        .order_by("-created_at", "-id")[:limit]
    )


def resend_delivery(*, club, delivery_id, user) -> WebhookDelivery:
    """An organiser sends a dead delivery again: the same event id and body, its attempts counted
    afresh (``resent_at`` starts the day it may take), queued now, and a ``WebhookResend`` kept
    (who, when, the attempts it had). 404 ``not_found`` for a delivery of another club's
    endpoints; 409 ``delivery_not_dead`` unless it is ``failed`` (resending twice sends once)."""
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update()
            .filter(pk=delivery_id, endpoint__club=club)
            .first()
        )
        if delivery is None:
            raise Problem(code="not_found", detail="No such delivery of this club's webhooks.")
        if delivery.status != DeliveryStatus.FAILED:
            raise Problem(
                code="delivery_not_dead",
                detail="Only a delivery that was given up can be sent again.",
            )
        now = timezone.now()
        WebhookResend.objects.create(
            delivery=delivery,
            user=user if getattr(user, "is_authenticated", False) else None,
            attempts_before=delivery.attempts,
            last_error=delivery.last_error or (str(delivery.last_status_code or "")),
        )
        delivery.status = DeliveryStatus.PENDING
        delivery.attempts = 0
        delivery.next_attempt_at = now
        delivery.resent_at = now
        delivery.save(update_fields=["status", "attempts", "next_attempt_at", "resent_at"])
        transaction.on_commit(lambda: _queue([delivery.pk]))
    return delivery

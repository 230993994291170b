"""Webhook deliveries: one event id on every attempt, exponential back-off, the dead letter after
``MAX_ATTEMPTS``, and the console's page of dead letters with its resend button (organisers only,
through ``webhooks.delivery.resend_delivery``, audited as a ``WebhookResend``)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.clubs.factories import build_world
from webhooks import delivery as webhook_delivery
from webhooks.delivery import publish_event, register_endpoint, send_delivery
from webhooks.models import DeliveryStatus, WebhookDelivery, WebhookResend

pytestmark = pytest.mark.django_db


@pytest.fixture
def posts(monkeypatch):
    """Every POST the deliveries make (url, headers), each answered by ``posts.answer``."""

    class Posts(list):
        answer = 500

    made = Posts()

    def fake_post(url, body, headers):
        made.append((url, headers))
        return made.answer

    monkeypatch.setattr(webhook_delivery, "_post", fake_post)
    return made


def dead_world(posts, slug="the-local"):
    world = build_world(slug=slug)
    register_endpoint(
        club=world.club,
        user=world.users["organiser"],
        url=f"https://{slug}.example.org/hook",
        events=["game.finished"],
    )
    (delivery_id,) = publish_event(
        club_id=world.club.pk, event_type="game.finished", data={"game": 7}
    )
    outcomes = []
    for _ in range(webhook_delivery.MAX_ATTEMPTS):
        WebhookDelivery.objects.filter(pk=delivery_id).update(next_attempt_at=timezone.now())
        outcomes.append(send_delivery(delivery_id=delivery_id))
    return world, WebhookDelivery.objects.get(pk=delivery_id), outcomes


def test_retries_back_off_exponentially_with_one_event_id_then_the_dead_letter(posts):
    _world, delivery, outcomes = dead_world(posts)
    assert [outcome["retry_in"] for outcome in outcomes] == [
        10, 30, 90, 270, 810, 2430, 3600, 3600, 3600, None
    ]  # fmt: skip
    assert [outcome["status"] for outcome in outcomes] == ["pending"] * 9 + ["failed"]
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("failed", 10, 500)
    assert {headers["Jink-Event-Id"] for _url, headers in posts} == {str(delivery.event_id)}
    assert len(posts) == 10
    # A dead letter is never sent again by the sweep.
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    assert send_delivery(delivery_id=delivery.pk)["status"] == "failed"
    assert delivery.pk not in webhook_delivery.list_due_deliveries()
    assert len(posts) == 10


def test_the_console_lists_the_clubs_dead_letters_and_resends_one(posts, client):
    world, delivery, _ = dead_world(posts)
    _other, elsewhere, _ = dead_world(posts, slug="next-door")
    organiser = world.users["organiser"]
    client.force_login(organiser)
    url = reverse("console:webhooks", args=[world.club.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert [item.pk for item in page.context["deliveries"]] == [delivery.pk]
    assert str(delivery.event_id) in page.content.decode()
    assert "next-door.example.org" not in page.content.decode()

    # Another club's delivery: not found, nothing changed.
    refused = client.post(url, {"action": "resend", "delivery": elsewhere.pk})
    assert refused.status_code == 404
    assert WebhookDelivery.objects.get(pk=elsewhere.pk).status == "failed"

    posts.answer = 204
    sent = client.post(url, {"action": "resend", "delivery": delivery.pk})
    assert (sent.status_code, sent["Location"]) == (302, url)
    again = WebhookDelivery.objects.get(pk=delivery.pk)
    assert (again.status, again.attempts, again.event_id) == ("pending", 0, delivery.event_id)
    assert again.resent_at is not None
    assert list(
        WebhookResend.objects.values_list("delivery_id", "user_id", "attempts_before", "last_error")
    ) == [(delivery.pk, organiser.pk, 10, "500")]
    # The test's transaction never commits, so the send queued on the commit never ran: send it
    # as the worker (or the sweep) would.
    assert send_delivery(delivery_id=delivery.pk) == {
        "status": DeliveryStatus.DELIVERED,
        "attempts": 1,
        "retry_in": None,
    }
    assert posts[-1][1]["Jink-Event-Id"] == str(delivery.event_id)
    assert client.get(url).context["deliveries"] == []

    # Resending what is not dead: 409, shown on the page, nothing written.
    twice = client.post(url, {"action": "resend", "delivery": delivery.pk})
    assert twice.status_code == 409
    assert "Only a delivery that was given up can be sent again." in twice.content.decode()
    assert WebhookResend.objects.count() == 1
    # No action, or a delivery that is not a number: 400.
    assert client.post(url, {}).status_code == 400
    assert client.post(url, {"action": "resend", "delivery": "x"}).status_code == 400


def test_only_organisers_see_the_dead_letters(posts, client):
    world, delivery, _ = dead_world(posts)
    url = reverse("console:webhooks", args=[world.club.slug])
    for role in ("player", "scorekeeper"):
        client.force_login(world.users[role])
        assert client.get(url).status_code == 403
        assert client.post(url, {"action": "resend", "delivery": delivery.pk}).status_code == 403
    assert WebhookDelivery.objects.get(pk=delivery.pk).status == "failed"
    assert WebhookResend.objects.count() == 0

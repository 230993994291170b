"""Celery tasks of webhooks: send one delivery (and schedule its retry), sweep what is due.

``deliver_webhook_task(delivery_id)`` makes one attempt (``webhooks.delivery.send_delivery``)
and, when it failed, queues itself again after the back-off delay; ``sweep_webhooks_task``
(beat, every minute) sends every delivery that is due, so a lost message or a broker outage only
delays a delivery. Both are safe to repeat: the delivery row's lock and status decide, hence
``acks_late``. No Celery autoretry: the back-off is the delivery's own, stored in its row.
"""

from __future__ import annotations

import logging

from celery import shared_task

from config.singleton import one_at_a_time
from webhooks import delivery

logger = logging.getLogger(__name__)


@shared_task(name="webhooks.deliver_webhook_task", acks_late=True)
def deliver_webhook_task(delivery_id: int) -> dict:
    outcome = delivery.send_delivery(delivery_id=delivery_id)
    if outcome["retry_in"] is not None:
        try:
            deliver_webhook_task.apply_async(args=(delivery_id,), countdown=outcome["retry_in"])
        except Exception:  # the broker is down: the sweep sends it when due
            logger.exception("could not schedule the retry of delivery %s", delivery_id)
    return outcome


# No retries: the next periodic run sends whatever this one could not.
@shared_task(name="webhooks.sweep_webhooks_task", acks_late=True)
@one_at_a_time
def sweep_webhooks_task() -> int | None:
    sent = 0
    for delivery_id in delivery.list_due_deliveries():
        sent += delivery.send_delivery(delivery_id=delivery_id)["status"] == "delivered"
    return sent

"""Celery tasks of games: purging old idempotency keys.

What it does:
- ``purge_idempotency_records_task`` (daily, scheduled in ``CELERY_BEAT_SCHEDULE`` of
  config/settings_celery.py): deletes ``Idempotency-Key`` records older than seven days. Safe to run
  twice (a second run finds nothing to delete); it does not retry — tomorrow's run catches up.

What it does not do: change games (the services do) or tell anyone a game changed (the services
announce it through ``games.changes``; the subscribers queue their own tasks).
"""

from __future__ import annotations

import logging

from celery import shared_task

from config.idempotency import purge_expired_idempotency_records
from config.singleton import one_at_a_time

logger = logging.getLogger(__name__)


@shared_task(acks_late=True)
@one_at_a_time
def purge_idempotency_records_task() -> int | None:
    """Delete idempotency keys past their seven days; returns how many were deleted."""
    deleted = purge_expired_idempotency_records()
    logger.info("purged %d expired idempotency records", deleted)
    return deleted

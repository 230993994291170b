"""Celery tasks of games: purging old idempotency keys, and telling tournaments a game changed.

What it does:
- ``purge_idempotency_records_task`` (daily, scheduled in ``CELERY_BEAT_SCHEDULE`` of
  config/settings.py): deletes ``Idempotency-Key`` records older than seven days. Safe to run
  twice (a second run finds nothing to delete); it does not retry — tomorrow's run catches up.
- ``notify_match_progress(match_id)`` is called by the services *after commit* when a game of a
  tournament match finished, changed winner or reopened; it enqueues the tournaments helper's
  ``tournaments.tasks.match_progress_task`` (which recomputes the match from its games, so it is
  safe to run twice). A broker that cannot be reached must not turn a stored hand into an error
  response, so the failure is logged and left to the tournaments' periodic repair.

What it does not do: change games (the services do) or compute match results (tournaments does).
"""

from __future__ import annotations

import logging

from celery import shared_task

from config.idempotency import purge_expired_idempotency_records
from config.tasks import enqueue

logger = logging.getLogger(__name__)


@shared_task(acks_late=True)
def purge_idempotency_records_task() -> int:
    """Delete idempotency keys past their seven days; returns how many were deleted."""
    deleted = purge_expired_idempotency_records()
    logger.info("purged %d expired idempotency records", deleted)
    return deleted


def notify_match_progress(match_id: int) -> None:
    """Enqueue the tournament match's recomputation; never raises (see the module docstring)."""
    # Lazy: tournaments imports games, and its tasks need the app registry.
    from tournaments.tasks import match_progress_task

    # Never raises nor waits on a hung broker; what is not queued stays in the outbox.
    enqueue(match_progress_task, match_id)

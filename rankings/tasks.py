"""Celery tasks of rankings: bring a federation's rankings up to date.

What it does: ``update_rankings_task(federation_id)`` is queued by ``rankings.subscribers`` when a
member club's night or event is settled (a settle-up version stored: the night's games are
finished and its places known); it calls ``rankings.build.update_rankings``. The full rebuild is
the ``rebuild_rankings`` management command.

What it does not do: compute (``rankings.build``). Idempotent (the ranked games and settle-up
versions say what is done; an advisory lock keeps one worker per federation), hence
``acks_late``; transient database errors are retried with back-off, a bounded number of times.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from rankings import build

RETRY = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 30,
    "max_retries": 5,
}


@shared_task(name="rankings.update_rankings_task", **RETRY)
def update_rankings_task(federation_id: int) -> dict:
    return build.update_rankings(federation_id=federation_id)

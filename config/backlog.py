"""A health check of the jobs' backlog for ``/health/workers/``: queue lengths and stale results.

What it does: ``JobsBacklog`` measures, when Redis is the broker, how many messages wait in each
queue the workers consume — the default queue and its standings lane
(``<default>`` + ``JINK_STANDINGS_QUEUE_SUFFIX``), every priority list of each as kombu stores
them — and asks each function named in ``JINK_STALE_SNAPSHOT_AGES`` (kind → dotted path, e.g.
``"standings": "tournaments.snapshots.oldest_stale_age"``) for the age in seconds of its oldest
stored result behind its data (None: none behind). Both appear in the report (the check's
``repr`` is its key): ``JobsBacklog(queue_lengths={'celery': 3, 'celery.standings': 0},
oldest_stale_seconds={'standings': 12.5, 'seasons': None, 'ratings': None})``. It fails (503)
only when a measure cannot be taken; a long queue or an old stale result is for the operator to
read (and alert on) — a backlog is not an outage.

What it does not do: know any app (the settings name the functions) or ping workers (``Ping``).
"""

from __future__ import annotations

import dataclasses

from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils.module_loading import import_string
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable

# kombu's Redis transport keeps one list per priority step: "celery", "celery\x06\x163", ...
PRIORITY_SEPARATOR = "\x06\x16"
PRIORITY_STEPS = (0, 3, 6, 9)


def queue_length(redis_url: str, queue: str) -> int:
    import redis

    client = redis.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
    try:
        keys = [queue] + [f"{queue}{PRIORITY_SEPARATOR}{step}" for step in PRIORITY_STEPS[1:]]
        return sum(client.llen(key) for key in keys)
    finally:
        client.close()


def queue_names(default_queue: str) -> list[str]:
    return [default_queue, default_queue + settings.JINK_STANDINGS_QUEUE_SUFFIX]


def queue_lengths(redis_url: str, default_queue: str) -> dict[str, int]:
    return {queue: queue_length(redis_url, queue) for queue in queue_names(default_queue)}


def oldest_stale_ages() -> dict[str, float | None]:
    """Kind → seconds (one decimal) since its oldest result behind its data was computed."""
    ages = {}
    for kind, path in getattr(settings, "JINK_STALE_SNAPSHOT_AGES", {}).items():
        age = import_string(path)()
        ages[kind] = None if age is None else round(age, 1)
    return ages


@dataclasses.dataclass
class JobsBacklog(HealthCheck):
    queue_lengths: dict[str, int] | None = None
    oldest_stale_seconds: dict[str, float | None] | None = None

    async def run(self) -> None:
        from config.celery import app

        try:
            redis_url = getattr(settings, "REDIS_URL", "")
            if redis_url:
                queue = app.conf.task_default_queue or "celery"
                self.queue_lengths = await sync_to_async(queue_lengths)(redis_url, queue)
            self.oldest_stale_seconds = await sync_to_async(oldest_stale_ages)()
        except Exception as error:  # report, never crash the health page
            raise ServiceUnavailable("cannot measure the backlog") from error

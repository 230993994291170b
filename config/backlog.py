"""A health check of the jobs' backlog for ``/health/workers/``: queue length and stale snapshots.

What it does: ``JobsBacklog`` measures, when Redis is the broker, how many messages wait in the
default queue (every priority list of it, as kombu stores them), and asks each function named in
``JINK_STALE_SNAPSHOT_AGES`` (dotted paths, e.g. ``tournaments.snapshots.oldest_stale_age``) for
the age in seconds of its oldest snapshot behind its data. Both appear in the report (the check's
``repr`` is its key): ``JobsBacklog(queue_length=3, oldest_stale_snapshot_seconds=12.5)``. It
fails (503) only when a measure cannot be taken; a long queue or an old stale snapshot is for the
operator to read (and alert on) — a backlog is not an outage.

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


def oldest_stale_age() -> float | None:
    ages = [
        import_string(path)()
        for path in getattr(settings, "JINK_STALE_SNAPSHOT_AGES", ())
    ]
    ages = [age for age in ages if age is not None]
    return round(max(ages), 1) if ages else None


@dataclasses.dataclass
class JobsBacklog(HealthCheck):
    queue_length: int | None = None
    oldest_stale_snapshot_seconds: float | None = None

    async def run(self) -> None:
        from config.celery import app

        try:
            redis_url = getattr(settings, "REDIS_URL", "")
            if redis_url:
                queue = app.conf.task_default_queue or "celery"
                self.queue_length = await sync_to_async(queue_length)(redis_url, queue)
            self.oldest_stale_snapshot_seconds = await sync_to_async(oldest_stale_age)()
        except Exception as error:  # report, never crash the health page
            raise ServiceUnavailable("cannot measure the backlog") from error

"""One run at a time, across every worker: the guard of the periodic sweeps.

What it does: ``one_at_a_time`` wraps the body of a periodic task (a sweep or a repair from
``CELERY_BEAT_SCHEDULE``). On PostgreSQL it first takes a session-level advisory *try*-lock named
after the task; when another worker's run of the same task holds it, the wrapped task returns
``None`` at once (logged) instead of sweeping the same rows a second time. The lock is released
when the run ends, whatever it raised; a worker killed mid-run loses its connection, and the lock
with it, so a dead sweep never blocks the next one.

What it does not do: make a sweep correct (each one is idempotent on its own: the rows it reads
say what is left to do, and the per-row locks of the jobs it calls still apply), queue anything,
or guard the tasks queued after a commit (those coalesce with their own locks). It does not
drop an old message: the beat schedule's ``expires`` does that (config/settings_celery.py).

Terms: *guard* — the advisory lock ``(LOCK_CLASS, crc32 of the task's dotted name)``.

On SQLite (the embedded setup) there is no guard: tasks run in process, one at a time.

Behind a pooler in transaction mode (``DATABASE_POOLER=transaction``) a session lock would stay
on whichever server connection took it, and the unlock go to another: the guard would hold for
good and the sweep never run again. So a guarded task refuses to run there
(``ImproperlyConfigured``): workers and beat connect to PostgreSQL directly
(docs/operations.md, "Past one machine").
"""

from __future__ import annotations

import functools
import logging
import zlib

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, connection

logger = logging.getLogger(__name__)

# The first key of the two-key advisory lock: "SW" for sweeps (unique in the project, beside
# tournaments.snapshots, seasons.league_table and seasons.ratings); the second is the task's name.
LOCK_CLASS = 0x5357


def lock_key(name: str) -> int:
    """The second key of the guard of ``name``: a signed 32-bit integer, as PostgreSQL wants."""
    value = zlib.crc32(name.encode())
    return value - (1 << 32) if value >= 1 << 31 else value


def _try_lock(key: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_CLASS, key])
        return bool(cursor.fetchone()[0])


def _unlock(key: int) -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_CLASS, key])
    except DatabaseError:  # the connection is gone, and the session's lock with it
        logger.warning("could not release the guard %s; its connection is gone", key)


def one_at_a_time(function):
    """Run ``function`` only when no other run of it holds its guard; else return None."""
    name = f"{function.__module__}.{function.__qualname__}"
    key = lock_key(name)

    @functools.wraps(function)
    def guarded(*args, **kwargs):
        if connection.vendor != "postgresql":
            return function(*args, **kwargs)
        if getattr(settings, "DATABASE_POOLER", ""):
            raise ImproperlyConfigured(
                f"{name} takes a session lock: run Celery workers and beat with a direct "
                "DATABASE_URL, not through a transaction pooler (DATABASE_POOLER)"
            )
        if not _try_lock(key):
            logger.info("%s skipped: another run of it is still going", name)
            return None
        try:
            return function(*args, **kwargs)
        finally:
            _unlock(key)

    guarded.guard_key = key
    return guarded

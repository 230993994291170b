"""Tasks of the project itself (not of any app), and the one way to queue a task from a request.

What it does:
- ``ping_task`` answers "pong"; it proves a worker is consuming the queue end to end
  (tests/test_celery.py runs it through a real worker on Redis).
- ``enqueue(task, *args, **kwargs)`` queues a task without ever failing or holding up the caller:
  code that runs after a commit (a subscriber of ``config.announce``, a service's ``on_commit``)
  calls it instead of ``task.delay``. ``task`` is the task's registered name
  (``"tournaments.match_progress_task"``): the apps' services and subscribers never import a
  ``tasks`` module (an import-linter contract), since the tasks import the services. A task object
  is taken too (its name is used). On a real broker it first writes an ``outbox.PendingTask``
  row, then hands the message (with the row's id in a header) to the broker, bounded by the
  broker's connect and socket timeouts (settings: about a second) and without publish retries.
  If the broker refuses, hangs or is down, the row stays, the failure is logged, the broker is
  not tried again by this process for ``BROKER_PAUSE_SECONDS`` (so a hung broker costs one
  timeout, not one per request), and the call returns False at once. The worker deletes the row
  when the task succeeds (``outbox.signals``). With tasks in process (no ``REDIS_URL``) the task
  simply runs (found by name in the app's registry, the apps' ``tasks`` modules imported the
  first time one is missing) and no row is written.
- ``sweep_pending_tasks_task`` (every 15 seconds from ``CELERY_BEAT_SCHEDULE``) queues again
  every pending row that is due: never handed to the broker, lost with a restarted Redis, or
  taken by a worker that was killed. It reads only the due rows (an index on ``due_at``).

- ``sweep_announcements_task`` (every 15 seconds from ``CELERY_BEAT_SCHEDULE``) delivers again
  every ``outbox.Announcement`` row that is due (``config.announce.deliver_due``): a change
  committed whose subscribers never ran (the process died after the commit) or one of which
  raised.

What it does not do: retry a task that raised (the tasks decide their own retries; a failed task
keeps its row and is queued again when due), or keep results (``ignore_result``).

Terms: *due* — a row whose task no worker finished within ``DUE_AFTER_SECONDS`` (far more than
any outbox task takes; they are idempotent, so a late duplicate is harmless).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

from celery import current_app, shared_task
from django.apps import apps
from django.utils import timezone

from config import announce
from config.singleton import one_at_a_time

logger = logging.getLogger(__name__)

HEADER = "pending_task_id"  # outbox.signals reads it
DUE_AFTER_SECONDS = 20
BROKER_PAUSE_SECONDS = 5
SWEEP_BATCH = 500

_pause = threading.Lock()
_broker_paused_until = 0.0


# No retries: there is nothing transient to wait out, and a lost ping is just sent again.
@shared_task(name="config.ping_task")
def ping_task() -> str:
    return "pong"


def _pending_model():
    return apps.get_model("outbox", "PendingTask")


def _broker_paused() -> bool:
    return time.monotonic() < _broker_paused_until


def _pause_broker() -> None:
    global _broker_paused_until
    with _pause:
        _broker_paused_until = time.monotonic() + BROKER_PAUSE_SECONDS


def resume_broker() -> None:
    """Forget a broker failure at once (tests; a process that knows the broker is back)."""
    global _broker_paused_until
    with _pause:
        _broker_paused_until = 0.0


def _publish(name: str, args, kwargs, pending_id: int) -> None:
    current_app.send_task(
        name,
        args=list(args),
        kwargs=dict(kwargs),
        headers={HEADER: pending_id},
        ignore_result=True,  # no subscription to the result store on every publish
        retry=False,  # a publish retry would wait: the sweep is the retry
    )


def _registered(name: str):
    """The task registered as ``name``, importing the apps' ``tasks`` modules if it is not yet
    (in process nothing else imports them: config.celery's discovery waits for a worker). Not
    ``loader.import_default_modules``: its Django fixup would run ``django.setup()`` and the
    system checks again, in a request."""
    if name not in current_app.tasks:
        current_app.loader.autodiscover_tasks([app.name for app in apps.get_app_configs()])
    return current_app.tasks[name]


def enqueue(task, *args, **kwargs) -> bool:
    """Queue the task named ``task`` (or the task itself) with ``*args, **kwargs``; True when the
    broker took it, False (logged, kept in the outbox for the sweep) otherwise. Never raises,
    never waits beyond the broker's timeouts."""
    name = getattr(task, "name", task)
    if current_app.conf.task_always_eager:
        try:
            _registered(name).apply_async(args=args, kwargs=kwargs)
        except Exception:  # a failing task must not fail a committed request
            logger.exception("task %s%r failed in process", name, args)
            return False
        return True
    try:
        pending = _pending_model().objects.create(
            task=name,
            args=list(args),
            kwargs=kwargs,
            due_at=timezone.now() + timedelta(seconds=DUE_AFTER_SECONDS),
            attempts=1,
        )
    except Exception:  # the database is gone: still try the broker, the repairs sweep later
        logger.exception("could not record %s%r in the outbox", name, args)
        pending = None
    if _broker_paused():
        return False
    try:
        _publish(name, args, kwargs, pending.pk if pending else None)
    except Exception as error:  # a down or hung broker must not fail a committed request
        _pause_broker()
        logger.warning("could not enqueue %s%r (%r); left in the outbox", name, args, error)
        if pending is not None:
            _pending_model().objects.filter(pk=pending.pk).update(last_error=repr(error)[:500])
        return False
    return True


@shared_task(name="config.sweep_pending_tasks_task", ignore_result=True)
@one_at_a_time
def sweep_pending_tasks_task() -> int | None:
    """Queue again every due outbox row; returns how many were handed to the broker."""
    model = _pending_model()
    now = timezone.now()
    requeued = 0
    for pending in model.objects.filter(due_at__lte=now)[:SWEEP_BATCH]:
        backoff = min(DUE_AFTER_SECONDS * (2 ** min(pending.attempts, 6)), 3600)
        try:
            _publish(pending.task, pending.args, pending.kwargs, pending.pk)
        except Exception as error:
            model.objects.filter(pk=pending.pk).update(
                last_error=repr(error)[:500], due_at=now + timedelta(seconds=DUE_AFTER_SECONDS)
            )
            logger.warning("sweep: broker refused %s; stopping this sweep", pending.task)
            break  # the broker is down: the next sweep tries again
        model.objects.filter(pk=pending.pk).update(
            attempts=pending.attempts + 1,
            last_error="",
            due_at=now + timedelta(seconds=backoff),
        )
        requeued += 1
    return requeued


@shared_task(name="config.sweep_announcements_task", ignore_result=True)
@one_at_a_time
def sweep_announcements_task() -> int | None:
    """Deliver every due announcement again; returns how many were delivered in full."""
    return announce.deliver_due()

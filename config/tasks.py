"""Tasks of the project itself (not of any app), and the one way to queue a task from a request.

What it does:
- ``ping_task`` answers "pong"; it proves a worker is consuming the queue end to end
  (tests/test_celery.py runs it through a real worker on Redis).
- ``enqueue(task, *args, **kwargs)`` queues a task without ever failing the caller: code that runs
  after a commit (a subscriber of ``games.changes``, a service's ``on_commit``) calls it instead of
  ``task.delay``, so a broker that is down cannot turn a stored write into an error response. It
  returns whether the message was handed to the broker; a failure is logged, and the periodic
  sweeps repair what was not queued.

What it does not do: touch the database or retry by itself.
"""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


# No retries: there is nothing transient to wait out, and a lost ping is just sent again.
@shared_task(name="config.ping_task")
def ping_task() -> str:
    return "pong"


def enqueue(task, *args, **kwargs) -> bool:
    """Queue ``task(*args, **kwargs)``; True when the broker took it, False (logged) otherwise."""
    try:
        task.apply_async(args=args, kwargs=kwargs)
    except Exception:  # a down broker must not fail a committed request
        logger.exception("could not enqueue %s%r", getattr(task, "name", task), args)
        return False
    return True

"""Celery's settings, a part of ``config.settings`` (which imports every upper-case name here).

What it does: Celery's serialisation (JSON only), time limits, prefetch and broker timeouts (a
publish never holds a request up: ``JINK_BROKER_TIMEOUT_SECONDS``, no publish retry), the default
queue (``JINK_CELERY_QUEUE``) and its standings lane (``JINK_STANDINGS_TASKS`` routed to
``<default>.standings`` by ``CELERY_TASK_ROUTES``), the standings refresh's round budget
(``JINK_STANDINGS_MAX_ROUNDS``), and what ``celery -A config beat`` runs
(``CELERY_BEAT_SCHEDULE``: every periodic task, in one place; ``JINK_SWEEP_SECONDS`` and
``JINK_REPAIR_SECONDS`` shorten the sweeps).

What it does not do: choose the broker and result store (``config.settings`` does, from
``REDIS_URL``: Redis, or in process and eager), read the env file (``config.settings`` reads it
before importing this module), or import a task (tasks are named: the settings load before the
apps).

Terms: *standings lane*: the queue of the two steps from a hand to its tournament's standings
snapshot; *sweep*: a periodic task that repairs what a lost message missed.
"""

from __future__ import annotations

from datetime import timedelta

import environ

env = environ.Env()

CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = timedelta(days=1)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task that runs away is killed rather than left to block a worker forever.
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Queuing never holds up a request (config.tasks.enqueue): a broker that hangs or refuses costs
# at most about a second (connect and socket timeouts), and a publish is never retried in the
# request (the outbox sweep is the retry). A message taken by a worker that dies is handed out
# again after the visibility timeout, a little more than the longest task may run.
BROKER_TIMEOUT_SECONDS = env.float("JINK_BROKER_TIMEOUT_SECONDS", default=1.0)
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_TIMEOUT_SECONDS
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": BROKER_TIMEOUT_SECONDS,
    "socket_timeout": BROKER_TIMEOUT_SECONDS,
    "retry_on_timeout": False,
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 30,
    "health_check_interval": 25,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = BROKER_TIMEOUT_SECONDS
CELERY_REDIS_SOCKET_TIMEOUT = BROKER_TIMEOUT_SECONDS
# What `celery -A config beat` runs, all in one place (style.md: something periodic repairs
# what a lost message missed). Task names, not imports: the settings load before the apps.
# The jobs' sweeps run every minute; JINK_SWEEP_SECONDS shortens them (the fault tests use 2).
SWEEP_SECONDS = env.int("JINK_SWEEP_SECONDS", default=60)
# A standings refresh recomputes at most this many times in a row while the data moves, then
# queues itself again behind other work (tournaments.snapshots); the burst test uses 1.
JINK_STANDINGS_MAX_ROUNDS = env.int("JINK_STANDINGS_MAX_ROUNDS", default=5)
# The queue tasks go to and workers consume (a test run uses its own).
CELERY_TASK_DEFAULT_QUEUE = env.str("JINK_CELERY_QUEUE", default="celery")
# The standings lane: the two steps from a hand to its tournament's standings snapshot (the
# match's progress, then the snapshot's refresh) have a queue of their own, "<default>.standings"
# (celery.standings), so they never wait behind season tables, ratings, settle-ups or webhooks.
# `make serve` runs a worker on each queue; one worker may also consume both (-Q celery,
# celery.standings). Routed by name at publish time from the default queue then in force, so a
# test run's own queue gets its own standings lane too.
JINK_STANDINGS_TASKS = frozenset(
    {
        "tournaments.match_progress_task",
        "tournaments.refresh_standings_task",
    }
)
JINK_STANDINGS_QUEUE_SUFFIX = ".standings"


def _route_task(name, args, kwargs, options, task=None, **extra):
    if name in JINK_STANDINGS_TASKS:
        from celery import current_app

        return {"queue": current_app.conf.task_default_queue + JINK_STANDINGS_QUEUE_SUFFIX}
    return None


CELERY_TASK_ROUTES = (_route_task,)


def _periodic(task: str, every: timedelta) -> dict:
    """A beat entry whose message expires after half its interval: a worker too busy to start a
    sweep before then drops it (Celery revokes an expired message unrun) instead of letting
    beat pile up sweeps of the same kind; the next one comes at the next interval anyway."""
    return {"task": task, "schedule": every, "options": {"expires": every.total_seconds() / 2}}


CELERY_BEAT_SCHEDULE = {
    # Idempotency-Key records are kept seven days; a daily purge is enough (games.tasks).
    "games.purge_idempotency_records": _periodic(
        "games.tasks.purge_idempotency_records_task", timedelta(days=1)
    ),
    # A match progress message lost between a finished game and its match only delays the
    # advance by up to five minutes (tournaments.tasks). JINK_REPAIR_SECONDS shortens it (the
    # fault tests: a Redis outage loses messages).
    "tournaments.repair_tournaments": _periodic(
        "tournaments.repair_tournaments_task",
        timedelta(seconds=env.int("JINK_REPAIR_SECONDS", default=300)),
    ),
    # A standings snapshot whose refresh message was lost is recomputed within a minute
    # (tournaments.tasks).
    "tournaments.sweep_standings": _periodic(
        "tournaments.sweep_standings_task", timedelta(seconds=SWEEP_SECONDS)
    ),
    # Season tables behind their games, and clubs with games not yet rated (seasons.tasks).
    "seasons.sweep_seasons": _periodic(
        "seasons.sweep_seasons_task", timedelta(seconds=SWEEP_SECONDS)
    ),
    # Webhook deliveries due (a retry whose message was lost, or queued while Redis was down).
    "webhooks.sweep_webhooks": _periodic(
        "webhooks.sweep_webhooks_task", timedelta(seconds=SWEEP_SECONDS)
    ),
    # A closed event whose settle-up message was lost, and e-mails not yet sent (settlements).
    "settlements.sweep_settlements": _periodic(
        "settlements.sweep_settlements_task", timedelta(seconds=SWEEP_SECONDS)
    ),
    # Tasks queued after a commit that no worker finished (a hung or restarted broker, a killed
    # worker) are queued again every 15 s, so a lost one converges well within a minute (due 20 s
    # after it was queued, then the next sweep; config.tasks). Cheap: an index scan of the due
    # rows of the outbox, usually none.
    "config.sweep_pending_tasks": _periodic(
        "config.sweep_pending_tasks_task", timedelta(seconds=15)
    ),
    # Changes committed whose subscribers never ran (a process killed between the commit and
    # them) or failed: delivered again every 15 s, once due 20 s after the commit (config.announce).
    "config.sweep_announcements": _periodic(
        "config.sweep_announcements_task", timedelta(seconds=15)
    ),
}
# Besides the expiry, each of these tasks runs under config.singleton.one_at_a_time: a sweep
# that finds another run of itself still going (on any worker) returns at once.


# Every setting here (an upper-case name) is one of config.settings'.
__all__ = [name for name in dir() if name.isupper()]

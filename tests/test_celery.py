"""Celery: tasks run in process in the embedded setup, through a real worker on Redis, and beat's
schedule names the periodic tasks."""

from datetime import timedelta

import pytest
from celery.result import AsyncResult, EagerResult

from config.celery import app
from config.tasks import ping_task


@pytest.mark.celery_worker
def test_ping_task_goes_through_a_real_worker_on_redis(celery_worker):
    result = ping_task.delay()

    assert not isinstance(result, EagerResult)
    assert result.get(timeout=20) == "pong"
    assert result.status == "SUCCESS"
    assert app.conf.task_always_eager is False
    assert app.conf.broker_url.startswith("redis://")
    # The worker really consumed it: the result came back through the Redis result store.
    assert AsyncResult(result.id, app=app).get(timeout=5) == "pong"


def test_embedded_setup_runs_tasks_in_process(settings):
    assert settings.CELERY_TASK_ALWAYS_EAGER is True

    result = ping_task.delay()

    assert isinstance(result, EagerResult)
    assert result.get() == "pong"


def test_project_tasks_are_registered():
    app.loader.import_default_modules()

    assert "config.ping_task" in app.tasks


@app.task(name="tests.count_users_task")
def count_users_task() -> int:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.count()


@pytest.mark.celery_worker
def test_worker_sees_what_the_test_committed(celery_worker_with_database, django_user_model):
    django_user_model.objects.create_user(username="mary")
    django_user_model.objects.create_user(username="sean")

    result = count_users_task.delay()

    assert not isinstance(result, EagerResult)
    assert result.get(timeout=20) == 2


def test_beat_schedule_names_every_periodic_task_and_each_is_a_registered_task():
    app.loader.import_default_modules()
    schedule = app.conf.beat_schedule

    # (task, interval, expires in seconds): each message expires after half its interval, so a
    # slow worker drops an old sweep instead of letting them pile up in the queue.
    assert {
        name: (entry["task"], entry["schedule"], entry["options"])
        for name, entry in schedule.items()
    } == {
        "games.purge_idempotency_records": (
            "games.tasks.purge_idempotency_records_task",
            timedelta(days=1),
            {"expires": 43200.0},
        ),
        "tournaments.repair_tournaments": (
            "tournaments.repair_tournaments_task",
            timedelta(minutes=5),
            {"expires": 150.0},
        ),
        "config.sweep_pending_tasks": (
            "config.sweep_pending_tasks_task",
            timedelta(seconds=15),
            {"expires": 7.5},
        ),
        # Changes committed whose subscribers never ran (config.announce's outbox rows).
        "config.sweep_announcements": (
            "config.sweep_announcements_task",
            timedelta(seconds=15),
            {"expires": 7.5},
        ),
        # The jobs' sweeps (docs/jobs.md): every minute unless JINK_SWEEP_SECONDS says otherwise.
        "tournaments.sweep_standings": (
            "tournaments.sweep_standings_task",
            timedelta(minutes=1),
            {"expires": 30.0},
        ),
        "seasons.sweep_seasons": (
            "seasons.sweep_seasons_task",
            timedelta(minutes=1),
            {"expires": 30.0},
        ),
        "webhooks.sweep_webhooks": (
            "webhooks.sweep_webhooks_task",
            timedelta(minutes=1),
            {"expires": 30.0},
        ),
        "settlements.sweep_settlements": (
            "settlements.sweep_settlements_task",
            timedelta(minutes=1),
            {"expires": 30.0},
        ),
    }
    # A typo in a task name would make beat send messages no worker understands.
    assert {entry["task"] for entry in schedule.values()} <= set(app.tasks)

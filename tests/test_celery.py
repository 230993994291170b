"""Celery: tasks run in process in the embedded setup, and through a real worker on Redis."""

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

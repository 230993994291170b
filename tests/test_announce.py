"""``config.announce``, the one way an app announces a change, and ``config.tasks.enqueue`` by a
task's registered name (how the subscribers and services queue work without importing a tasks
module).

The subscribers are this module's functions, named in a setting of the test's own
(``JINK_TEST_SUBSCRIBERS``) by ``override_settings``."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from contextlib import suppress
from pathlib import Path

import pytest
from django.db import transaction
from django.test import override_settings

from config.announce import Announcer, listed
from config.tasks import enqueue

CALLS: list[tuple[str, object]] = []
PREFIX = "tests.test_announce."


def first(change) -> None:
    CALLS.append(("first", change))


def failing(change) -> None:
    CALLS.append(("failing", change))
    raise RuntimeError("a subscriber that breaks")


def last(change) -> None:
    CALLS.append(("last", change))


@pytest.fixture
def announcer():
    CALLS.clear()
    with override_settings(
        JINK_TEST_SUBSCRIBERS=[PREFIX + "first", PREFIX + "failing", PREFIX + "last"]
    ):
        yield Announcer("JINK_TEST_SUBSCRIBERS")


@pytest.mark.django_db
def test_a_change_is_delivered_after_the_commit_in_order_past_a_failing_subscriber(
    announcer, caplog, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        announcer.announce("a change")
        assert CALLS == []  # not before the commit
    assert len(callbacks) == 1
    assert CALLS == [("first", "a change"), ("failing", "a change"), ("last", "a change")]
    # The failing one is logged with what it failed on; the request is not failed.
    assert [(record.name, record.levelname, record.getMessage()) for record in caplog.records] == [
        (
            "config.announce",
            "ERROR",
            f"JINK_TEST_SUBSCRIBERS subscriber {failing!r} failed on 'a change'",
        ),
    ]


@pytest.mark.django_db
def test_a_write_that_rolls_back_announces_nothing(announcer, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with suppress(RuntimeError), transaction.atomic():
            announcer.announce("rolled back")
            raise RuntimeError("the write fails")
    assert (callbacks, CALLS) == ([], [])


def test_the_listed_subscribers_follow_the_setting_and_none_when_unset(announcer):
    assert announcer.subscribers() == (first, failing, last)
    with override_settings(JINK_TEST_SUBSCRIBERS=[PREFIX + "last"]):
        # The imported list is forgotten when the setting changes, and again when it is restored.
        assert listed("JINK_TEST_SUBSCRIBERS") == (last,)
        announcer.deliver("now")
    assert CALLS == [("last", "now")]
    assert announcer.subscribers() == (first, failing, last)
    assert Announcer("JINK_NO_SUCH_SUBSCRIBERS").subscribers() == ()
    Announcer("JINK_NO_SUCH_SUBSCRIBERS").deliver("heard by nobody")  # nothing to call, no error


def test_enqueue_by_name_runs_the_registered_task_in_process(caplog):
    def logged():
        return [
            (record.levelname, record.getMessage())
            for record in caplog.records
            if record.name == "config.tasks"
        ]

    caplog.set_level(logging.INFO, logger="celery.app.trace")
    assert enqueue("config.ping_task") is True
    # It ran, here and now: Celery's trace of the task that succeeded, with what it returned.
    assert [
        (record.args["name"], record.args["return_value"])
        for record in caplog.records
        if record.name == "celery.app.trace"
    ] == [("config.ping_task", "'pong'")]
    assert logged() == []
    # An unknown name is logged and refused, never raised into the caller.
    assert enqueue("config.no_such_task") is False
    assert logged() == [("ERROR", "task config.no_such_task() failed in process")]


def test_enqueue_by_name_finds_a_tasks_module_nothing_imported_yet():
    # A fresh process with tasks in process: Django set up, no tasks module imported by anyone.
    script = textwrap.dedent("""
        import sys
        import django

        django.setup()
        from config.tasks import _registered

        assert "seasons.tasks" not in sys.modules, "imported at start-up"
        task = _registered("seasons.sweep_seasons_task")
        print(task.name, "seasons.tasks" in sys.modules)
    """)
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DJANGO_SECRET_KEY": "x",
        "DATABASE_URL": "",
        "REDIS_URL": "",
    }
    result = subprocess.run(
        [sys.executable, "-c", script],
        env=environment,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "seasons.sweep_seasons_task True\n",
        "",
    )

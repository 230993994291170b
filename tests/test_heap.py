"""The start-up heap is frozen out of the collector's full passes (config.heap): by the function,
by a Celery worker when ready and in each prefork child, and by the WSGI and ASGI applications."""

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from celery.signals import worker_process_init, worker_ready

import config.celery  # noqa: F401 - connects the worker signals
from config.heap import freeze_startup_heap

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    yield
    gc.unfreeze()


def test_freezing_leaves_nothing_for_a_full_collection_to_walk(unfrozen):
    frozen = freeze_startup_heap()

    assert frozen == gc.get_freeze_count()
    assert frozen > 10_000  # this process's imported modules, at least
    assert gc.get_objects(generation=2) == []


@pytest.mark.parametrize(
    "signal", [worker_ready, worker_process_init], ids=["worker ready", "prefork child started"]
)
def test_a_started_worker_freezes_its_heap(unfrozen, signal):
    signal.send(sender=None)

    assert gc.get_freeze_count() > 10_000
    assert gc.get_objects(generation=2) == []


@pytest.mark.parametrize("module", ["config.wsgi", "config.asgi"])
def test_the_loaded_web_application_has_frozen_its_heap(module):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or "jink-test-heap",
    }
    probe = f"import gc, {module}; print(gc.get_freeze_count(), len(gc.get_objects(2)))"
    frozen, in_oldest = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.split()

    assert int(frozen) > 50_000  # Django, DRF and the project, loaded
    assert int(in_oldest) == 0

"""A hung or dead broker never fails or holds up a stored hand, and lost tasks converge.

What it proves, with a Redis of the test's own and real ``celery -A config worker -B`` processes
on the test database:
1. Redis stopped with SIGSTOP (it accepts connections and never answers): a hand POST whose
   after-commit work queues a task answers 201 with the hand stored, within the broker timeouts
   (not the 30 s and more it used to hang), and the task is recorded in the outbox with the error.
2. A worker killed with ``kill -9`` while running a task, then a Redis restart (its queues lost):
   after a new worker starts, every outbox task has run (the outbox is empty and the killed
   task's work is done) within 60 seconds of the kill, through the sweep of beat's schedule.

What it does not do: measure speed (bench/bench_night.py does): the bounds here only tell a hang
from an answer.
"""

from __future__ import annotations

import signal
import time
from datetime import timedelta

import psycopg
import pytest
from django.db import transaction
from django.utils import timezone

from config import tasks
from config.celery import app
from games import services
from games.models import Hand, IdempotencyRecord
from outbox.models import PendingTask
from tests.conftest import _point_celery_at
from tests.games.helpers import build_table
from tests.hardening.services import PrivateRedis, database_url, kill_group, start_worker

# A private Redis and worker processes, hung and killed: slow.
pytestmark = [pytest.mark.redis, pytest.mark.slow]

HANG_BOUND_SECONDS = 10  # a hang is 30 s or forever; an answer within the timeouts is ~1 s
CONVERGENCE_SECONDS = 60


@pytest.fixture
def redis_server():
    server = PrivateRedis()
    server.start()
    yield server
    server.kill()


@pytest.fixture
def celery_on(redis_server):
    previous = _point_celery_at(
        app, broker_url=redis_server.url, result_backend=redis_server.url, task_always_eager=False
    )
    tasks.resume_broker()
    yield app
    _point_celery_at(app, **previous)
    tasks.resume_broker()


def _wait_until(condition, timeout: float, step: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def _worker_waits_on_a_lock(connection) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
        return cursor.fetchone()[0] > 0


def test_a_hung_broker_then_a_killed_worker_and_a_restarted_redis(
    transactional_db, redis_server, celery_on, monkeypatch, tmp_path
):
    table = build_table()
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    record_hand = services.record_hand

    def record_then_queue(**arguments):
        # What a subscriber of games.changes does after the commit of a stored hand.
        stored = record_hand(**arguments)
        transaction.on_commit(lambda: tasks.enqueue(tasks.ping_task))
        return stored

    monkeypatch.setattr(services, "record_hand", record_then_queue)
    worker = start_worker(redis_server.url, tmp_path, name="first")
    try:
        # 1. A hung broker: the hand is stored and answered at once; the task waits in the outbox.
        redis_server.signal(signal.SIGSTOP)
        started = time.monotonic()
        response = table.post_hand(
            game["id"], {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]}
        )
        elapsed = time.monotonic() - started
        print(f"hand POST with Redis stopped: {elapsed:.2f} s")
        assert response.status_code == 201, response.json()
        assert elapsed < HANG_BOUND_SECONDS
        assert Hand.objects.filter(game_id=game["id"]).count() == 1
        (pending,) = PendingTask.objects.all()
        assert (pending.task, pending.attempts) == ("config.ping_task", 1)
        assert pending.last_error != ""
        redis_server.signal(signal.SIGCONT)
        tasks.resume_broker()

        # 2. A worker killed mid-task: it is stuck on a row the test holds locked.
        old = IdempotencyRecord.objects.create(
            scope="user:1", key="old", fingerprint="f", method="POST", path="/", response_status=201
        )
        IdempotencyRecord.objects.filter(pk=old.pk).update(
            created_at=timezone.now() - timedelta(days=8)
        )
        from games.tasks import purge_idempotency_records_task

        with psycopg.connect(database_url().replace("postgres://", "postgresql://")) as holder:
            holder.execute(
                "SELECT * FROM games_idempotencyrecord WHERE id = %s FOR UPDATE", [old.pk]
            )
            assert tasks.enqueue(purge_idempotency_records_task) is True
            assert _wait_until(lambda: _worker_waits_on_a_lock(holder), 30), "worker never ran it"
            killed_at = time.monotonic()
            kill_group(worker, signal.SIGKILL)
            holder.rollback()
        # 3. Redis restarts with empty queues: whatever was queued in it is gone too.
        redis_server.kill()
        redis_server.start()
        worker = start_worker(redis_server.url, tmp_path, name="second")

        def converged() -> bool:
            return (
                not PendingTask.objects.exists()
                and not IdempotencyRecord.objects.filter(pk=old.pk).exists()
            )

        assert _wait_until(converged, CONVERGENCE_SECONDS - (time.monotonic() - killed_at), 0.5), (
            list(PendingTask.objects.values()),
            (tmp_path / "worker-second.log").read_text()[-2000:],
        )
        print(f"converged {time.monotonic() - killed_at:.1f} s after the kill")
    finally:
        redis_server.signal(signal.SIGCONT)
        kill_group(worker)

"""The real stack for the fault tests: a Redis server of the test's own (so it can be stopped),
a Celery worker process (so it can be killed with SIGKILL; it consumes the standings queue too,
unless ``start(standings_worker=True)`` gives that queue a worker of its own) and a beat
process, all pointed at this test run's PostgreSQL test database and at a queue of its own.

What it does: ``Stack`` starts and stops each process, points this process's Celery app at the
same Redis and queue (so what the API enqueues reaches the worker), and waits for things:
``wait_until(condition, seconds)`` polls a condition; ``waiting_on_a_lock(table)`` says whether a
backend of the test database is waiting on a lock (the worker blocked mid-task).

What it does not do: assert anything (the tests do) or share the developer's Redis: the server
runs on a free port without persistence, and dies with the test module.

Terms: *sweep seconds* — the beat interval of every sweep and repair in the worker's settings
(``JINK_SWEEP_SECONDS``, ``JINK_REPAIR_SECONDS``), short so a lost message is repaired in
seconds.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psycopg
from django.conf import settings
from django.db import connection

from tests.conftest import _point_celery_at
from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
SWEEP_SECONDS = 2


def wait_until(condition, seconds: float, interval: float = 0.2):
    """Poll ``condition`` until it returns something true; that value, or None after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            return None
        time.sleep(interval)


class Stack:
    def __init__(self, folder: Path, environment: dict | None = None):
        self.folder = folder
        self.extra_environment = environment or {}
        self.port = free_port()
        self.queue = f"jink-faults-{os.getpid()}"
        self.redis_url = f"redis://127.0.0.1:{self.port}/0"
        self.redis: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.beat: subprocess.Popen | None = None
        self.standings_worker: subprocess.Popen | None = None
        self.previous_celery: dict | None = None
        self.workers_started = 0

    # Redis ---------------------------------------------------------------------------------

    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        assert wait_until(self._redis_answers, 10), "redis-server did not start"

    def _redis_answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop_redis(self) -> None:
        if self.redis is not None:
            self.redis.terminate()
            self.redis.wait(10)
            self.redis = None

    # Processes -------------------------------------------------------------------------------

    def environment(self) -> dict:
        database = connection.settings_dict
        return {
            **{
                key: value
                for key, value in os.environ.items()
                if not key.startswith(("DJANGO_", "JINK_", "CELERY"))
            },
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_SECRET_KEY": settings.SECRET_KEY,
            "DJANGO_ENV_FILE": "",
            "DJANGO_HTTPS": "false",
            "DJANGO_CONN_MAX_AGE": "0",
            "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:"
            f"{database['PORT'] or 5432}/{database['NAME']}",
            "REDIS_URL": self.redis_url,
            "JINK_CELERY_QUEUE": self.queue,
            "JINK_SWEEP_SECONDS": str(SWEEP_SECONDS),
            "JINK_REPAIR_SECONDS": str(SWEEP_SECONDS),
            "JINK_WEBHOOKS_ALLOW_LOOPBACK_HTTP": "true",
            "JINK_WEBHOOK_RETRY_DELAYS": "1",
            **self.extra_environment,
        }

    def _celery(self, *arguments: str, log: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *arguments],
            cwd=ROOT,
            env=self.environment(),
            stdout=open(self.folder / log, "ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a prefork worker's children are killed with it
        )

    @property
    def standings_queue(self) -> str:
        return self.queue + settings.JINK_STANDINGS_QUEUE_SUFFIX

    def _start_worker(
        self, queues: list[str], name: str, log: str, concurrency: int = 1
    ) -> subprocess.Popen:
        pool = (
            ["--pool=solo"]
            if concurrency == 1
            else ["--pool=prefork", f"--concurrency={concurrency}"]
        )
        process = self._celery(
            "worker",
            *pool,
            "-Q",
            ",".join(queues),
            "-n",
            name,
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            log=log,
        )
        from config.celery import app

        ready = wait_until(
            lambda: app.control.ping(destination=[name], timeout=0.5), 60, interval=0.5
        )
        assert ready, (self.folder / log).read_text()[-3000:]
        return process

    def start_worker(self, concurrency: int = 1) -> None:
        """The worker the fault tests kill: every queue, unless a standings worker runs."""
        self.workers_started += 1
        queues = [self.queue] if self.standings_worker else [self.queue, self.standings_queue]
        self.worker = self._start_worker(
            queues,
            f"faults{self.workers_started}@{socket.gethostname()}",
            "worker.log",
            concurrency,
        )

    def start_standings_worker(self, concurrency: int = 1) -> None:
        """A worker of the standings queue alone; ``concurrency=2``: two processes, as
        `make serve` runs it."""
        self.standings_worker = self._start_worker(
            [self.standings_queue],
            f"standings@{socket.gethostname()}",
            "standings.log",
            concurrency,
        )

    def kill_worker(self) -> None:
        """SIGKILL: no shutdown, no acknowledgement, its database connection just dies."""
        os.kill(self.worker.pid, signal.SIGKILL)
        self.worker.wait(10)
        self.worker = None

    def start_beat(self) -> None:
        self.beat = self._celery(
            "beat",
            "--schedule",
            str(self.folder / "beat-schedule"),
            "--loglevel=INFO",
            log="beat.log",
        )

    def start(
        self,
        *,
        standings_worker: bool = False,
        standings_concurrency: int = 1,
        worker_concurrency: int = 1,
        beat: bool = True,
    ) -> None:
        """Redis, the worker(s) and beat. ``standings_worker``: the standings queue gets a
        worker of its own (the production layout, with ``standings_concurrency=2``); otherwise
        the one worker consumes both. ``beat=False``: no sweep runs at all."""
        from config.celery import app

        self.start_redis()
        # No result store in this (the web's) process: nothing here reads a task's result, and
        # with Redis as result backend each enqueue during the outage would first wait out the
        # result backend's own connection retries (about 20 s a call). Bounding the broker and
        # result-store timeouts of the web processes is the broker hardening's (issue 14).
        self.previous_celery = _point_celery_at(
            app,
            broker_url=self.redis_url,
            result_backend=None,
            task_always_eager=False,
            task_eager_propagates=False,
            task_default_queue=self.queue,
        )
        if standings_worker:
            self.start_standings_worker(standings_concurrency)
        self.start_worker(worker_concurrency)
        if beat:
            self.start_beat()

    def stop(self) -> None:
        from config.celery import app

        for process in (self.worker, self.standings_worker, self.beat):
            if process is not None:
                # Nothing of theirs outlives the test database: no warm shutdown, and a prefork
                # worker's children go with it (its own process group).
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(15)
        self.worker = self.standings_worker = self.beat = None
        self.stop_redis()
        if self.previous_celery is not None:
            _point_celery_at(app, **self.previous_celery)


def side_connection() -> psycopg.Connection:
    """A connection of its own (not Django's), to hold locks while the worker runs."""
    database = connection.settings_dict
    return psycopg.connect(
        host=database["HOST"],
        port=database["PORT"] or 5432,
        user=database["USER"],
        dbname=database["NAME"],
    )


def waiting_on_a_lock(table: str) -> bool:
    """Whether a backend of the test database waits on a lock in a query naming ``table``."""
    with side_connection() as side:
        row = side.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
            "AND wait_event_type = 'Lock' AND query ILIKE %s",
            [connection.settings_dict["NAME"], f"%{table}%"],
        ).fetchone()
    return row[0] > 0


def snapshot_is_a_full_recomputation(tournament_id: int) -> bool:
    """Whether the tournament's stored snapshot is current and equals a full recomputation."""
    from tournaments.models import StandingsSnapshot, Tournament
    from tournaments.standings import compute_standings

    tournament = Tournament.objects.get(pk=tournament_id)
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    if snapshot is None or snapshot.data_version != tournament.data_version:
        return False
    full = compute_standings(tournament)
    return snapshot.body == {
        key: value for key, value in full.items() if key not in ("etag", "computed_at")
    }


def end_other_sessions() -> int:
    """End every backend on the test database but the test's own (the worker's, a side
    connection's); the worker opens a new connection for its next task. Returns how many."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        own = cursor.fetchone()[0]
    with side_connection() as side:
        rows = side.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid NOT IN (pg_backend_pid(), %s)",
            [connection.settings_dict["NAME"], own],
        ).fetchall()
    return len(rows)

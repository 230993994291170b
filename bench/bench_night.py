"""Benchmark: a night of 60 tables through the REST API on the real stack, under faults.

What it does: creates a PostgreSQL database of its own (dropped at the end), migrates it, starts
a Redis of its own, a Celery worker with beat and gunicorn (3 gthread workers of 4 threads: the
sizing of docs/operations.md), then plays a 25 drive of 60 tables (240 players) over 3 rounds
with bench/night.py: tablets retry with the same Idempotency-Key, 5% of requests are dropped
before or after the server answered, 20 phones poll the standings and the bracket. It prints
hands per second, p50/p95/p99 of a hand POST attempt, drops, retries and errors, then the proof
of bench/night.py (every hand stored once, engine replays, ledgers, standings).

What it does not do: assert anything about speed (the proof's assertions are about correctness).

Run: ``make bench`` (needs PostgreSQL at 127.0.0.1:5432 and ``redis-server``).
Environment: ``JINK_NIGHT_TABLES`` (60), ``JINK_NIGHT_ROUNDS`` (3).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TABLES = int(os.environ.get("JINK_NIGHT_TABLES", "60"))
ROUNDS = int(os.environ.get("JINK_NIGHT_ROUNDS", "3"))
DATABASE = f"jink_bench_night_{os.getpid()}"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"


def main() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{DATABASE}"')
    os.environ.update(
        DATABASE_URL=DATABASE_URL,
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ENV_FILE="",
        DJANGO_HTTPS="false",
        DJANGO_STATIC_MANIFEST="false",
    )
    os.environ.setdefault("DJANGO_SECRET_KEY", "jink-bench-secret-not-for-production")
    os.environ.pop("REDIS_URL", None)
    processes = []
    redis = None
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True
        )
        import django

        django.setup()
        from django.conf import settings

        settings.DATABASES["default"]["NAME"] = DATABASE
        from accounts.services import issue_device_token
        from bench.night import current_standings, play_night, prepare_night, verify_night
        from tests.clubs.factories import make_club, make_membership, make_user
        from tests.hardening.services import (
            GUNICORN_THREADS,
            GUNICORN_WORKERS,
            PrivateRedis,
            free_port,
            start_gunicorn,
            start_worker,
        )

        club = make_club("night", public=True)
        organiser = make_user("organiser")
        make_membership(club, organiser, "organiser")
        _, token = issue_device_token(user=organiser, device="night")
        redis = PrivateRedis()
        redis.start()
        folder = Path(tempfile.mkdtemp(prefix="jink-night-"))
        port = free_port()
        processes.append(start_worker(redis.url, folder, name="night"))
        processes.append(start_gunicorn(redis.url, folder, port))
        base_url = f"http://127.0.0.1:{port}"
        started = time.perf_counter()
        tournament = prepare_night(base_url, token, slug="night", tables=TABLES, rounds=ROUNDS)
        print(f"set up {TABLES * 4} players and round 1 in {time.perf_counter() - started:.1f} s")
        figures = play_night(
            base_url,
            token,
            tournament,
            tables=TABLES,
            rounds=ROUNDS,
            drop_rate=0.05,
            pollers=20,
            seed=1,
        )
        standings = current_standings(base_url, token, tournament["id"])
        print(
            f"stack: gunicorn {GUNICORN_WORKERS} workers x {GUNICORN_THREADS} threads "
            "(gthread), 1 Celery worker (solo) with beat, PostgreSQL CONN_MAX_AGE=60 with "
            "health checks, Redis"
        )
        print(
            f"night: {TABLES} tables, {ROUNDS} rounds, {figures['hands']} hands in "
            f"{figures['seconds']:.1f} s = {figures['hands_per_second']:.1f} hands/s"
        )
        print(
            f"hand POST attempt: p50 {figures['p50'] * 1000:.0f} ms, p95 "
            f"{figures['p95'] * 1000:.0f} ms, p99 {figures['p99'] * 1000:.0f} ms"
        )
        print(
            f"requests {figures['attempts']}, dropped before {figures['dropped_before']}, "
            f"after {figures['dropped_after']}, timeouts {figures['timeouts']}, retries "
            f"{figures['retries']}, replayed hands {figures['replays']}, phone polls "
            f"{figures['polls']}, errors {len(figures['errors'])}"
        )
        for error in figures["errors"][:10]:
            print("  error:", error)
        proof = verify_night(tournament["id"], figures["stored"], standings)
        print(
            f"proof: {proof['games']} games, {proof['hands']} hands each stored once and equal "
            "to an engine replay; every ledger sums to zero; every match decided; standings "
            "equal a full recomputation"
        )
    finally:
        from tests.hardening.services import kill_group

        for process in processes:
            kill_group(process)
        if redis is not None:
            redis.kill()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up when migrate failed
            pass
        with psycopg.connect(
            "postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True
        ) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


if __name__ == "__main__":
    main()

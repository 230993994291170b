"""Benchmark: the chaos night — 20 tables through the REST API while the stack keeps breaking.

What it does: creates a PostgreSQL database of its own (dropped at the end), migrates it, and
runs tests/hardening/chaos.py's night on it: a private Redis, a Celery worker with beat, gunicorn
(3 gthread workers of 4 threads, docs/operations.md's sizing), a local webhook receiver; a 25
drive of ``JINK_CHAOS_TABLES`` tables (20) over ``JINK_CHAOS_ROUNDS`` rounds (3), tablets
retrying with the same ``Idempotency-Key``, 5% of requests dropped, 5 phones polling; a chaos
loop (seed ``JINK_CHAOS_SEED``, 1) injecting, every 3 to 10 s until the night is played, a
gunicorn worker's ``kill -9``, the Celery worker's ``kill -9`` (restarted), a Redis restart, Redis
stopped 10 s and the app's database connections ended. Then the tournament is closed and it
prints the faults, the requests, the retries and 503s, the convergence times, and the proof
(tests/hardening/chaos.py's ``check_chaos_night``: no 500, losses 0, duplicates 0, every
snapshot, season table and settle-up a recomputation; it fails when one does not hold) and the
webhook events lost (``webhook_gaps``: printed; 0 expected, the announcements outbox writes
each event in its change's transaction).

What it does not do: judge speed (a faulted night is slow on purpose) or touch the system Redis.

Run: ``make bench`` (needs PostgreSQL at 127.0.0.1:5432 and ``redis-server``).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TABLES = int(os.environ.get("JINK_CHAOS_TABLES", "20"))
ROUNDS = int(os.environ.get("JINK_CHAOS_ROUNDS", "3"))
SEED = int(os.environ.get("JINK_CHAOS_SEED", "1"))
DATABASE = f"jink_bench_chaos_{os.getpid()}"
SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


def machine() -> str:
    cores = os.cpu_count()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return f"{platform.machine()} {cores} cores, Python {platform.python_version()}, load {load}"


def report(night: dict) -> None:
    figures = night["figures"]
    kinds = Counter(fault.kind for fault in night["faults"])
    print(f"machine: {machine()}")
    print(
        f"night: {TABLES} tables, {ROUNDS} rounds, seed {SEED}, {figures['hands']} hands in "
        f"{figures['seconds']:.1f} s"
    )
    print(
        f"faults: {len(night['faults'])} ("
        + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
        + ")"
    )
    print(
        f"requests {figures['attempts']}, dropped before {figures['dropped_before']}, after "
        f"{figures['dropped_after']}, connection errors {figures['timeouts']}, 503 "
        f"{figures['unavailable']}, retries {figures['retries']}, replayed hands "
        f"{figures['replays']}, phone polls {figures['polls']}, errors (500s) "
        f"{len(figures['errors'])}"
    )
    for error in figures["errors"][:10]:
        print("  error:", error)

    def seconds(value) -> str:
        return "NOT within 60 s" if value is None else f"{value:.1f} s"

    print(
        f"converged {seconds(night['converged_after'])} after the last fault (snapshots, season "
        f"table, settle-up, outbox); webhooks {seconds(night['webhooks_after'])}"
    )


def report_proof(proof: dict, gaps: dict) -> None:
    print(
        f"proof: {proof['games']} games, {proof['hands']} hands, losses {proof['losses']}, "
        f"duplicates {proof['duplicates']}, {proof['matches']} matches, settle-up versions "
        f"{proof['settlements']} (each once); standings, snapshot, season table, matches equal "
        "recomputations"
    )
    lost = gaps["late"] + gaps["not_received"] + gaps["never_stored"]
    print(
        f"webhooks: {gaps['deliveries']} deliveries, {gaps['posts']} posts received, "
        f"{gaps['events']} events expected, lost {len(lost)}"
    )
    for gap in lost[:20]:
        print("  lost:", gap)


def main() -> None:
    import psycopg

    with psycopg.connect(SERVER, autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{DATABASE}"')
    os.environ.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ENV_FILE="",
        DJANGO_HTTPS="false",
        DJANGO_STATIC_MANIFEST="false",
    )
    os.environ.setdefault("DJANGO_SECRET_KEY", "jink-bench-secret-not-for-production")
    os.environ.pop("REDIS_URL", None)  # this process: tasks in process, cache in memory
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True
        )
        import django

        django.setup()
        from tests.hardening.chaos import (
            check_chaos_night,
            run_chaos_night,
            webhook_gaps,
        )

        night = run_chaos_night(
            Path(tempfile.mkdtemp(prefix="jink-chaos-")),
            tables=TABLES,
            rounds=ROUNDS,
            seed=SEED,
            pollers=5,
            gap=(3.0, 10.0),
            gunicorn_workers=3,
        )
        report(night)
        gaps = webhook_gaps(night)
        report_proof(check_chaos_night(night), gaps)
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up when migrate failed
            pass
        with psycopg.connect(SERVER, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


if __name__ == "__main__":
    main()

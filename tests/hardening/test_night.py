"""A short night on the real stack, under faults: nothing lost, doubled or out of step.

What it proves: gunicorn (gthread workers) on the test database, a Celery worker with beat on a
Redis of the test's own, and the load generator of bench/night.py playing a drive of 4 tables
over 2 rounds with 5% of the requests dropped before or after the server answered (retried with
the same Idempotency-Key) while phones poll the standings and bracket: every hand the tablets
believe stored is stored exactly once, every game equals an engine replay of its hands, every
ledger sums to zero, every match is decided, and the standings served, once the snapshot has
caught up with the last hand, equal a full recomputation. ``make bench`` runs the same night
at 60 tables with figures (bench_night.py).

What it does not do: measure speed.
"""

from __future__ import annotations

import pytest

from accounts.services import issue_device_token
from tests.clubs.factories import make_club, make_membership, make_user
from tests.hardening.services import (
    PrivateRedis,
    kill_group,
    play_and_prove_night,
    start_gunicorn,
    start_worker,
)
from tests.helpers import free_port

# gunicorn, workers and a private Redis under faults: slow.
pytestmark = [pytest.mark.redis, pytest.mark.slow]

TABLES = 4
ROUNDS = 2


def test_a_short_night_under_faults(transactional_db, tmp_path):
    club = make_club("night", public=True)
    organiser = make_user("organiser")
    make_membership(club, organiser, "organiser")
    _, token = issue_device_token(user=organiser, device="night")
    redis = PrivateRedis()
    redis.start()
    port = free_port()
    server = worker = None
    try:
        worker = start_worker(redis.url, tmp_path, name="night")
        server = start_gunicorn(redis.url, tmp_path, port, workers=2)
        base_url = f"http://127.0.0.1:{port}"
        figures, _ = play_and_prove_night(
            base_url, token, slug="night", tables=TABLES, rounds=ROUNDS, seed=7
        )
        print({key: value for key, value in figures.items() if key != "stored"})
    finally:
        for process in (server, worker):
            if process is not None:
                kill_group(process)
        redis.kill()

"""The web processes behind PgBouncer in transaction mode: the settings work with a pooler.

What it proves: gunicorn (2 processes of 4 threads: up to 8 client connections) reaches the test
database only through Debian's PgBouncer with ``pool_mode = transaction`` and 2 server
connections, with ``DATABASE_POOLER=transaction`` (config/settings.py: no server-side cursors;
Django's psycopg backend prepares no statements); the Celery worker and beat connect directly,
as docs/operations.md ("Past one machine") lays out. The load generator of bench/night.py plays
a drive of 4 tables over 2 rounds, with 5% of the requests dropped and retried and phones
polling the standings: no error, every hand stored exactly once, every game equal to an engine
replay, every match decided, the standings equal to a full recomputation, and PgBouncer never
opened more than its 2 server connections while it carried every transaction.

What it does not do: measure speed (docs/operations.md sizes a federation's peak).
"""

from __future__ import annotations

import pytest

from accounts.services import issue_device_token
from tests.clubs.factories import make_club, make_membership, make_user
from tests.hardening.services import (
    PgBouncer,
    PrivateRedis,
    kill_group,
    pgbouncer_binary,
    play_and_prove_night,
    start_gunicorn,
    start_worker,
)
from tests.helpers import free_port

pytestmark = [pytest.mark.redis, pytest.mark.slow]

TABLES = 4
ROUNDS = 2
POOL_SIZE = 2


@pytest.fixture
def pgbouncer():
    """A running PgBouncer; skipped without Debian's package (failing when CI=true)."""
    from tests.conftest import ENVIRONMENT

    if pgbouncer_binary() is None:
        reason = "pgbouncer is not installed (apt-get install -y pgbouncer, or make test)"
        if ENVIRONMENT.continuous_integration:
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(f"{reason} (with CI=true this fails)")
    bouncer = PgBouncer(pool_size=POOL_SIZE)
    bouncer.start()
    yield bouncer
    bouncer.stop()


def test_a_night_through_pgbouncer_in_transaction_mode(transactional_db, tmp_path, pgbouncer):
    from django.conf import settings

    database = settings.DATABASES["default"]["NAME"]
    club = make_club("pooled", public=True)
    organiser = make_user("organiser")
    make_membership(club, organiser, "organiser")
    _, token = issue_device_token(user=organiser, device="pooled")
    redis = PrivateRedis()
    redis.start()
    port = free_port()
    server = worker = None
    try:
        worker = start_worker(redis.url, tmp_path, name="pooled")
        server = start_gunicorn(
            redis.url,
            tmp_path,
            port,
            workers=2,
            environment={
                "DATABASE_URL": pgbouncer.url(database),
                "DATABASE_POOLER": "transaction",
            },
        )
        base_url = f"http://127.0.0.1:{port}"
        _, proof = play_and_prove_night(
            base_url, token, slug="pooled", tables=TABLES, rounds=ROUNDS, seed=11
        )

        pools = [row for row in pgbouncer.show("POOLS") if row["database"] == database]
        assert len(pools) == 1
        servers = sum(int(pools[0][column]) for column in pools[0] if column.startswith("sv_"))
        assert 1 <= servers <= POOL_SIZE
        stats = [row for row in pgbouncer.show("STATS") if row["database"] == database]
        # Every hand was at least one transaction through the pooler (reads are more).
        assert int(stats[0]["total_xact_count"]) > proof["hands"]
    finally:
        for process in (server, worker):
            if process is not None:
                kill_group(process)
        redis.kill()

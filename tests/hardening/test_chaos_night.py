"""The chaos night, small: 4 tables through the API while the stack is broken again and again.

What it proves: on the real stack (gunicorn, a Celery worker with beat, a private Redis, the
test's PostgreSQL database) a 25 drive of 4 tables over 2 rounds, played by bench/night.py's
tablets with 5% of the requests dropped before or after the server answered (retried with the
same ``Idempotency-Key``) and phones polling, while ``tests/hardening/chaos.py``'s seeded loop
kills a gunicorn worker (kill -9), kills the Celery worker (restarted), restarts Redis, stops
Redis for ten seconds (SIGSTOP) and ends the database connections (pg_terminate_backend) — each
once, in a seeded order, 1 to 3 s apart — and then the tournament is closed through the API:

- no request was answered 500 (a request that met a fault answered 503 with ``Retry-After``),
  nor did the server's log record one;
- every hand the tablets believe stored is stored exactly once and every game equals an engine
  replay, every ledger sums to zero, every match's stored result equals a recomputation, the
  standings served equal a full recomputation (bench/night.py's ``verify_night``);
- within 60 s of the last fault: the standings snapshot equals a full recomputation, the season
  table equals one, the settle-up is stored and the outbox is empty;
- every settle-up version is stored once (versions 1..n, no two with the same nets) and settling
  again stores nothing (the last version is the recomputation);
- every webhook delivery is delivered and its event id received by the test's receiver, and
  every game finished, match decided, round drawn and settle-up version reached it (the
  announcements outbox: an event is written in the change's own transaction, so a fault between
  the commit and its subscriber loses none). Asserted last, so everything above is proven first.

Seeded: the fault order and moments, the drops and the hands come from seeds; the interleaving
with the processes is the machine's. ``make bench`` runs the full night of 20 tables
(bench/bench_chaos.py) and prints the figures.

What it does not do: measure speed.
"""

from __future__ import annotations

import pytest

from tests.hardening.chaos import FAULTS, check_chaos_night, run_chaos_night, webhook_gaps

pytestmark = [pytest.mark.redis, pytest.mark.slow]

TABLES = 4
ROUNDS = 2
SEED = 26


def test_a_small_chaos_night(transactional_db, tmp_path):
    night = run_chaos_night(
        tmp_path, tables=TABLES, rounds=ROUNDS, seed=SEED, pollers=2, gap=(1.0, 3.0), limit=5
    )
    print([(fault.kind, fault.detail) for fault in night["faults"]])
    print({key: value for key, value in night["figures"].items() if key != "stored"})
    print("converged after", night["converged_after"], "webhooks after", night["webhooks_after"])
    assert sorted(fault.kind for fault in night["faults"]) == sorted(FAULTS)  # each once
    proof = check_chaos_night(night)
    assert proof["games"] == TABLES * ROUNDS
    assert proof["matches"] == TABLES * ROUNDS
    assert proof["hands"] == night["figures"]["hands"] > 0
    # Last, so that everything above is proven whatever happens here: the webhook events.
    gaps = webhook_gaps(night)
    lost = gaps["late"] + gaps["not_received"] + gaps["never_stored"]
    assert lost == []
    assert gaps["deliveries"] > 0 and gaps["events"] > 0

"""The scale bench's peak night (issue 27): how many tablets one database holds on this machine.

What it does: ``python bench/scale_night.py --database-url URL --label empty|generated`` starts
the real stack on that database (a clone made by bench/bench_scale.py) as bench/bench_night.py
does — gunicorn (3 gthread workers of 4 threads), a Celery worker with beat, a Redis of its own —
plays a warm-up night, times the trivial request over HTTP (``GET /api/auth/me/``, median of
``TRIVIAL`` requests on the idle stack), then plays nights of bench/night.py's load (a 25 drive,
tablets with no think time, ``Idempotency-Key`` retries, a phone polling for every four tables,
no dropped requests) with 1, 2, 4, ... tablets up to ``JINK_BENCH_SCALE_NIGHT_MAX`` (16),
``ROUNDS`` rounds each, each night in a club of its own, a member of the database's federation
as the generated clubs are (so a finished game's rating and ranking jobs run as they would). It
stops at the first night that meets an error (a failure of the bench), and reports the largest
night whose hands' 99th percentile stayed within 4 times the trivial request (issue 27's peak
night: its tablets and hands a second per core; 0 when not even one tablet does, a figure, not
a failure) and the night of most hands a second per core without error (its tablets and p99).
Last stdout line:
``JSON: {...}`` as bench/scale_paths.py's.

What it does not do: drop requests (bench/bench_night.py proves the retries; this measures the
capacity), or check the nights' results (bench/night.py's ``verify_night`` does, in that bench).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TRIVIAL = 60
RATIO = 4
MOST_TABLETS = int(os.environ.get("JINK_BENCH_SCALE_NIGHT_MAX", "16"))
ROUNDS = 4  # a game of 25 lasts a few hands: four rounds give each tablet a dozen or more


def set_up(database_url: str) -> None:
    os.environ.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ENV_FILE="",
        DJANGO_HTTPS="false",
        DJANGO_DEBUG="false",
        DJANGO_STATIC_MANIFEST="false",
        DJANGO_LOG_LEVEL="ERROR",
    )
    os.environ.setdefault("DJANGO_SECRET_KEY", "jink-bench-secret-not-for-production")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def club_of_the_night(name: str, organiser) -> str:
    """A club for one night, in the federation when there is one; returns its slug."""
    from django.utils import timezone

    from federations.models import Federation, FederationMembership
    from tests.clubs.factories import make_club, make_membership

    club = make_club(f"scale-night-{name}", public=True)
    make_membership(club, organiser, "organiser")
    federation = Federation.objects.order_by("pk").first()
    if federation is not None:
        now = timezone.now()
        FederationMembership.objects.create(
            federation=federation, club=club, invited_at=now, accepted_at=now
        )
    return club.slug


def trivial_median(base_url: str, token: str) -> float:
    import requests

    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"
    timings = []
    for index in range(TRIVIAL + 10):
        started = time.perf_counter()
        response = session.get(f"{base_url}/api/auth/me/", timeout=60)
        elapsed = time.perf_counter() - started
        assert response.status_code == 200, response.text[:300]
        if index >= 10:  # the first requests open the threads' connections
            timings.append(elapsed)
    return statistics.median(timings)


def run(label: str) -> dict:
    from accounts.services import issue_device_token
    from bench.night import play_night, prepare_night
    from tests.clubs.factories import make_user
    from tests.hardening.services import (
        PrivateRedis,
        free_port,
        kill_group,
        start_gunicorn,
        start_worker,
    )

    organiser = make_user("scale-night-organiser")
    _, token = issue_device_token(user=organiser, device="scale night")
    redis = PrivateRedis()
    processes = []
    figures, failures = [], []
    try:
        redis.start()
        folder = Path(tempfile.mkdtemp(prefix="jink-scale-night-"))
        port = free_port()
        processes.append(start_worker(redis.url, folder, name="scale-night"))
        processes.append(start_gunicorn(redis.url, folder, port))
        base_url = f"http://127.0.0.1:{port}"

        def night_of(tablets: int, name: str) -> dict:
            slug = club_of_the_night(name, organiser)
            tournament = prepare_night(base_url, token, slug=slug, tables=tablets, rounds=ROUNDS)
            return play_night(
                base_url,
                token,
                tournament,
                tables=tablets,
                rounds=ROUNDS,
                drop_rate=0.0,
                pollers=max(1, tablets // 4),
                seed=tablets,
            )

        night_of(2, "warm-up")  # every gunicorn thread's first requests: imports, connections
        trivial = trivial_median(base_url, token)
        limit = RATIO * trivial
        print(
            f"[{label}] trivial request over HTTP: median {trivial * 1000:.1f} ms; a night "
            f"holds while its hands' p99 <= {limit * 1000:.0f} ms with no error"
        )
        held = None  # the largest night within the p99 limit, without error
        busiest = None  # the night of most hands a second, without error
        first = None
        tablets = 1
        while tablets <= MOST_TABLETS:
            night = night_of(tablets, str(tablets))
            first = first or night
            holds = night["p99"] <= limit and not night["errors"]
            print(
                f"  {tablets:3} tablets: {night['hands']:4} hands in {night['seconds']:5.1f} s = "
                f"{night['hands_per_second']:5.1f} hands/s; p50 {night['p50'] * 1000:5.0f} ms, "
                f"p99 {night['p99'] * 1000:5.0f} ms; errors {len(night['errors'])}"
                + ("" if holds else "  (p99 over the limit)" if not night["errors"] else "")
            )
            for error in night["errors"][:5]:
                print("    error:", error)
            if night["errors"]:  # a 5xx, or a request that never got an answer: a defect
                failures.append(f"peak night: {len(night['errors'])} error(s) at {tablets} tablets")
                break
            if holds:
                held = night
            if busiest is None or night["hands_per_second"] > busiest["hands_per_second"]:
                busiest = night
            tablets *= 2
        cores = os.cpu_count() or 1
        figures += [
            ["peak night: trivial request over HTTP, median", trivial * 1000, "ms", None],
            ["peak night: 1 tablet, its hands' p99 / trivial", first["p99"] / trivial, "x", None],
            # A capacity, not a limit: none held is a figure to read, not a bench failure.
            [
                "peak night: tablets held (p99 <= 4x trivial)",
                held["tables"] if held else 0,
                "tablets",
                None,
            ],
            [
                "peak night: held, hands a second per core",
                held["hands_per_second"] / cores if held else 0.0,
                "hands/s/core",
                None,
            ],
        ]
        if busiest is not None:
            figures += [
                [
                    "peak night: most hands a second per core, no error",
                    busiest["hands_per_second"] / cores,
                    "hands/s/core",
                    None,
                ],
                ["peak night: ... at tablets", busiest["tables"], "tablets", None],
                ["peak night: ... its hands' p99", busiest["p99"] * 1000, "ms", None],
            ]
    finally:
        for process in processes:
            kill_group(process)
        redis.kill()
        from django.db import connections

        connections.close_all()
    return {"figures": figures, "failures": failures, "plans": {}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--label", required=True)
    arguments = parser.parse_args()
    set_up(arguments.database_url)
    result = run(arguments.label)
    print("JSON: " + json.dumps(result))


if __name__ == "__main__":
    main()

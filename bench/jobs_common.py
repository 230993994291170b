"""What the jobs benchmark's parts share (``bench/bench_jobs.py``; not a bench itself: ``make
bench`` runs only ``bench/bench_*.py``).

What it does: the sizes of the runs, read from the environment (``JINK_BENCH_*``, described in
``bench/bench_jobs.py``), and the helpers every part uses: ``make_club`` (a club of numbered
players), ``swiss`` (a swiss of them), ``deciding_hand`` (a hand that decides a game of 25 at
once), ``counting_queries``, ``best_of``, ``ms``, ``vacuum_when_autovacuum_is_off`` and
``drop_queued_messages`` (the in-memory broker nobody consumes, emptied).

What it does not do: set Django up (``bench.bench_hands_api.set_up_django``, called by
``bench/bench_jobs.py`` before any helper here touches a model: they import Django's parts
inside) or print figures.

Terms: *part*: one of the benchmark's five measurements (``JINK_BENCH_JOBS_PARTS``).
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager

SWISS_ENTRANTS = int(os.environ.get("JINK_BENCH_SWISS_ENTRANTS", "500"))
SWISS_ROUNDS = int(os.environ.get("JINK_BENCH_SWISS_ROUNDS", "12"))
SEASON_GAMES = int(os.environ.get("JINK_BENCH_SEASON_GAMES", "20000"))
WORKER_ENTRANTS = int(os.environ.get("JINK_BENCH_WORKER_ENTRANTS", "500"))
WORKER_ROUNDS = int(os.environ.get("JINK_BENCH_WORKER_ROUNDS", "12"))
WORKER_SAMPLES = int(os.environ.get("JINK_BENCH_WORKER_SAMPLES", "25"))
# Part 5's worker layouts: "one" (one worker on both queues), "serve" (make serve's).
LAYOUTS = os.environ.get("JINK_BENCH_WORKER_LAYOUTS", "one,serve").split(",")
KNOCKOUT_ENTRANTS = int(os.environ.get("JINK_BENCH_KNOCKOUT_ENTRANTS", "1024"))
# Which parts to run, e.g. "1,5" (default: all).
PARTS = {int(part) for part in os.environ.get("JINK_BENCH_JOBS_PARTS", "1,2,3,4,5").split(",")}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def best_of(call, times: int = 3) -> float:
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return min(samples)


def make_club(slug: str, players: int):
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Membership, Player, Role

    club = Club.objects.create(
        name=slug.title(), slug=slug, currency="EUR", time_zone="Europe/Dublin"
    )
    user = get_user_model().objects.create(username=f"{slug}-organiser")
    Membership.objects.create(club=club, user=user, role=Role.ORGANISER)
    Player.objects.bulk_create(
        Player(club=club, display_name=f"Player {index:04d}") for index in range(players)
    )
    return club, user, list(Player.objects.filter(club=club).order_by("pk"))


def swiss(club, user, players, rounds: int):
    from tournaments import services

    return services.create_tournament(
        club=club,
        user=user,
        values={"name": "Bench swiss", "game": "25", "format": "swiss", "round_count": rounds},
        entrants=[{"player": player.pk, "seed": index + 1} for index, player in enumerate(players)],
    )


def deciding_hand(game) -> dict:
    seat = game.side_of_seat.index(0)
    return {"dealer": game.next_dealer, "trump": "S", "trick_winners": [seat] * 5}


@contextmanager
def counting_queries():
    """The SQL statements run inside the block, in a list (a wrapper counts them: the test
    client's request_started resets Django's query log)."""
    from django.db import connection

    executed: list[str] = []

    def count(execute, sql, params, many, context):
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        yield executed


def vacuum_when_autovacuum_is_off() -> bool:
    """``VACUUM ANALYZE`` the database, as autovacuum would have by now, when the server runs
    without it (this machine's PostgreSQL does): otherwise every table keeps its dead rows and
    the planner the row counts of an empty database, so each round's queries slow down for a
    reason no deployed server has. True when it vacuumed."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        if cursor.fetchone()[0] == "on":
            return False
        cursor.execute("VACUUM ANALYZE")
    return True


def drop_queued_messages() -> None:
    """Empty the in-memory broker's queues, as a worker would have: about 1,000 messages a round
    would otherwise pile up in this process, and every full garbage collection walks them."""
    from kombu.transport import memory

    for queue in memory.Channel.queues.values():
        with queue.mutex:
            queue.queue.clear()

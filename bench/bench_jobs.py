"""Benchmark of the jobs: the finishing hand's follow-up round by round, full recomputations
against reading their rows, standings reads from the snapshot, and hand → fresh standings with
real workers in each documented layout.

What it does, on a throwaway database (as ``bench_hands_api.py``):

1. A swiss of ``JINK_BENCH_SWISS_ENTRANTS`` players (default 500), ``JINK_BENCH_SWISS_ROUNDS``
   rounds (default 12), every game decided in one hand. Messages go to an in-memory broker that
   nobody consumes (emptied each round), so the follow-up of each deciding hand is run and timed on
   its own: per round, the median ``progress_match`` of the hands that decide a match (the match
   stored, its round's status), and the last match of the round (its progress draws the next round;
   the best of three, two of them rolled back), with this process's CPU time for it (a figure that
   other load on the machine hardly moves), the part of it spent reading what the draw needs of the
   rounds played (``bridge.swiss_history_of``) and pairing (``swiss.next_round_after``), and its
   queries. Where the server runs without autovacuum (this machine's does), each round starts with
   ``VACUUM ANALYZE``, as autovacuum would have. The goal: flat from round 1 to the last.
2. On that tournament (over 2,000 games by then) and on a knockout of
   ``JINK_BENCH_KNOCKOUT_ENTRANTS`` (default 1,024) played to the end: a full standings
   recomputation (``compute_standings``, as the job runs it and with the ETag digest a direct read
   adds) against reading the same rows (entrants, rounds, matches, slots), and the ratio
   (goal ≤ 3).
3. ``GET /api/tournaments/{id}/standings/`` from the snapshot, at 50 and at 500 entrants: the
   queries of a 200 and of a 304 (goal ≤ 4, the same at both sizes; one beyond the token).
4. A season's league table (``seasons.league_table.compute_season_rows``; printed as "season
   table") over ``JINK_BENCH_SEASON_GAMES`` games (default 20,000, inserted in bulk) against
   reading its rows (goal ≤ 3).
5. With real workers on a Redis of their own (skipped without ``redis-server``), for each
   documented layout (``JINK_BENCH_WORKER_LAYOUTS``, default ``one,serve``): one worker on both
   queues (concurrency 1, docs/operations.md), and `make serve`'s (a default worker and a
   standings worker of two processes each). A swiss of ``JINK_BENCH_WORKER_ENTRANTS`` (500)
   over ``JINK_BENCH_WORKER_ROUNDS`` (12) rounds played through the API, with a league table
   stored, a webhook endpoint on loopback and the ratings, as in production, and the sweeps at
   their production interval: per round, the round's other hands posted back to back (a burst
   far faster than a night's tables finish) and the time until the workers caught up with it,
   then the time from each sampled deciding hand's ``201`` to fresh standings, one at a time
   (p50 and p95 of ``JINK_BENCH_WORKER_SAMPLES``, 25 a round), each task kind's time from the
   workers' logs (ratings and their catch-up, match progress, refresh, "season table": the
   league table's job, webhook), what the refreshes did (stored, refused the lock, queued
   themselves again) and what the sweep stored (goal: p95 ≤ 2 s, flat; the sweep 0).

It prints figures and asserts nothing about speed. ``JINK_BENCH_JOBS_PARTS`` (e.g. ``2,5``) runs
only the parts named (parts 2 and 3 need part 1's swiss, which is then played). The full run
takes about 25 minutes on the 2-core development machine (part 1 about 4, part 2's knockout about
2, part 5 about 8 per layout); a quick run, e.g. ``JINK_BENCH_SWISS_ENTRANTS=40
JINK_BENCH_SWISS_ROUNDS=3 JINK_BENCH_KNOCKOUT_ENTRANTS=32 JINK_BENCH_WORKER_ENTRANTS=40
JINK_BENCH_WORKER_ROUNDS=2 JINK_BENCH_WORKER_SAMPLES=5``, under a minute.

The sizes and the helpers the parts share are in ``bench/jobs_common.py``, part 5 in
``bench/jobs_workers.py`` (neither is a bench of its own).

Run: ``make bench``, or ``.venv/bin/python bench/bench_jobs.py`` from the project root.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_hands_api import choose_database, set_up_django  # noqa: E402
from bench.jobs_common import (  # noqa: E402
    KNOCKOUT_ENTRANTS,
    LAYOUTS,
    PARTS,
    SEASON_GAMES,
    SWISS_ENTRANTS,
    SWISS_ROUNDS,
    WORKER_ENTRANTS,
    best_of,
    counting_queries,
    deciding_hand,
    drop_queued_messages,
    make_club,
    ms,
    swiss,
    vacuum_when_autovacuum_is_off,
)
from bench.jobs_workers import hand_to_fresh_standings, settle_what_nobody_consumed  # noqa: E402


def timed(module, name: str, clock, into: list):
    """Replace ``module.name`` by a wrapper appending each call's ``clock()`` time to ``into``;
    returns what puts the original back."""
    original = getattr(module, name)

    def wrapper(*args, **kwargs):
        started = clock()
        try:
            return original(*args, **kwargs)
        finally:
            into.append(clock() - started)

    setattr(module, name, wrapper)
    return lambda: setattr(module, name, original)


def follow_up_by_round(club, user, players) -> object:
    """Part 1: play the swiss; print the follow-up of the deciding hands round by round."""
    from django.db import transaction

    from games.models import Game, GameStatus
    from games.services import record_hand
    from tournaments import bridge, services
    from tournaments.draw import swiss as swiss_draw
    from tournaments.models import Match

    # Two parts of the last match's follow-up, timed inside it: reading what the draw needs of
    # the rounds played (wall time: most of it is the database's) and the pairing (CPU time).
    history, pairing = [], []
    restore = [
        timed(bridge, "swiss_history_of", time.perf_counter, history),
        timed(swiss_draw, "next_round_after", time.process_time, pairing),
    ]
    tournament = swiss(club, user, players, SWISS_ROUNDS)
    services.draw_next_round(tournament_id=tournament.pk, user=user)
    print(
        f"1. swiss of {len(players)}: the deciding hand's follow-up (progress_match, in "
        "process), per round; for the last match (best of 3, two rolled back) also this "
        "process's CPU time (what other load on the machine does not inflate), the draw's "
        "read of the rounds played, the pairing's CPU time and the queries"
    )

    def follow_up(match_id: int) -> tuple[float, float, float, float, int]:
        """progress_match's wall and CPU time, its draw's read and pairing, its queries."""
        history.clear()
        pairing.clear()
        with counting_queries() as queries:
            started, cpu = time.perf_counter(), time.process_time()
            services.progress_match(match_id=match_id)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        return elapsed, cpu, sum(history), sum(pairing), len(queries)

    for number in range(1, SWISS_ROUNDS + 1):
        drop_queued_messages()
        if vacuum_when_autovacuum_is_off() and number == 1:
            print(
                "   (autovacuum is off on this server: the bench runs VACUUM ANALYZE before "
                "each round, as autovacuum would)"
            )
        matches = list(
            Match.objects.filter(tournament=tournament, round__number=number, is_bye=False)
            .order_by("table")
            .values_list("pk", flat=True)
        )
        follow_ups, last = [], None
        for position, match_id in enumerate(matches):
            game = Game.objects.get(match_link__match_id=match_id, status=GameStatus.IN_PROGRESS)
            record_hand(game_id=game.pk, user=user, record=deciding_hand(game))
            if position < len(matches) - 1:
                follow_ups.append(follow_up(match_id)[0])
                continue
            # The last match: two rehearsals rolled back, then the real one; the fastest counts
            # (one sample of a 0.3 s step moves with the other load on a shared machine).
            samples = []
            for _ in range(2):
                with transaction.atomic():
                    samples.append(follow_up(match_id))
                    transaction.set_rollback(True)
            samples.append(follow_up(match_id))
            last, last_cpu, last_history, last_pairing, _ = min(samples)
            last_queries = samples[-1][-1]  # the rehearsals' count includes their savepoints
        drawn = "next round drawn" if number < SWISS_ROUNDS else "tournament finished"
        print(
            f"   round {number:2d}: deciding hand {ms(statistics.median(follow_ups))} "
            f"(median of {len(follow_ups)}), last match → {drawn} {ms(last)} "
            f"(CPU {ms(last_cpu).strip()}, read {ms(last_history).strip()}, "
            f"pairing {ms(last_pairing).strip()}, {last_queries} queries)"
        )
    for undo in restore:
        undo()
    return tournament


def knockout_played(club, user, players) -> object:
    """A knockout of ``players`` (tables of two), every match decided in one hand, in process:
    for part 2's recomputation at its largest (every round played)."""
    from games.models import Game, GameStatus
    from games.services import record_hand
    from tournaments import services

    tournament = services.create_tournament(
        club=club,
        user=user,
        values={"name": "Bench knockout", "game": "25", "format": "knockout"},
        entrants=[{"player": player.pk, "seed": index + 1} for index, player in enumerate(players)],
    )
    services.draw_next_round(tournament_id=tournament.pk, user=user)
    while True:
        drop_queued_messages()
        games = list(
            Game.objects.filter(
                match_link__match__tournament=tournament, status=GameStatus.IN_PROGRESS
            ).values_list("pk", "match_link__match_id")
        )
        if not games:
            return tournament
        for game_id, match_id in games:
            record_hand(
                game_id=game_id, user=user, record=deciding_hand(Game.objects.get(pk=game_id))
            )
            services.progress_match(match_id=match_id)


def recomputation_against_reading(tournaments: list) -> None:
    """Part 2: a full standings recomputation against reading the same rows, for each."""
    from games.models import Game
    from tournaments import bridge
    from tournaments.models import Tournament
    from tournaments.standings import compute_standings

    print(
        "2. full standings recomputation against reading its rows (entrants, rounds, matches "
        "and slots as models), the best of three (goal ≤ 3x)"
    )
    for tournament in tournaments:
        # As the job reads it: fresh from the database (the draw order stored since).
        tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
        games = Game.objects.filter(match_link__match__tournament=tournament).count()

        def read_rows(tournament=tournament):
            list(tournament.entrants.select_related("player", "team"))
            for round_ in bridge.rounds_with_matches(tournament):
                for match in round_.matches.all():
                    list(match.slots.all())

        job = best_of(lambda tournament=tournament: compute_standings(tournament, with_etag=False))
        full = best_of(lambda tournament=tournament: compute_standings(tournament))
        rows = best_of(read_rows)
        print(
            f"   {tournament.format} of {tournament.entrants.count()}, {games} games: the "
            f"job's {ms(job).strip()} ({job / rows:.1f}x), with the ETag digest "
            f"{ms(full).strip()} ({full / rows:.1f}x), against reading its rows "
            f"{ms(rows).strip()}"
        )


def standings_reads(tournaments: dict) -> None:
    from rest_framework.test import APIClient

    from accounts.services import issue_device_token
    from tournaments.snapshots import refresh_standings

    print("3. GET standings from the snapshot (queries, token check included; time best of 5)")
    for size, (tournament, user) in tournaments.items():
        _, token = issue_device_token(user=user, device="bench-reader")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        refresh_standings(tournament_id=tournament.pk)
        url = f"/api/tournaments/{tournament.pk}/standings/"
        etag = client.get(url).headers["ETag"]
        figures = []
        for headers in ({}, {"If-None-Match": etag}):
            with counting_queries() as executed:
                response = client.get(url, headers=headers)
            elapsed = best_of(lambda c=client, u=url, h=headers: c.get(u, headers=h), 5)
            figures.append(f"{response.status_code}: {len(executed)} queries {ms(elapsed)}")
        print(f"   {size:4d} entrants   " + "   ".join(figures))


def season_against_reading(club, players) -> None:
    from django.utils import timezone

    from games.models import Game, GameSeat, GameStatus, LedgerEntry
    from seasons import league_table

    stamp = timezone.now()
    rules = {"target": 25}
    batch = 2000
    for start in range(0, SEASON_GAMES, batch):
        count = min(batch, SEASON_GAMES - start)
        games = Game.objects.bulk_create(
            Game(
                club=club,
                variant="25",
                house_rules=rules,
                first_dealer=0,
                side_of_seat=[0, 1],
                stake_minor=20,
                status=GameStatus.FINISHED,
                winner_side=0,
                totals=[25, 10],
                next_dealer=1,
                hands_played=1,
                created_at=stamp,
            )
            for _ in range(count)
        )
        seats, ledger = [], []
        for index, game in enumerate(games):
            first = players[(start + index) % len(players)]
            second = players[(start + index * 7 + 1) % len(players)]
            if first.pk == second.pk:
                second = players[(start + index + 1) % len(players)]
            seats += [
                GameSeat(game=game, seat=0, player=first, side=0),
                GameSeat(game=game, seat=1, player=second, side=1),
            ]
            ledger += [
                LedgerEntry(
                    club=club, game=game, player=first, amount_minor=20, reason="stake", booking=1
                ),
                LedgerEntry(
                    club=club, game=game, player=second, amount_minor=-20, reason="stake", booking=1
                ),
            ]
        GameSeat.objects.bulk_create(seats)
        LedgerEntry.objects.bulk_create(ledger)
    date_from, date_to = league_table.season_range()

    def read_rows():
        games = league_table._games(club.pk, date_from, date_to)
        list(
            GameSeat.objects.filter(game__in=games)
            .values_list("player_id", "side", "game__winner_side", "game__totals")
            .iterator(chunk_size=5000)
        )
        list(
            LedgerEntry.objects.filter(game__in=games)
            .values_list("player_id", "amount_minor")
            .iterator(chunk_size=5000)
        )

    full = best_of(lambda: league_table.compute_season_rows(club.pk, date_from, date_to), 2)
    rows = best_of(read_rows, 2)
    print(
        f"4. season table over {SEASON_GAMES} games: {ms(full)} against reading its rows "
        f"{ms(rows)}: {full / rows:.1f}x (goal ≤ 3x)"
    )


def run(description: str) -> None:
    from config.celery import app

    print(f"Jobs benchmark on {description}")
    # Part 1-4: messages go nowhere; what they would run is called and timed explicitly.
    app.conf.update(task_always_eager=False, broker_url="memory://")
    app._pool = None
    club, user, players = make_club("bench-jobs", max(SWISS_ENTRANTS, KNOCKOUT_ENTRANTS))
    if PARTS & {1, 2, 3}:
        big = follow_up_by_round(club, user, players[:SWISS_ENTRANTS])
    if 2 in PARTS:
        knockout_club, knockout_user, knockout_players = make_club(
            "bench-knockout", KNOCKOUT_ENTRANTS
        )
        recomputation_against_reading(
            [
                big,
                knockout_played(knockout_club, knockout_user, knockout_players),
            ]
        )
    if 3 in PARTS:
        small_club, small_user, small_players = make_club("bench-small", 50)
        small = swiss(small_club, small_user, small_players, 3)
        from tournaments import services

        services.draw_next_round(tournament_id=small.pk, user=small_user)
        standings_reads({50: (small, small_user), SWISS_ENTRANTS: (big, user)})
    if 4 in PARTS:
        season_club, _, season_players = make_club("bench-season", 200)
        season_against_reading(season_club, season_players)
    if 5 in PARTS:
        if shutil.which("redis-server") is None:
            print("5. hand → fresh standings with workers: skipped (no redis-server)")
            return
        settle_what_nobody_consumed()
        for layout in LAYOUTS:
            worker_club, worker_user, worker_players = make_club(f"bench-{layout}", WORKER_ENTRANTS)
            hand_to_fresh_standings(layout, worker_club, worker_user, worker_players)


def main() -> None:
    database_url, description, cleanup = choose_database()
    try:
        set_up_django(database_url)
        run(description)
    finally:
        cleanup()


if __name__ == "__main__":
    main()

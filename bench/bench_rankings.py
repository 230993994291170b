"""Benchmark of a federation's rankings: a full rebuild and the incremental update after a night.

What it does: sets Django up on a throwaway database (as bench_hands_api.py: PostgreSQL when it
answers, else SQLite), seeds a small federation with tests/rankings/seed.py — ``CLUBS`` member
clubs of ``PLAYERS`` players each, every player linked (a third of them one person at two clubs),
``NIGHTS`` nights of ``GAMES`` four-handed partnership games each and every night settled with
its places — then prints the time of ``rebuild_rankings`` (from scratch), and of
``update_rankings`` after one more night (its games and its settle-up: the job a night queues),
with the games rated and the queries each took.

It asserts nothing about speed. Run: ``make bench``, or
``.venv/bin/python bench/bench_rankings.py``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_hands_api import choose_database, set_up_django  # noqa: E402

CLUBS = int(os.environ.get("JINK_BENCH_RANKINGS_CLUBS", "2"))
PLAYERS = int(os.environ.get("JINK_BENCH_RANKINGS_PLAYERS", "24"))
NIGHTS = int(os.environ.get("JINK_BENCH_RANKINGS_NIGHTS", "20"))
GAMES = int(os.environ.get("JINK_BENCH_RANKINGS_GAMES", "12"))


def seed(rng: random.Random):
    from tests.clubs.factories import make_club, make_player
    from tests.federations.factories import (
        make_federation,
        make_federation_player,
        make_link,
        make_member,
    )
    from tests.rankings.seed import at

    federation = make_federation("bench-board")
    clubs, people = [], []
    for index in range(CLUBS):
        club = make_club(f"bench-club-{index}")
        make_member(federation, club, accepted_at=at(0))
        players = [make_player(club, f"Player {index}-{n}") for n in range(PLAYERS)]
        for n, player in enumerate(players):
            if index > 0 and n < PLAYERS // 3:  # the same person as at the first club
                make_link(people[n], player)
            else:
                person = make_federation_player(federation, player.display_name)
                if index == 0:
                    people.append(person)
                make_link(person, player)
        clubs.append((club, players))
    return federation, clubs


def play_night(clubs, day: float, rng: random.Random) -> None:
    from tests.rankings.seed import at, finished_game, settled_night

    for club, players in clubs:
        wins = dict.fromkeys(players, 0)
        for game in range(GAMES):
            four = rng.sample(players, 4)
            winner = rng.randrange(2)
            finished_game(club, [four[:2], four[2:]], winner, at(day + game / 100))
            for player in four[2 * winner : 2 * winner + 2]:
                wins[player] += 1
        ordered = sorted(players, key=lambda player: -wins[player])
        settled_night(club, {p: place for place, p in enumerate(ordered, 1)}, at(day + 0.5))


def timed(call):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        result = call()
        seconds = time.perf_counter() - started
    return result, seconds, len(queries)


def main() -> None:
    database_url, description, cleanup = choose_database()
    try:
        set_up_django(database_url)
        from rankings.build import rebuild_rankings, update_rankings

        rng = random.Random(1)
        federation, clubs = seed(rng)
        for night in range(NIGHTS):
            play_night(clubs, 1 + night * 7, rng)
        print(f"database: {description}")
        print(
            f"federation: {CLUBS} clubs x {PLAYERS} players, {NIGHTS} nights x {GAMES} games "
            "per club, every night settled"
        )
        result, seconds, queries = timed(lambda: rebuild_rankings(federation_id=federation.pk))
        print(
            f"rebuild: {result['rated']} games, {result['placings']} placings in "
            f"{seconds * 1000:.0f} ms, {queries} queries"
        )
        play_night(clubs, 1 + NIGHTS * 7, rng)
        result, seconds, queries = timed(lambda: update_rankings(federation_id=federation.pk))
        print(
            f"incremental (one more night): {result['rated']} games, {result['placings']} "
            f"placings in {seconds * 1000:.0f} ms, {queries} queries (rebuilt: {result['rebuilt']})"
        )
    finally:
        cleanup()


if __name__ == "__main__":
    main()

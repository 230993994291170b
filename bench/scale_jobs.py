"""The jobs part of the scale bench (issue 27): the jobs whose work could grow with history.

What it does: on the database given (``--database-url``: a generated one, ``manage.py
generate_history``, or an empty one), measures

- the federation's rankings rebuilt from scratch (``rankings.build.rebuild_rankings``): seconds,
  and how far this process's peak memory grew over what it held before (MB);
- the rankings' incremental update after one more night of the busiest club
  (``update_rankings``: limit 5 s);
- the busiest club's ratings job (``seasons.ratings``) from scratch (``recompute_ratings``) and
  its update after that night (``update_ratings``);
- the busiest club's full export (the console's ``club_export``: its streamed JSON, the view's
  generator ``exchange.archive.club_archive_parts`` + ``json_chunks``, written to /dev/null) in a
  child process, whose peak memory is read by ``/usr/bin/time`` (else ``getrusage``): limit
  200 MB.

The rebuilds, the night and the updates run in one transaction rolled back at the end, so a kept
database is left as it was and nothing piles up across runs. On a server without autovacuum
(this machine's) it runs ``ANALYZE`` first, and on the rankings' tables after their rebuild, as
autovacuum would have: a plan for tables the planner believes empty measures nothing real.
On an empty database (``--label empty``) it first seeds the least that gives the same
figures, once (kept, found again by its slug on the next run): a federation of one club of
eight linked players with one settled night of four games (tests/rankings/seed.py, as
bench/bench_rankings.py).

Run: ``.venv/bin/python bench/scale_jobs.py --database-url URL --label empty|generated`` (the
scale bench, bench/bench_scale.py, runs it in a subprocess per database). Prints figures for a
reader, then as its last line ``JSON: {"figures": [[name, value, unit, limit or null], ...],
"failures": [...], "plans": {}}``. It asserts nothing; a figure over its limit is listed in
``failures``.

What it does not do: generate history, migrate more than ``set_up_django`` does (a no-op on a
migrated database), or keep anything it measured.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEED_SLUG = "scale-jobs-seed"
NIGHT_GAMES = 20  # one more night of the busiest club: ten tables, two games each
UPDATE_LIMIT = 5.0  # seconds: the rankings' update after a night
EXPORT_LIMIT = 200.0  # MB: the club export's process at its peak
RANKING_TABLES = [
    "rankings_rankingstate",
    "rankings_federationrating",
    "rankings_rankedgame",
    "rankings_rankingchange",
    "rankings_placing",
]


class _RollBack(Exception):
    """Raised to roll the measuring transaction back."""


def _rss_mb() -> float:
    """This process's resident memory now (MB)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _peak_mb(who=resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # kB on Linux


def _django_only(database_url: str) -> None:
    """Django set up as ``set_up_django`` does, without its migrate and its imports of every view
    and task (the export's child: its memory is the export's)."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.setdefault("DJANGO_SECRET_KEY", "jink-bench-secret-not-for-production")
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ["DJANGO_HTTPS"] = "false"
    os.environ["DJANGO_ENV_FILE"] = ""
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = ""
    os.environ["DJANGO_LOG_LEVEL"] = "ERROR"
    import django

    django.setup()


def seed_minimum() -> None:
    """A federation of one club, eight linked players and one settled night of four games,
    unless it is there already."""
    from django.db import transaction

    from federations.models import Federation
    from tests.clubs.factories import make_club, make_player
    from tests.federations.factories import (
        make_federation,
        make_federation_player,
        make_link,
        make_member,
    )
    from tests.rankings.seed import at, finished_game, settled_night

    if Federation.objects.filter(slug=SEED_SLUG).exists():
        return
    with transaction.atomic():
        federation = make_federation(SEED_SLUG)
        club = make_club(f"{SEED_SLUG}-club")
        make_member(federation, club, accepted_at=at(0))
        players = [make_player(club, f"Seed Player {n}") for n in range(8)]
        for player in players:
            make_link(make_federation_player(federation, player.display_name), player)
        for game in range(4):
            four = players[game : game + 4]
            finished_game(club, [four[:2], four[2:]], game % 2, at(1 + game / 100))
        settled_night(club, {player: place for place, player in enumerate(players, 1)}, at(1.5))


def busiest() -> tuple[int, int, int] | None:
    """(federation id, its busiest member club's id, that club's finished games), or None."""
    from django.db.models import Count, Q

    from federations.models import FederationMembership
    from games.models import Game, GameStatus

    federation = (
        FederationMembership.objects.filter(accepted_at__isnull=False, left_at__isnull=True)
        .values("federation_id")
        .annotate(clubs=Count("pk"))
        .order_by("-clubs", "federation_id")
        .values_list("federation_id", flat=True)
        .first()
    )
    if federation is None:
        return None
    members = FederationMembership.objects.filter(
        federation_id=federation, accepted_at__isnull=False, left_at__isnull=True
    ).values("club_id")
    club = (
        Game.objects.filter(club_id__in=members)
        .values("club_id")
        .annotate(games=Count("pk", filter=Q(status=GameStatus.FINISHED)))
        .order_by("-games", "club_id")
        .values_list("club_id", "games")
        .first()
    )
    return None if club is None else (federation, *club)


def analyse_when_autovacuum_is_off(tables: list[str] | None = None) -> bool:
    """``ANALYZE`` (the whole database, or ``tables``), as autovacuum would have by now, when the
    server runs without it (this machine's does; a generated database is one big load): else
    the planner plans for empty tables. Only statistics: no ``VACUUM`` of a database this size
    (bench/jobs_common.py's ``vacuum_when_autovacuum_is_off`` vacuums too). True when it ran."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        if cursor.fetchone()[0] == "on":
            return False
        cursor.execute("ANALYZE" + (" " + ", ".join(tables) if tables else ""))
    return True


def one_more_night(club_id: int) -> int:
    """``NIGHT_GAMES`` finished four-handed games of the club a day after the last hand entered
    anywhere, and the night settled with places; returns the games."""
    import datetime
    import random

    from django.db.models import Max

    from clubs.models import Club, Player
    from games.models import Hand
    from tests.rankings.seed import finished_game, settled_night

    club = Club.objects.get(pk=club_id)
    last = Hand.objects.aggregate(last=Max("entered_at"))["last"]
    when = last + datetime.timedelta(days=1)
    players = list(Player.objects.filter(club=club).order_by("pk")[:40])
    rng = random.Random(27)
    for game in range(NIGHT_GAMES):
        four = rng.sample(players, 4)
        finished_game(
            club, [four[:2], four[2:]], rng.randrange(2), when + datetime.timedelta(minutes=game)
        )
    places = {player: place for place, player in enumerate(players, 1)}
    settled_night(club, places, when + datetime.timedelta(hours=3), "Scale bench night")
    return NIGHT_GAMES


def timed(call) -> tuple[object, float]:
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def export_in_child(database_url: str, club_id: int) -> tuple[float, float, str]:
    """(peak MB of the child, seconds, what it said): the club's export, in its own process.

    The peak is the child's own, as ``/usr/bin/time`` reads it (``getrusage(RUSAGE_CHILDREN)``
    in this process would count the memory of this process at the fork: Linux keeps the high
    water mark across ``exec``); without ``/usr/bin/time``, that over-count is what is shown."""
    command = [sys.executable, __file__, "--database-url", database_url]
    command += ["--export-club", str(club_id)]
    timer = Path("/usr/bin/time")
    if timer.exists():
        command = [str(timer), "-f", "PEAK_KB %M", *command]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"the export's child failed: {done.stderr.strip()[-500:]}")
    peaks = [line for line in done.stderr.splitlines() if line.startswith("PEAK_KB ")]
    peak = int(peaks[-1].split()[1]) / 1024 if peaks else _peak_mb(resource.RUSAGE_CHILDREN)
    return peak, seconds, done.stdout.strip()


def export_child(club_id: int) -> None:
    """The child: the club's export as the console streams it, written to /dev/null."""
    from clubs.models import Club
    from exchange import archive

    before = _rss_mb()
    club = Club.objects.get(pk=club_id)
    envelope, games = archive.club_archive_parts(club)
    sent = 0
    with open(os.devnull, "wb") as sink:
        for chunk in archive.json_chunks(envelope, games):
            data = chunk.encode()
            sent += len(data)
            sink.write(data)
    print(f"{sent / 1_048_576:.1f} MB sent; the child held {before:.0f} MB before the export")


def measure(database_url: str, label: str) -> dict:
    from django.db import transaction

    from rankings.build import rebuild_rankings, update_rankings
    from seasons.ratings import recompute_ratings, update_ratings

    figures, failures = [], []

    def figure(name: str, value: float, unit: str, limit: float | None = None) -> None:
        figures.append([name, round(value, 3), unit, limit])
        over = limit is not None and value > limit
        if over:
            failures.append(f"{name}: {value:.2f} {unit} over the limit of {limit:g} {unit}")
        print(f"  {name:<52} {value:>10.2f} {unit:<3}" + (" OVER THE LIMIT" if over else ""))

    if label == "empty":
        seed_minimum()
    if analyse_when_autovacuum_is_off():
        print("  ANALYZE run first: this server runs without autovacuum")
    found = busiest()
    if found is None:
        failures.append("no federation with a member club's games: nothing to measure")
        return {"figures": figures, "failures": failures, "plans": {}}
    federation_id, club_id, club_games = found
    print(
        f"database: {label}; federation {federation_id}, "
        f"busiest club {club_id} ({club_games:,} games)"
    )
    try:
        with transaction.atomic():
            before = _rss_mb()
            built, seconds = timed(lambda: rebuild_rankings(federation_id=federation_id))
            print(f"  rankings: {built['rated']:,} games, {built['placings']:,} placings")
            figure("rankings rebuilt from scratch", seconds, "s")
            figure("rankings rebuild: peak memory growth", max(_peak_mb() - before, 0), "MB")
            analyse_when_autovacuum_is_off(RANKING_TABLES)  # the rows just rewritten
            rated, seconds = timed(lambda: recompute_ratings(club_id=club_id))
            figure("club ratings from scratch (busiest club)", seconds, "s")
            one_more_night(club_id)
            updated, seconds = timed(lambda: update_rankings(federation_id=federation_id))
            if updated["rebuilt"] or updated["rated"] != NIGHT_GAMES:
                failures.append(f"the rankings' update after a night did not append it: {updated}")
            figure("rankings update after one more night", seconds, "s", UPDATE_LIMIT)
            rated, seconds = timed(lambda: update_ratings(club_id=club_id))
            if rated["rated"] != NIGHT_GAMES:
                failures.append(f"the club's ratings update after a night rated {rated}")
            figure("club ratings update after one more night", seconds, "s")
            raise _RollBack
    except _RollBack:
        pass
    peak, seconds, said = export_in_child(database_url, club_id)
    print(f"  club export: {said}")
    figure("club export (streamed JSON)", seconds, "s")
    figure("club export: the child's peak memory", peak, "MB", EXPORT_LIMIT)
    return {"figures": figures, "failures": failures, "plans": {}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--label", choices=["empty", "generated"], default="generated")
    parser.add_argument("--export-club", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.export_club is not None:
        _django_only(options.database_url)
        export_child(options.export_club)
        return
    from bench.bench_hands_api import set_up_django

    try:
        set_up_django(options.database_url)
        result = measure(options.database_url, options.label)
    except Exception as error:  # the bench reports, the caller decides
        result = {"figures": [], "failures": [f"{type(error).__name__}: {error}"], "plans": {}}
    print("JSON: " + json.dumps(result))


if __name__ == "__main__":
    main()

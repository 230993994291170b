"""The scale bench's part for the request paths (issue 27): one database, figures and plans.

What it does: ``python bench/scale_paths.py --database-url URL --label empty|generated`` sets
Django up on that database (a clone made by bench/bench_scale.py: it writes freely), picks the
objects a real reader would open there — the busiest club (most games), the federation player
linked to several clubs with the longest history, the club's latest season table, the
federation's ranking — adds what the measurement needs (an organiser of that club with a device
token, and the page tests' seeded clubs for a tournament with standings: tests/pages/seed.py),
and measures with Django's test client in process:

- recording a hand (``POST /api/games/{id}/hands/``, trick winners, a game of the busiest club's
  players) against the trivial request (``GET /api/auth/me/``), in alternating blocks as
  bench/bench_hands_api.py does: the median ratio (limit 4) and the queries of one hand;
- a game's deciding hand (a game of 25 won in one hand), its after-commit jobs run in process
  (the season table's refresh, the game's rating): the 95th percentile and its queries;
- a standings read (``GET /api/tournaments/{id}/standings/``): its queries (limit 4) and those
  of its 304 (limit 1);
- the club page, the club player's page, the federation player's history page, the season
  table (``GET /api/clubs/{slug}/season/`` for the latest stored season) and the ranking page:
  the 95th percentile in milliseconds (limit 300) and the queries of one request.

For every distinct query of each path it asks PostgreSQL for the plan (``EXPLAIN (FORMAT
JSON)``) and fails the path where a table of over ``BIG_TABLE_ROWS`` rows (``pg_class.reltuples``)
is read in full (a Seq Scan); it keeps the plan of the slowest query (``EXPLAIN ANALYZE`` when it
is a read) and of every failing one. Its last line on stdout is ``JSON: {...}`` with
``figures`` ([name, value, unit, limit or null]), ``same`` (names of figures that must equal the
empty database's), ``failures`` and ``plans`` (bench/bench_scale.py reads it).

What it does not do: judge the figures against each other across databases (bench_scale.py
does), or leave the clone it wrote in (bench_scale.py drops it).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BIG_TABLE_ROWS = 100_000
# Tables past this many rows read in full are shown (not failed): at the default size (20 clubs)
# only the hands are past BIG_TABLE_ROWS, while the seats, ledger and ratings, fifty times
# larger at the full size, are not yet.
SHOWN_TABLE_ROWS = 10_000
HANDS = 200
BLOCK = 20
PAGE_ROUNDS = 40
DECIDING = 20
WARM_UP = 3
EXPLAINABLE = ("select", "with", "insert", "update", "delete")
TEXT_SEQ_SCAN = re.compile(r'Seq Scan on (?:"?\w+"?\.)?"?(\w+)"?')


# -- The plan check (no Django: tests/scale/test_plan_check.py) -------------------------------


def seq_scanned_tables(plan) -> list[str]:
    """The tables a plan reads in full (Seq Scan, parallel or not), in plan order.

    ``plan`` is PostgreSQL's EXPLAIN output: ``FORMAT TEXT`` as a string, or ``FORMAT JSON`` as
    parsed JSON (a list of ``{"Plan": ...}``, or one such dict or plan node) or its text.
    """
    if isinstance(plan, str):
        stripped = plan.lstrip()
        if stripped.startswith(("[", "{")):
            return seq_scanned_tables(json.loads(stripped))
        return TEXT_SEQ_SCAN.findall(plan)
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
            return
        if not isinstance(node, dict):
            return
        if "Plan" in node:
            walk(node["Plan"])
        if node.get("Node Type") == "Seq Scan" and "Relation Name" in node:
            found.append(node["Relation Name"])
        walk(node.get("Plans", []))

    walk(plan)
    return found


def full_reads_of_big_tables(plan, rows: dict[str, float], limit: int = BIG_TABLE_ROWS) -> list:
    """[(table, rows)] for each Seq Scan of a table of more than ``limit`` rows in ``plan``;
    ``rows`` maps a table to its ``pg_class.reltuples`` (an unknown table counts as small)."""
    return [
        (table, rows[table]) for table in seq_scanned_tables(plan) if rows.get(table, 0) > limit
    ]


# -- Measuring ---------------------------------------------------------------------------------


def table_rows() -> dict[str, float]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, reltuples FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE relkind IN ('r', 'p') AND nspname = 'public'"
        )
        return dict(cursor.fetchall())


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


class Paths:
    """Collects the figures, failures and plans of one database."""

    def __init__(self) -> None:
        self.figures: list[list] = []
        self.same: list[str] = []
        self.failures: list[str] = []
        self.plans: dict[str, str] = {}
        self.warnings: list[str] = []
        self.rows = table_rows()

    def figure(self, name: str, value, unit: str, limit=None, *, same: bool = False) -> None:
        self.figures.append([name, value, unit, limit])
        if same:
            self.same.append(name)
        shown = f"{value:.2f}" if isinstance(value, float) else str(value)
        bound = "" if limit is None else f" (limit {limit})"
        print(f"  {name:52s} {shown:>9s} {unit}{bound}")

    def captured(self, request) -> tuple[object, list[dict]]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            response = request()
        return response, list(queries.captured_queries)

    def check_plans(self, path: str, queries: list[dict]) -> None:
        """EXPLAIN each distinct query of the path; fail on a full read of a big table; keep the
        plan of the slowest query and of each failing one."""
        from django.db import connection

        seen = set()
        slowest = None
        for query in queries:
            sql = query["sql"]
            if not sql.lstrip().lower().startswith(EXPLAINABLE) or sql in seen:
                continue
            seen.add(sql)
            if slowest is None or float(query["time"]) > float(slowest["time"]):
                slowest = query
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (FORMAT JSON) " + sql)
                plan = cursor.fetchone()[0]
            plan = json.loads(plan) if isinstance(plan, str) else plan
            for table, rows in full_reads_of_big_tables(plan, self.rows, SHOWN_TABLE_ROWS):
                if rows > BIG_TABLE_ROWS:
                    continue
                self.warnings.append(f"{path}: reads {table} in full ({rows:,.0f} rows)")
                self.plans[f"{path} (full read of {table}, shown)"] = explain_text(sql)
            for table, rows in full_reads_of_big_tables(plan, self.rows):
                self.failures.append(
                    f"{path}: reads {table} in full ({rows:,.0f} rows): {sql[:200]}"
                )
                self.plans[f"{path} (full read of {table})"] = explain_text(sql)
        if slowest is not None:
            self.plans[path] = f"-- {float(slowest['time']) * 1000:.2f} ms when measured\n" + (
                explain_text(slowest["sql"])
            )

    def page(self, path: str, request, *, expected=200, limit_ms=300.0) -> None:
        for _ in range(WARM_UP):
            request()
        timings = []
        for _ in range(PAGE_ROUNDS):
            started = time.perf_counter()
            response = request()
            timings.append(time.perf_counter() - started)
            assert response.status_code == expected, (path, response.status_code)
        started = time.perf_counter()
        response, queries = self.captured(request)
        whole = time.perf_counter() - started
        self.figure(f"{path}: p95", percentile(timings, 0.95) * 1000, "ms", limit_ms)
        self.figure(f"{path}: queries", len(queries), "queries")
        in_database = sum(float(query["time"]) for query in queries)
        print(
            f"    one request: {whole * 1000:.0f} ms, "
            f"of which {in_database * 1000:.0f} ms in queries"
        )
        self.check_plans(path, queries)


def explain_text(sql: str) -> str:
    from django.db import connection, transaction

    analyse = sql.lstrip().lower().startswith(("select", "with"))
    options = "ANALYZE, BUFFERS, FORMAT TEXT" if analyse else "FORMAT TEXT"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN ({options}) " + sql)
        text = "\n".join(row[0] for row in cursor.fetchall())
        transaction.set_rollback(True)
    return f"{sql[:300]}{'...' if len(sql) > 300 else ''}\n{text}"


# -- The objects a reader opens ----------------------------------------------------------------


def pick_objects() -> dict:
    from django.db.models import Count, Q

    from clubs.models import Club
    from federations.models import FederationMembership, FederationPlayer
    from games.models import GameSeat
    from seasons.models import SeasonSnapshot

    club = Club.objects.annotate(game_count=Count("games")).order_by("-game_count", "pk").first()
    federation_player = (
        FederationPlayer.objects.annotate(
            clubs=Count("links", filter=Q(links__unlinked_at__isnull=True), distinct=True)
        )
        .filter(clubs__gt=1)
        .order_by("-clubs", "pk")[:50]
    )
    best = None
    for candidate in federation_player:
        players = list(
            candidate.links.filter(unlinked_at__isnull=True).values_list("player_id", flat=True)
        )
        games = GameSeat.objects.filter(player_id__in=players).count()
        if best is None or games > best[1]:
            best = (candidate, games, players)
    federation_player, history, player_ids = best
    club_player = (
        GameSeat.objects.filter(player__club=club)
        .values("player_id")
        .annotate(games=Count("id"))
        .order_by("-games", "player_id")
        .first()
    )
    season = SeasonSnapshot.objects.filter(club=club).order_by("-date_to", "-pk").first()
    federation = FederationMembership.objects.filter(club=club).select_related("federation")
    return {
        "club": club,
        "club_player_id": club_player["player_id"],
        "club_player_games": club_player["games"],
        "federation": federation.first().federation,
        "federation_player": federation_player,
        "federation_player_games": history,
        "federation_player_clubs": len(player_ids),
        "season": season,
    }


def run(label: str) -> Paths:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.test import APIClient

    from accounts.services import issue_device_token
    from clubs.models import Membership, Player, Role
    from tests.pages.seed import seed_clubs
    from tournaments.models import Tournament

    paths = Paths()
    chosen = pick_objects()
    club = chosen["club"]
    print(
        f"[{label}] busiest club {club.slug} ({club.game_count:,} games); its player "
        f"{chosen['club_player_id']} ({chosen['club_player_games']:,} games); federation player "
        f"{chosen['federation_player'].pk} in {chosen['federation_player_clubs']} clubs "
        f"({chosen['federation_player_games']:,} games); season "
        f"{chosen['season'].date_from}..{chosen['season'].date_to}; federation "
        f"{chosen['federation'].slug}"
    )
    print(
        "  tables past "
        f"{BIG_TABLE_ROWS:,} rows: "
        + (
            ", ".join(
                f"{name} {rows:,.0f}"
                for name, rows in sorted(paths.rows.items(), key=lambda item: -item[1])
                if rows > BIG_TABLE_ROWS
            )
            or "none"
        )
    )
    organiser = get_user_model().objects.create(username="scale-bench-organiser")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    _, token = issue_device_token(user=organiser, device="scale bench tablet")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    browser = Client()
    browser.force_login(organiser)

    # Recording a hand, against the trivial request.
    seats = list(Player.objects.filter(club=club, is_active=True).order_by("pk")[:4])

    def new_game() -> int:
        response = api.post(
            f"/api/clubs/{club.slug}/games/",
            {
                "game": "45",
                "seats": [player.pk for player in seats],
                "teams": [[0, 2], [1, 3]],
                "house_rules": {"target": 1000},
            },
            format="json",
        )
        assert response.status_code == 201, response.content
        return response.json()["id"]

    game = {"id": new_game(), "hand": 0}

    def hand():
        dealer = game["hand"] % 4
        game["hand"] += 1
        return api.post(
            f"/api/games/{game['id']}/hands/",
            {
                "dealer": dealer,
                "trump": "C",
                "trick_winners": [1, 1, 0, 2, 1],
                "best_trump": {"seat": 0, "trick": 2},
            },
            format="json",
        )

    def me():
        return api.get("/api/auth/me/")

    def timed(request) -> float:
        started = time.perf_counter()
        response = request()
        elapsed = time.perf_counter() - started
        assert response.status_code in (200, 201), response.content
        return elapsed

    for _ in range(WARM_UP * 5):
        timed(me)
        timed(hand)
    hands: list[float] = []
    trivial: list[float] = []
    while len(hands) < HANDS:
        hands.extend(timed(hand) for _ in range(BLOCK))
        trivial.extend(timed(me) for _ in range(BLOCK))
    response, queries = paths.captured(hand)
    assert response.status_code == 201, response.content
    paths.figure(
        "trivial request (GET /api/auth/me/): median", statistics.median(trivial) * 1000, "ms"
    )
    paths.figure("recording a hand: median", statistics.median(hands) * 1000, "ms")
    paths.figure(
        "recording a hand: ratio to the trivial request",
        statistics.median(hands) / statistics.median(trivial),
        "x",
        4,
    )
    paths.figure("recording a hand: queries", len(queries), "queries", same=True)
    paths.check_plans("recording a hand", queries)

    # A game's deciding hand: its jobs (the season table's refresh, the game's rating) run in
    # process after the commit, as tasks do without a broker, so they are in the time and queries.
    def decided_game() -> int:
        response = api.post(
            f"/api/clubs/{club.slug}/games/",
            {"game": "25", "seats": [p.pk for p in seats], "teams": [[0, 2], [1, 3]]},
            format="json",
        )
        assert response.status_code == 201, response.content
        return response.json()["id"]

    def deciding_hand(game_id: int):
        return lambda: api.post(
            f"/api/games/{game_id}/hands/",
            {"dealer": 0, "trump": "C", "trick_winners": [1, 1, 1, 1, 1]},
            format="json",
        )

    deciding: list[float] = []
    for index in range(DECIDING + WARM_UP):
        request = deciding_hand(decided_game())
        started = time.perf_counter()
        response = request()
        elapsed = time.perf_counter() - started
        assert response.status_code == 201 and b'"status":"finished"' in response.content, (
            response.content
        )
        if index >= WARM_UP:
            deciding.append(elapsed)
    response, queries = paths.captured(deciding_hand(decided_game()))
    assert response.status_code == 201, response.content
    paths.figure(
        "a game's deciding hand, with its jobs: p95", percentile(deciding, 0.95) * 1000, "ms"
    )
    paths.figure("a game's deciding hand, with its jobs: queries", len(queries), "queries")
    paths.check_plans("a game's deciding hand, with its jobs", queries)

    # A standings read, and its 304.
    seed = seed_clubs()
    cup = seed.tournaments["cup"]
    Tournament.objects.filter(pk=cup.pk).update(is_public=True)
    reader = APIClient()
    url = f"/api/tournaments/{cup.pk}/standings/"
    response, queries = paths.captured(lambda: reader.get(url))
    assert response.status_code == 200, response.content
    paths.figure("standings read: queries", len(queries), "queries", 4, same=True)
    paths.check_plans("standings read", queries)
    etag = response["ETag"]
    response, queries = paths.captured(lambda: reader.get(url, HTTP_IF_NONE_MATCH=etag))
    assert response.status_code == 304, response.status_code
    paths.figure("standings read, 304: queries", len(queries), "queries", 1, same=True)
    paths.check_plans("standings read, 304", queries)

    # The pages of a federation's season.
    season = chosen["season"]
    federation = chosen["federation"]
    paths.page("club page", lambda: browser.get(f"/clubs/{club.slug}/"))
    paths.page(
        "club player's page",
        lambda: browser.get(f"/clubs/{club.slug}/players/{chosen['club_player_id']}/"),
    )
    paths.page(
        "federation player's history page",
        lambda: browser.get(
            f"/f/{federation.slug}/rankings/players/{chosen['federation_player'].pk}/"
        ),
    )
    paths.page(
        "season table (API)",
        lambda: api.get(
            f"/api/clubs/{club.slug}/season/?from={season.date_from}&to={season.date_to}"
        ),
    )
    paths.page("ranking page", lambda: browser.get(f"/f/{federation.slug}/rankings/"))
    return paths


def main() -> None:
    import os

    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--label", required=True)
    arguments = parser.parse_args()
    os.environ["DJANGO_STATIC_MANIFEST"] = "false"  # the pages name their static files
    from bench.bench_hands_api import set_up_django

    set_up_django(arguments.database_url)
    paths = run(arguments.label)
    for warning in paths.warnings:
        print("shown (not failed): ", warning)
    for failure in paths.failures:
        print("FAIL", failure)
    print(
        "JSON: "
        + json.dumps(
            {
                "figures": paths.figures,
                "same": paths.same,
                "failures": paths.failures,
                "warnings": paths.warnings,
                "plans": paths.plans,
            }
        )
    )


if __name__ == "__main__":
    main()

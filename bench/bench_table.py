"""Benchmark of an idle table tablet: its requests a minute and what its poll costs the server.

What it does: reads the score pad's polling period from static/table/sync.js (``POLL_MS``)
and prints an idle tablet's requests a minute — one conditional ``GET /api/table/`` each period
— beside what the page did before issue 19 (three full requests every 4 s: 45 a minute). Then
it sets Django up on a throwaway database (as bench_hands_api.py: PostgreSQL when it answers,
else SQLite), seeds a club with a drive of 16 players (four tables, round 1 released), makes
every table's link (``table_links.services.create_event_table_links``) and, with Django's test
client in process and table 1's token, times after a warm-up the full answer (200) and the poll that
finds nothing new (``If-None-Match``: 304), printing the median milliseconds and the number of
database queries of each (the 304: the link, the table's fingerprint). It asserts nothing about
speed.

Run: ``make bench``, or ``.venv/bin/python bench/bench_table.py`` from the project root.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_hands_api import choose_database, set_up_django  # noqa: E402
from bench.bench_pages import measure  # noqa: E402

BEFORE_REQUESTS_A_MINUTE = 3 * 60 // 4  # game, hands and table, every 4 s, always a 200


def poll_period_ms() -> int:
    source = (ROOT / "static" / "table" / "sync.js").read_text()
    return int(re.search(r"const POLL_MS = (\d+);", source).group(1))


def run(description: str) -> None:
    from django.test import Client

    from table_links.services import create_event_table_links, reveal_table_link
    from tests.clubs.factories import build_world, make_player
    from tournaments.services import create_tournament, draw_next_round

    world = build_world(slug="bench-hall")
    organiser = world.users["organiser"]
    players = [make_player(world.club, f"Bench player {index:02d}") for index in range(16)]
    drive = create_tournament(
        club=world.club,
        user=organiser,
        values={
            "name": "Bench drive",
            "game": "45",
            "format": "drive",
            "table_size": 4,
            "sides_per_table": 2,
            "round_count": 3,
        },
        entrants=[{"player": player.pk} for player in players],
    )
    draw_next_round(tournament_id=drive.pk, user=organiser)
    links = create_event_table_links(tournament=drive, user=organiser)
    token, _code = reveal_table_link(links[0])
    client = Client(HTTP_AUTHORIZATION=f"Table {token}")

    period = poll_period_ms()
    idle = 60_000 // period
    print(f"database: {description}")
    print(
        f"idle tablet: 1 endpoint every {period / 1000:g} s = {idle} requests a minute "
        f"(before: {BEFORE_REQUESTS_A_MINUTE}, ratio {BEFORE_REQUESTS_A_MINUTE / idle:.1f}x "
        "fewer), none for a finished game with no next game"
    )
    full_ms, full_queries, full_status = measure(client, "/api/table/")
    etag = client.get("/api/table/")["ETag"]
    idle_ms, idle_queries, idle_status = measure(client, "/api/table/", HTTP_IF_NONE_MATCH=etag)
    print(
        f"GET /api/table/ (4 tables, round 1)   {full_status}: {full_ms:6.2f} ms median, "
        f"{full_queries} queries"
    )
    print(
        f"  the idle poll (If-None-Match)       {idle_status}: {idle_ms:6.2f} ms median, "
        f"{idle_queries} queries"
    )
    print(
        f"  a minute of idle polling: {idle} x {idle_queries} = {idle * idle_queries} queries "
        f"(before: {BEFORE_REQUESTS_A_MINUTE} full requests)"
    )


def main() -> None:
    import os

    os.environ["DJANGO_STATIC_MANIFEST"] = "false"
    database_url, description, cleanup = choose_database()
    try:
        set_up_django(database_url)
        run(description)
    finally:
        cleanup()


if __name__ == "__main__":
    main()

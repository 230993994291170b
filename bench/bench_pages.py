"""Benchmark of the live pages' poll: a 304 against a full page, in queries and milliseconds.

What it does: sets Django up on a throwaway database (the same choice as bench_hands_api.py:
PostgreSQL when it answers, else SQLite), seeds the page tests' clubs (tests/pages/seed.py: a
knockout under way, games with hands), makes the knockout public, and for the event page and a
game page times, after a warm-up, the full page (200) and the poll that finds nothing new
(``If-None-Match`` with the page's tag: 304) — the event page as an anonymous reader and as a
logged-in member, the game page as a member (the club's games are for its members) — with
Django's test client in process. It prints the median milliseconds and the number of
database queries of each (a 304 should cost the live-state query alone, plus the session and the
user when logged in). Then the poll that finds a change (an old tag, so a 200): its bytes and
milliseconds as it was — the whole page, uncompressed — and as it is — the live region alone
(``X-Jink-Poll``), gzip-compressed — for those pages and for the event pages of a night of
sixteen (tests/pages/seed_night.py: a drive, a knockout). It asserts the statuses (200, 304)
and the gzip encoding, nothing about speed.

Run: ``make bench``, or ``.venv/bin/python bench/bench_pages.py`` from the project root.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_hands_api import choose_database, set_up_django  # noqa: E402

ROUNDS = 60
WARM_UP = 5


def measure(client, url: str, **headers) -> tuple[float, int, int]:
    """(median ms, queries of one request, status)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(WARM_UP):
        client.get(url, **headers)
    timings = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        response = client.get(url, **headers)
        timings.append((time.perf_counter() - start) * 1000)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **headers)
    return statistics.median(timings), len(queries), response.status_code


def run(description: str) -> None:
    from django.test import Client

    from tests.pages.seed import seed_clubs
    from tournaments.models import Tournament

    seed = seed_clubs()
    cup = seed.tournaments["cup"]
    Tournament.objects.filter(pk=cup.pk).update(is_public=True)
    pages = {
        "event page": f"/clubs/kilkenny/tournaments/{cup.pk}/",
        "game page": f"/clubs/kilkenny/games/{seed.games['final'].pk}/",
    }
    member = Client()
    member.force_login(seed.users["pat"])
    readers = {"anonymous": Client(), "member": member}
    print(f"live pages' poll on {description}, median of {ROUNDS} requests:")
    for page, url in pages.items():
        for who, client in readers.items():
            if page == "game page" and who == "anonymous":
                continue  # Kilkenny's games are for its members
            full, full_queries, status = measure(client, url)
            etag = client.get(url)["ETag"]
            poll, poll_queries, poll_status = measure(client, url, HTTP_IF_NONE_MATCH=etag)
            assert (status, poll_status) == (200, 304), (status, poll_status)
            print(
                f"  {page:10} {who:9}  200: {full:6.2f} ms, {full_queries:2} queries   "
                f"304: {poll:5.2f} ms, {poll_queries} queries   ({full / poll:4.1f}x cheaper)"
            )
    from tests.pages.seed_night import seed_night

    seed_night(seed)
    pages["drive of 16"] = f"/clubs/kilkenny/tournaments/{seed.tournaments['drive'].pk}/"
    pages["knockout 16"] = f"/clubs/kilkenny/tournaments/{seed.tournaments['knockout'].pk}/"
    print("a poll that finds a change (200), bytes on the wire and median ms:")
    for page, url in pages.items():
        client = member
        stale = 'W/"an-older-tag"'
        whole_ms, _queries, _status = measure(client, url, HTTP_IF_NONE_MATCH=stale)
        whole = client.get(url, HTTP_IF_NONE_MATCH=stale)
        region_ms, _queries, _status = measure(
            client,
            url,
            HTTP_IF_NONE_MATCH=stale,
            HTTP_X_JINK_POLL="1",
            HTTP_ACCEPT_ENCODING="gzip",
        )
        region = client.get(
            url, HTTP_IF_NONE_MATCH=stale, HTTP_X_JINK_POLL="1", HTTP_ACCEPT_ENCODING="gzip"
        )
        assert region["Content-Encoding"] == "gzip", region.headers
        before, after = len(whole.content), len(region.content)
        print(
            f"  {page:11} the whole page, plain: {before:6} bytes, {whole_ms:6.2f} ms   "
            f"the live region, gzip: {after:5} bytes, {region_ms:6.2f} ms   "
            f"({before / after:4.1f}x fewer bytes)"
        )


def main() -> None:
    import os

    # The pages name their static files; hashed names would need collectstatic first.
    os.environ["DJANGO_STATIC_MANIFEST"] = "false"
    database_url, description, cleanup = choose_database()
    try:
        set_up_django(database_url)
        run(description)
    finally:
        cleanup()


if __name__ == "__main__":
    main()

"""Benchmark of the door: a scripted Chromium checks 84 players in at the door page.

What it does: sets Django up on a throwaway database (as bench_hands_api.py: PostgreSQL when it
answers, else SQLite), seeds a club of 84 players (twelve first names by seven surnames: "Mary
Byrne"), an organiser and a drive of individuals with an entry fee, none entered yet, and serves
the site from a live server thread. Debian's Chromium (Playwright, a 1024 x 768 tablet) signs in
as the organiser and opens the event's door page; for each player, in a shuffled order, it types
the first three letters of the first name (as the door does: several players match), taps the
player's name, taps "Cash", and waits for the confirmation with the search box back. It counts
the taps and times each player from the first letter to the confirmation, then prints the
median and 95th percentile of both, and checks that 84 entrants are present and 84 fees taken.
It asserts nothing about speed.

Run: ``make bench``, or ``.venv/bin/python bench/bench_door.py`` from the project root (skipped
with a note without Chromium or Playwright).
"""

from __future__ import annotations

import random
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_hands_api import choose_database, set_up_django  # noqa: E402

FIRST_NAMES = ["Mary", "Seán", "Úna", "Tom", "Bridget", "Pádraig", "Nora", "Declan", "Aoife",
               "Michael", "Siobhán", "Kevin"]  # fmt: skip
SURNAMES = ["Byrne", "Walsh", "Murphy", "Kelly", "Ryan", "Doyle", "Brennan"]
PASSWORD = "bench-door-pass-1"


def seed():
    from tests.clubs.factories import build_world, make_player
    from tournaments.services import create_tournament

    world = build_world(slug="bench-door")
    organiser = world.users["organiser"]
    organiser.set_password(PASSWORD)
    organiser.save()
    players = [
        make_player(world.club, f"{first} {surname}")
        for first in FIRST_NAMES
        for surname in SURNAMES
    ]
    drive = create_tournament(
        club=world.club,
        user=organiser,
        values={
            "name": "Bench drive",
            "game": "25",
            "format": "drive",
            "table_size": 4,
            "round_count": 3,
            "entry_fee_minor": 500,
        },
        entrants=[],
    )
    return world, players, drive


def run(description: str) -> None:
    from django.conf import settings
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread
    from playwright.sync_api import expect, sync_playwright

    from settlements.models import EntryFeePayment
    from tests.browser import CHROMIUM_ARGUMENTS, TABLET_LANDSCAPE
    from tournaments.models import Entrant

    world, players, drive = seed()
    settings.ALLOWED_HOSTS.append("127.0.0.1")
    server = LiveServerThread("127.0.0.1", StaticFilesHandler)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://127.0.0.1:{server.port}"
    order = list(players)
    random.Random(24).shuffle(order)
    taps_each, seconds_each = [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=shutil.which("chromium"), args=CHROMIUM_ARGUMENTS
            )
            page = browser.new_context(viewport=TABLET_LANDSCAPE, has_touch=True).new_page()
            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=username]", world.users["organiser"].username)
            page.fill("input[name=password]", PASSWORD)
            with page.expect_navigation():
                page.click("main button[type=submit]")
            page.goto(f"{base}/clubs/{world.club.slug}/console/events/{drive.pk}/door/")
            for player in order:
                name = player.display_name
                start = time.perf_counter()
                taps = 0
                search = page.get_by_label("Type two or three letters of the name")
                expect(search).to_be_focused()
                search.press_sequentially(name[:3])
                # The button's name: the player's, then "not entered" (or "here").
                page.get_by_role("button", name=re.compile(f"^{re.escape(name)}( |$)")).click()
                taps += 1
                page.get_by_role("button", name="Cash").click()
                taps += 1
                expect(page.locator(".door-done")).to_contain_text(name)
                expect(page.get_by_label("Type two or three letters of the name")).to_be_focused()
                seconds_each.append(time.perf_counter() - start)
                taps_each.append(taps)
            browser.close()
    finally:
        server.terminate()
    present = Entrant.objects.filter(tournament=drive, is_present=True).count()
    fees = EntryFeePayment.objects.filter(tournament=drive, status="cash").count()
    assert (present, fees) == (len(players), len(players)), (present, fees)
    quantiles = statistics.quantiles(seconds_each, n=20)
    print(f"the door page on {description}, {len(players)} players checked in with the fee:")
    print(
        f"  taps a player: median {statistics.median(taps_each):.0f}, most {max(taps_each)} "
        "(the letters typed are not taps)"
    )
    print(
        f"  seconds a player: median {statistics.median(seconds_each):.2f}, "
        f"p95 {quantiles[18]:.2f} (three letters typed, a name and the fee tapped, confirmed)"
    )
    print(f"  {present} entrants present, {fees} fees taken in cash")


def main() -> None:
    import os

    if shutil.which("chromium") is None:
        print("skipped: no chromium (apt-get install -y chromium)")
        return
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        print("skipped: no playwright")
        return
    os.environ["DJANGO_STATIC_MANIFEST"] = "false"
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop in this thread
    database_url, description, cleanup = choose_database()
    try:
        set_up_django(database_url)
        run(description)
    finally:
        cleanup()


if __name__ == "__main__":
    main()

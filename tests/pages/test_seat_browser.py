"""Every player told where to sit: the event page's seat banner and its one notification.

What it proves, on a seeded live server (tests/pages/seed.py plus a drive of eight in Kilkenny
with private draws, Pat among them), logged in as Pat on a phone whose browser context was
granted the ``notifications`` permission (``Notification`` and ``navigator.vibrate`` observed
through an init script, Chromium's own being headless): Pat taps "Tell me when I'm seated"; the
organiser draws round 1 privately — the page shows nothing —, then releases it; at the next poll
(the page's clock run forward by one poll interval, no sleeping) the banner at the top of the
page reads "Round 1: table N, seat S, with <partner>" as the database seats Pat, and exactly one
notification with that text is raised and the phone vibrates once. Reloaded, the page shows the
banner again and announces nothing: the seat was remembered.
"""

from __future__ import annotations

from django.test import TestCase

from tests.browser import PHONE
from tests.helpers import log_in

POLL_MS = 15_000
OBSERVE = """
window.jinkNotified = [];
window.jinkVibrated = [];
class FakeNotification {
  constructor(title, options) { window.jinkNotified.push({title, body: options.body}); }
  static get permission() { return window.jinkPermission || 'default'; }
  static requestPermission() {
    window.jinkPermission = 'granted';
    return Promise.resolve('granted');
  }
}
window.jinkPermission = localStorage.getItem('jink-seat-alerts') === 'on' ? 'granted' : 'default';
window.Notification = FakeNotification;
navigator.vibrate = (pattern) => { window.jinkVibrated.push(pattern); return true; };
"""


def test_the_seat_banner_and_one_notification_follow_the_release_within_one_poll(
    live_server, new_context, outside_requests
):
    from games.models import Game
    from tests.pages.seed import PASSWORD, draw, seed_clubs
    from tests.pages.test_live_browser import pat_at_table
    from tournaments import evening, services

    seed = seed_clubs()
    names = ["Pat", "Ann", "Bill", "Cait", "Dan", "Eve", "Finn", "Gus"]
    drive = services.create_tournament(
        club=seed.clubs["kilkenny"],
        user=seed.users["orla"],
        values={
            "name": "Tuesday Drive",
            "game": "25",
            "format": "drive",
            "table_size": 4,
            "sides_per_table": 2,
            "round_count": 2,
            "lots_seed": 11,
            "private_draws": True,
        },
        entrants=[{"player": seed.players[name].pk} for name in names],
    )
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.grant_permissions(["notifications"])
    context.add_init_script(OBSERVE)
    page = context.new_page()
    page.clock.install()
    log_in(page, live_server.url, "pat", PASSWORD)
    page.goto(f"{live_server.url}/clubs/kilkenny/tournaments/{drive.pk}/")
    assert page.locator("#seat-banner").count() == 0
    page.click("#seat-alerts-ask")
    page.wait_for_selector("#seat-alerts-on", state="visible")
    assert page.is_hidden("#seat-alerts-ask")

    # Drawn privately: the next poll shows Pat nothing.
    draw(drive, seed.users["orla"])
    with page.expect_response(lambda response: response.status == 304):
        page.clock.run_for(POLL_MS)
    assert page.locator("#seat-banner").count() == 0

    with TestCase.captureOnCommitCallbacks(execute=True):
        evening.release_round(tournament_id=drive.pk, round_number=1, user=seed.users["orla"])
    table, partner, game_id = pat_at_table(drive, seed.players["Pat"])
    game = Game.objects.get(pk=game_id)
    seat = next(seat.seat for seat in game.seats.all() if seat.player_id == seed.players["Pat"].pk)
    with page.expect_response(lambda response: response.status == 200):
        page.clock.run_for(POLL_MS)
    page.wait_for_selector("#seat-banner")
    expected = f"Round 1: table {table}, seat {seat + 1}, with {partner}"
    assert page.inner_text("#seat-banner") == expected
    page.wait_for_function("() => window.jinkNotified.length > 0")
    assert page.evaluate("window.jinkNotified") == [{"title": "Tuesday Drive", "body": expected}]
    assert page.evaluate("window.jinkVibrated") == [[200, 100, 200]]

    # Reloaded: the banner again, no second announcement.
    page.reload()
    assert page.inner_text("#seat-banner") == expected
    page.wait_for_selector("#seat-alerts-on", state="visible")
    assert page.evaluate("[window.jinkNotified, window.jinkVibrated]") == [[], []]
    assert outside_requests == []


def test_the_seat_module_loads_alone_and_decides_without_the_page(
    live_server, new_context, outside_requests
):
    """seat.js imports alone (nothing runs at import) and its decisions are pure."""
    page = new_context().new_page()
    page.goto(f"{live_server.url}/")
    found = page.evaluate(
        """async () => {
          const seat = await import('/static/js/pages/seat.js');
          const banner = {key: '7-2-4-2', title: 'Cup', text: 'Round 2: table 4, seat 2'};
          const many = Array.from({length: 25}, (_, index) => `k${index}`);
          return {
            exports: Object.keys(seat).sort(),
            fresh: seat.seatNews(banner, ['7-1-3-1'], true),
            quiet: seat.seatNews(banner, [], false),
            seen: seat.seatNews(banner, ['7-2-4-2'], true),
            none: seat.seatNews(null, [], true),
            kept: seat.remember(many, 'k3'),
            bannerShown: document.getElementById('seat-banner') !== null,
          };
        }"""
    )
    assert found == {
        "exports": [
            "ALERTS_STORAGE",
            "SEEN_LIMIT",
            "SEEN_STORAGE",
            "VIBRATION",
            "alertsOn",
            "announce",
            "check",
            "readBanner",
            "readSeen",
            "remember",
            "seatNews",
            "showAlertsChoice",
            "start",
        ],
        "fresh": {
            "key": "7-2-4-2",
            "title": "Cup",
            "text": "Round 2: table 4, seat 2",
            "announce": True,
        },
        "quiet": {
            "key": "7-2-4-2",
            "title": "Cup",
            "text": "Round 2: table 4, seat 2",
            "announce": False,
        },
        "seen": None,
        "none": None,
        "kept": [f"k{index}" for index in (5, *range(6, 25), 3)][-20:],
        "bannerShown": False,
    }
    assert outside_requests == []

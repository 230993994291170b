"""A county night on a phone in Chromium: the bracket live, true places, pages that fit.

What it does, on the page tests' seed plus a night of sixteen (tests/pages/seed_night.py), on a
390 x 844 phone:

- the knockout's event page, its bracket scrolled sideways to the semi-finals and a link in it
  focused: a round-1 table decided through the games service shows its winner in the
  quarter-final it feeds — whose game has not started — at the next poll, and the update keeps
  the bracket's own scroll, the page's scroll and the focus;
- the drive after round 1, where the eight winners are level on every figure the drive ranks by:
  each shows "=1" (read out "1, shared"), the others "=9"; its folded round 1 shows a chevron
  that turns when it opens;
- the club page and the event pages of sixteen (the drive, the knockout) fit in three phone
  screens (3 x 844 px) before anything is opened, and never scroll sideways.

Screenshots go to ``JINK_SCREENSHOTS`` (``docs/screenshots`` refreshes the README's) or a
temporary folder.
"""

from __future__ import annotations

from tests.browser import PHONE
from tests.helpers import log_in
from tests.pages.axe import sideways
from tests.pages.seed import PASSWORD

POLL_SECONDS = 1
LIVE_TIMEOUT_MS = 25_000
THREE_SCREENS = 3 * PHONE["height"]


def page_height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def test_the_bracket_keeps_its_place_and_shows_a_winner_in_the_next_table_at_once(
    live_server, new_context, outside_requests, screenshots
):
    from games.models import Game
    from tests.pages.seed import seed_clubs
    from tests.pages.seed_night import decide, seed_night

    seed = seed_night(seed_clubs())
    cup = seed.tournaments["knockout"]
    context = new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(page, live_server.url, "pat", PASSWORD)
    page.goto(f"{live_server.url}/clubs/kilkenny/tournaments/{cup.pk}/")
    page.evaluate(f"document.querySelector('[data-live]').dataset.poll = '{POLL_SECONDS}'")
    # Quarter-final 4 waits for round-1 tables 7 and 8: nobody is through yet.
    assert " ".join(page.inner_text("#round-2-table-4").split()) == (
        "Table 4 Waiting Winner of round 1 table 7 Winner of round 1 table 8"
    )
    # Scrolled sideways to the semi-finals, the page down a little, a game's link focused.
    semi_finals = page.evaluate(
        """() => {
          const box = document.getElementById('bracket-scroll');
          const column = document.getElementById('round-3');
          box.scrollLeft = column.offsetLeft - 12;
          return box.scrollLeft;
        }"""
    )
    assert semi_finals > 400
    page.focus("#round-3-table-1 .card-title a")
    page.evaluate("window.scrollBy(0, -40)")
    page_scroll = page.evaluate("window.scrollY")
    assert page_scroll > 0
    page.evaluate("window.jinkMarker = 'no reload'")

    decide(cup, seed.users["sean"], round_number=1, tables=[7])
    winner = (
        Game.objects.get(
            match_link__match__tournament=cup,
            match_link__match__round__number=1,
            match_link__match__table=7,
        )
        .seats.get(seat=0)
        .player.display_name
    )
    page.wait_for_function(
        f"() => document.querySelector('#round-2-table-4')?.innerText.includes('{winner}')",
        timeout=LIVE_TIMEOUT_MS,
    )
    # Through before the quarter-final's game starts: the table waits for table 8, no game.
    assert " ".join(page.inner_text("#round-2-table-4").split()) == (
        f"Table 4 Waiting {winner} Winner of round 1 table 8"
    )
    assert page.query_selector("#round-2-table-4 a") is None
    page.wait_for_timeout(100)  # the scroll is given back again a frame after the swap
    assert page.evaluate("""() => [document.getElementById('bracket-scroll').scrollLeft,
                                   window.scrollY, window.jinkMarker,
                                   document.activeElement.closest('article')?.id]""") == [
        semi_finals,
        page_scroll,
        "no reload",
        "round-3-table-1",
    ]
    page.screenshot(path=str(screenshots / "bracket.png"), full_page=True)
    assert outside_requests == []


def test_true_places_and_pages_that_fit_three_phone_screens(
    live_server, new_context, outside_requests, screenshots
):
    from tests.pages.seed import seed_clubs
    from tests.pages.seed_night import seed_night

    seed = seed_night(seed_clubs())
    drive, cup = seed.tournaments["drive"], seed.tournaments["knockout"]
    context = new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(page, live_server.url, "pat", PASSWORD)

    # The drive after round 1: the eight winners are level on wins, points and tricks.
    page.goto(f"{live_server.url}/clubs/kilkenny/tournaments/{drive.pk}/")
    places = page.eval_on_selector_all(
        "#standings-table tr.entrant-row td.place",
        "cells => cells.map(cell => [cell.querySelector('[aria-hidden]')?.innerText,"
        " cell.querySelector('.visually-hidden')?.innerText])",
    )
    assert places == [["=1", "1, shared"]] * 8 + [["=9", "9, shared"]] * 8
    # The earlier round is folded, and says it opens: a chevron before its summary, which
    # turns when it is open.
    marker = """summary => { const mark = getComputedStyle(summary, '::before');
                             return [mark.content, mark.borderRightWidth, mark.transform]; }"""
    closed = page.eval_on_selector("#round-1 > summary", marker)
    assert closed[:2] == ['""', "2px"]
    page.click("#round-1 > summary")
    # The chevron turns over a .15 s transition: wait for it to settle on a turned value (the
    # wait fails the test when it never turns).
    page.wait_for_function(
        """before => { const summary = document.querySelector('#round-1 > summary');
                       const now = getComputedStyle(summary, '::before').transform;
                       return now !== before && now === 'matrix(0.707107, 0.707107, -0.707107,'
                                                       + ' 0.707107, 0, 0)'; }""",
        arg=closed[2],
        timeout=5000,
    )
    page.click("#round-1 > summary")
    heights = {"drive": page_height(page)}
    widths = {"drive": sideways(page)}
    page.screenshot(path=str(screenshots / "drive-page.png"), full_page=True)

    page.goto(f"{live_server.url}/clubs/kilkenny/tournaments/{cup.pk}/")
    heights["knockout"], widths["knockout"] = page_height(page), sideways(page)

    # The club page: tonight first (the drive and the cup on now), then "This is me".
    page.goto(f"{live_server.url}/clubs/kilkenny/")
    heights["club"], widths["club"] = page_height(page), sideways(page)
    page.screenshot(path=str(screenshots / "club-page.png"), full_page=True)
    first_screen = page.evaluate(
        """() => ['on-now', 'me'].map(id =>
             document.getElementById(id).getBoundingClientRect().top < window.innerHeight)"""
    )
    assert first_screen == [True, True]
    rows = page.eval_on_selector_all("#season-table tr.player-row", "rows => rows.length")
    assert rows >= 20
    assert {name: height <= THREE_SCREENS for name, height in heights.items()} == {
        "drive": True,
        "knockout": True,
        "club": True,
    }, heights
    assert widths == {"drive": 0, "knockout": 0, "club": 0}

    # Opened, the season table keeps every column on the phone: names whole, nothing cut off.
    page.click("#season-fold > summary")
    cut = page.evaluate(
        """() => {
          const table = document.getElementById('season-table');
          const box = table.getBoundingClientRect();
          const names = Array.from(table.querySelectorAll('tbody th'));
          return {right: Math.round(box.right) <= window.innerWidth,
                  broken: names.filter(name => name.getClientRects().length > 0
                    && name.innerText.trim().split(/\\s+/).length < name.getClientRects().length
                    ).length,
                  order: document.getElementById('season-order').innerText.split('.')[0]};
        }"""
    )
    assert cut == {
        "right": True,
        "broken": 0,
        "order": "Ordered by wins, then points; players level on both share a place",
    }
    assert sideways(page) == 0
    assert outside_requests == []

"""The demo's half-played league on its public page, in Chromium against the live server.

What it does: loads the demo (``manage.py load_demo``: the county board and its Kilkenny Winter
League, web/demo_league.py) and opens ``/f/kilkenny/leagues/winter-league/`` signed out, on a
phone (390 x 844) and a desktop (1280 x 800): the table lists the four teams in the standings'
order (``leagues.standings.league_table``) and fits the screen (no sideways scroll), the penalty
and its reason are shown, every fixture is listed round by round with the postponed one's first
date, each team's and club's iCalendar link answers ``text/calendar``; axe-core finds nothing,
and on the phone no touch target is under 44 px (``tests/pages/axe.py``, as the other pages'
checks).

Screenshots go to ``JINK_SCREENSHOTS`` (``docs/screenshots`` refreshes the README's
``league-page-390x844.png`` and ``league-page-1280x800.png``) or a temporary folder.
"""

from __future__ import annotations

import pytest

from tests.browser import PHONE
from tests.pages.axe import sideways, small_targets, violations, with_axe

DESKTOP = {"width": 1280, "height": 800}
URL = "/f/kilkenny/leagues/winter-league/"
REASON = "Round 2 started 40 minutes late: the team was not at the tables on time."


@pytest.fixture
def demo_league(transactional_db):
    from io import StringIO

    from django.core.management import call_command

    from leagues.models import League
    from leagues.standings import league_table

    call_command("load_demo", stdout=StringIO())
    league = League.objects.get(slug="winter-league")
    return league, [row.name for row in league_table(league)]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_demo_league_page(
    viewport, demo_league, live_server, new_context, outside_requests, screenshots
):
    league, order = demo_league
    page = with_axe(new_context(viewport=viewport)).new_page()
    page.goto(f"{live_server.url}{URL}")
    assert page.inner_text("h1") == "Kilkenny Winter League"

    assert page.locator("#league-table tbody th").all_inner_texts() == order
    assert page.locator("#league-table tbody tr").count() == 4
    assert page.locator("#league-table").is_visible()
    assert sideways(page) == 0
    penalty = page.locator("#league-table span[title]")
    assert penalty.inner_text() == "−1" and penalty.get_attribute("title") == REASON
    assert [" ".join(line.split()) for line in page.locator("#penalties li").all_inner_texts()] == [
        f"Marble Jinks: 1 point taken off on {_short(league.penalties.get().created_at)} — {REASON}"
    ]

    rows = page.locator("table.fixtures tbody tr")
    assert rows.count() == 12
    statuses = [row.split("\t")[-1].strip() for row in rows.all_inner_texts()]
    assert sorted(statuses) == sorted(["Played"] * 5 + ["Postponed"] + ["Scheduled"] * 6)
    postponed = league.fixtures.get(status="postponed")
    assert "(was " in page.inner_text(f"#fixture-{postponed.pk}")

    links = page.locator("#calendars a")
    assert links.count() == 6  # four teams, two clubs
    for href in [links.nth(index).get_attribute("href") for index in range(links.count())]:
        response = page.request.get(f"{live_server.url}{href}")
        assert response.status == 200, href
        assert response.headers["content-type"].startswith("text/calendar"), href
        assert response.text().startswith("BEGIN:VCALENDAR")

    assert violations(page) == []
    if viewport is PHONE:
        assert small_targets(page) == []
    name = f"league-page-{viewport['width']}x{viewport['height']}.png"
    page.screenshot(path=str(screenshots / name), full_page=True)
    assert outside_requests == []


def _short(moment) -> str:
    """The date as the page (in English) shows it, whatever language an earlier test left active
    in this thread."""
    from django.utils import formats, timezone, translation

    with translation.override("en"):
        return formats.date_format(timezone.localtime(moment), "SHORT_DATE_FORMAT")

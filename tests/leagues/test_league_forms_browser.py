"""A captain enters a fixture's result on a phone and the other captain accepts it, in Chromium
against the live server (``tests/browser.py``'s fixtures, Debian's Chromium).

What it does: ``LeagueWorld`` drawn; North's captain, signed in on a phone (390 x 844), opens the
league page, follows the North A v South A fixture, types the tables won (2–0) and enters them:
the page says it waits for the other captain. South's captain, in another browser context, opens
the same page, sees the score and accepts it: the fixture is played, and the league table shows
North A first with 2 points. axe-core finds nothing on the captains' page and no touch target is
under 44 px (``tests/pages/axe.py``); nothing is loaded from outside the server.
"""

from __future__ import annotations

import pytest

from tests.browser import PHONE
from tests.pages.axe import sideways, small_targets, violations, with_axe
from tests.tables.browser_helpers import logged_in


@pytest.fixture
def league_world(transactional_db):
    from leagues.models import Fixture
    from tests.leagues.factories import LeagueWorld

    world = LeagueWorld()
    world.draw()
    world.fixture = Fixture.objects.get(
        league=world.league, home=world.teams["north"], away=world.teams["south"]
    )
    return world


def test_a_captain_enters_a_result_and_the_other_accepts_it(
    league_world, live_server, new_context, outside_requests, screenshots
):
    world = league_world
    league_url = f"{live_server.url}/f/county/leagues/winter/"

    north = with_axe(logged_in(new_context(viewport=PHONE), live_server, world.captains["north"]))
    page = north.new_page()
    page.goto(league_url)
    page.get_by_role("link", name="North A v South A").click()
    page.get_by_label("Tables won by North A").fill("2")
    page.get_by_label("Tables won by South A").fill("0")
    assert violations(page) == [] and small_targets(page) == [] and sideways(page) == 0
    page.get_by_role("button", name="Enter the result").click()
    assert page.inner_text("#state-title") == "Result entered"
    assert page.inner_text("#fixture-score") == "North A 2–0 South A"
    assert "waiting for the other captain" in page.inner_text("#state-detail")
    assert page.locator("#accept-form").count() == 0

    south = with_axe(logged_in(new_context(viewport=PHONE), live_server, world.captains["south"]))
    page = south.new_page()
    page.goto(f"{live_server.url}/f/county/leagues/winter/fixtures/{world.fixture.pk}/")
    assert page.inner_text("#fixture-score") == "North A 2–0 South A"
    assert violations(page) == [] and small_targets(page) == []
    page.screenshot(path=str(screenshots / "league-fixture-390x844.png"), full_page=True)
    page.get_by_role("button", name="Accept the result").click()
    assert page.inner_text("#state-title") == "Played"
    assert page.locator("#result-form, #accept-form, #dispute-form").count() == 0

    page.goto(league_url)
    first = page.locator("#league-table tbody tr").first
    assert first.locator("th").inner_text() == "North A"
    assert first.locator("td").last.inner_text() == "2"
    world.fixture.refresh_from_db()
    assert (world.fixture.status, world.fixture.home_score, world.fixture.away_score) == (
        "played",
        2,
        0,
    )
    assert outside_requests == []

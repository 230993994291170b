"""The home captain enters a fixture's result table by table on a phone, and a captain adds a
player to the team, in Chromium against the live server (``tests/browser.py``'s fixtures,
Debian's Chromium).

What it does: ``LeagueWorld`` drawn, two finished games at North; North's captain, signed in on a
phone (390 x 844), opens the fixture North A v South A, picks for table 1 the game their pair
won and for table 2 the one it lost (by the players' names), and enters them: the page says 1–1,
waiting for the other captain. Then they open their team's page from the league page and add
North 4. axe-core finds nothing on either page and no touch target is under 44 px
(``tests/pages/axe.py``); nothing is loaded from outside the server.
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
    from tests.rankings.seed import T0, finished_game

    world = LeagueWorld()
    world.draw()
    world.fixture = Fixture.objects.get(
        league=world.league, home=world.teams["north"], away=world.teams["south"]
    )
    north = world.players["north"]
    world.first = finished_game(world.clubs["north"], [north[:2], north[4:6]], 0, T0, "45")
    world.second = finished_game(world.clubs["north"], [north[4:6], north[2:4]], 0, T0, "45")
    return world


def _option(page, select: str, starts: str) -> str:
    labels = page.locator(f"{select} option").all_inner_texts()
    return next(label for label in labels if label.startswith(starts))


def test_the_home_captain_enters_the_tables_and_adds_a_player(
    league_world, live_server, new_context, outside_requests
):
    world = league_world
    north = with_axe(logged_in(new_context(viewport=PHONE), live_server, world.captains["north"]))
    page = north.new_page()
    page.goto(f"{live_server.url}/f/county/leagues/winter/fixtures/{world.fixture.pk}/")
    won = _option(page, "#tables-1", "North 0 & North 1 (home team) 25–11")
    lost = _option(page, "#tables-2", "North 2 & North 3 (home team) 11–25")
    page.get_by_label("Table 1").select_option(label=won)
    page.get_by_label("Table 2").select_option(label=lost)
    assert violations(page) == [] and small_targets(page) == [] and sideways(page) == 0
    page.get_by_role("button", name="Enter the tables' result").click()
    assert page.inner_text("#state-title") == "Result entered"
    assert page.inner_text("#fixture-score") == "North A 1–1 South A"
    world.fixture.refresh_from_db()
    assert list(world.fixture.tables.values_list("number", "game_id", "home_side", "winner")) == [
        (1, world.first.pk, 0, "home"),
        (2, world.second.pk, 1, "away"),
    ]

    page.goto(f"{live_server.url}/f/county/leagues/winter/")
    page.get_by_role("link", name="North A (North): the players").click()
    page.get_by_label("A player of North").select_option(label="North 4")
    assert violations(page) == [] and small_targets(page) == [] and sideways(page) == 0
    page.get_by_role("button", name="Add to the team").click()
    assert "North 4" in page.inner_text("#team-players")
    assert page.get_by_role("button", name="Take North 4 off the team").count() == 1
    assert sorted(world.teams["north"].players.values_list("display_name", flat=True)) == [
        "North 0",
        "North 1",
        "North 2",
        "North 3",
        "North 4",
    ]
    assert outside_requests == []

"""The leagues' page forms: the captains' result forms on a fixture's page, the organisers' forms
on the league page and on the federation's organisers' page (English and French).

Each form goes through ``leagues.services``: the exact state, the audit, the table; a refusal is
shown beside its form with its status and stores nothing; only those the forms are for see them,
and anyone else's post is refused.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from federations.models import FederationAuditEntry
from leagues import services
from leagues.models import Fixture, League, LeagueTeam, Penalty
from leagues.standings import league_table
from tests.leagues.factories import LeagueWorld

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    world = LeagueWorld()
    world.draw()
    world.fixture = Fixture.objects.get(
        league=world.league, home=world.teams["north"], away=world.teams["south"]
    )
    world.url = f"/f/county/leagues/winter/fixtures/{world.fixture.pk}/"
    return world


def _as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _audit(world) -> list[str]:
    return list(
        FederationAuditEntry.objects.filter(federation=world.county)
        .order_by("id")
        .values_list("kind", flat=True)
    )


def _row(world, slug):
    return next(row for row in league_table(world.league) if row.name == f"{slug.title()} A")


def test_a_captain_enters_and_the_other_accepts(world):
    north, south = _as(world.captains["north"]), _as(world.captains["south"])
    page = north.get(world.url).content.decode()
    assert 'id="result-form"' in page and 'id="accept-form"' not in page
    assert "Not played yet: a captain enters the result." in page

    response = north.post(world.url, {"action": "enter", "home_score": "2", "away_score": "0"})
    assert response.status_code == 302 and response["Location"] == world.url
    world.fixture.refresh_from_db()
    assert (world.fixture.status, world.fixture.home_score, world.fixture.away_score) == (
        "entered",
        2,
        0,
    )
    assert world.fixture.entered_by == world.captains["north"]
    assert _row(world, "north").played == 0  # waiting: not counted yet
    page = south.get(world.url).content.decode()
    assert "Entered by North A's captain: waiting for the other captain" in page
    assert 'id="accept-form"' in page and 'id="dispute-form"' in page
    assert 'id="accept-form"' not in north.get(world.url).content.decode()

    assert south.post(world.url, {"action": "accept"}).status_code == 302
    world.fixture.refresh_from_db()
    assert world.fixture.status == "played" and world.fixture.accepted_by == world.captains["south"]
    north_row, south_row = _row(world, "north"), _row(world, "south")
    assert (north_row.played, north_row.won, north_row.points) == (1, 1, 2)
    assert (south_row.played, south_row.lost, south_row.points) == (1, 1, 0)
    assert _audit(world)[-2:] == ["result_entered", "result_accepted"]
    page = south.get(world.url).content.decode()
    assert "Accepted by both captains" in page and "<form" not in page.split("</h1>")[1]
    league_page = Client().get("/f/county/leagues/winter/").content.decode()
    assert f'href="{world.url}"' in league_page


def test_a_dispute_and_a_new_entry(world):
    north, south = _as(world.captains["north"]), _as(world.captains["south"])
    north.post(world.url, {"action": "enter", "home_score": "2", "away_score": "0"})
    response = south.post(world.url, {"action": "dispute", "reason": "We won the second table"})
    assert response.status_code == 302
    world.fixture.refresh_from_db()
    assert (world.fixture.status, world.fixture.dispute_reason) == (
        "disputed",
        "We won the second table",
    )
    page = north.get(world.url).content.decode()
    assert "The other captain disputed the result: We won the second table." in page
    assert 'id="result-form"' in page
    assert south.post(world.url, {"action": "enter", "home_score": "1", "away_score": "1"})[
        "Location"
    ] == (world.url)
    world.fixture.refresh_from_db()
    assert (world.fixture.status, world.fixture.entered_for_id) == (
        "entered",
        world.teams["south"].pk,
    )
    assert 'id="accept-form"' in north.get(world.url).content.decode()


def test_a_refusal_is_shown_beside_its_form_and_nothing_is_stored(world):
    north = _as(world.captains["north"])
    before = _audit(world)
    response = north.post(world.url, {"action": "enter", "home_score": "2", "away_score": "1"})
    assert response.status_code == 400
    form = response.content.decode().split('id="result-form"')[1].split("</form>")[0]
    assert "The fixture has 2 tables." in form
    assert 'value="2"' in form and 'value="1"' in form  # what was typed stays
    response = north.post(world.url, {"action": "enter", "home_score": "two", "away_score": "0"})
    assert response.status_code == 400 and "Give a whole number." in response.content.decode()
    north.post(world.url, {"action": "enter", "home_score": "1", "away_score": "0"})
    response = north.post(world.url, {"action": "accept"})  # their own entry
    assert response.status_code == 403
    assert "The other team&#x27;s captain answers the result." in response.content.decode()
    south = _as(world.captains["south"])
    response = south.post(world.url, {"action": "dispute", "reason": "  "})
    assert response.status_code == 400
    form = response.content.decode().split('id="dispute-form"')[1].split("</form>")[0]
    assert "Give the reason (500 characters at most)." in form
    world.fixture.refresh_from_db()
    assert world.fixture.status == "entered" and world.fixture.dispute_reason == ""
    assert _audit(world) == [*before, "result_entered"]


def test_non_captains_see_no_form_and_are_refused(world):
    services.enter_result(
        fixture=world.fixture, user=world.captains["north"], home_score=2, away_score=0
    )
    body = {"action": "accept"}
    for user in (world.outsider, world.club_organiser, world.organiser, world.captains["east"]):
        client = _as(user)
        page = client.get(world.url).content.decode()
        assert "<form" not in page.split("</h1>")[1], user
        assert client.post(world.url, body).status_code == 403, user
        result = {"action": "enter", "home_score": "0", "away_score": "2"}
        assert client.post(world.url, result).status_code == 403, user
    response = Client().post(world.url, body)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    world.fixture.refresh_from_db()
    assert (world.fixture.status, world.fixture.home_score) == ("entered", 2)
    assert _as(world.captains["south"]).post(world.url, {"action": "x"}).status_code == 400


def test_the_fixture_page_in_french(world):
    page = _as(world.captains["north"]).get(world.url, HTTP_ACCEPT_LANGUAGE="fr").content
    text = page.decode()
    assert "Saisir le résultat" in text and "Tables gagnées par North A" in text


def test_the_organisers_forms_on_the_league_page(world):
    organiser = _as(world.organiser)
    url = "/f/county/leagues/winter/"
    page = organiser.get(url).content.decode()
    assert 'id="postpone-form"' in page and 'id="penalty-form"' in page
    assert 'id="organisers"' not in Client().get(url).content.decode()
    assert 'id="organisers"' not in _as(world.captains["north"]).get(url).content.decode()

    post = {"action": "postpone", "fixture": world.fixture.pk, "date": "2026-12-01"}
    assert organiser.post(url, post).status_code == 302
    world.fixture.refresh_from_db()
    assert (world.fixture.status, world.fixture.date) == ("postponed", date(2026, 12, 1))

    response = organiser.post(url, {**post, "date": "2027-06-01"})
    assert response.status_code == 400
    form = response.content.decode().split('id="postpone-form"')[1].split("</form>")[0]
    assert "The new date is outside the season." in form
    world.fixture.refresh_from_db()
    assert world.fixture.date == date(2026, 12, 1)

    east = world.teams["east"].pk
    response = organiser.post(
        url, {"action": "walkover", "fixture": world.fixture.pk, "team": east}
    )
    assert response.status_code == 400
    assert "The team is not in this fixture." in response.content.decode()
    walkover = {"action": "walkover", "fixture": world.fixture.pk, "team": world.teams["south"].pk}
    assert organiser.post(url, walkover).status_code == 302
    world.fixture.refresh_from_db()
    assert (world.fixture.status, world.fixture.home_score, world.fixture.away_score) == (
        "walkover",
        0,
        2,
    )

    penalty = {"action": "penalty", "team": east, "points": "2", "reason": "Late start"}
    assert organiser.post(url, penalty).status_code == 302
    assert list(Penalty.objects.values_list("team_id", "points", "reason")) == [
        (east, 2, "Late start")
    ]
    response = organiser.post(url, {**penalty, "reason": ""})
    assert response.status_code == 400 and Penalty.objects.count() == 1
    assert _audit(world)[-3:] == ["fixture_postponed", "fixture_walkover", "penalty_given"]

    for user in (world.captains["north"], world.rival, world.club_organiser):
        assert _as(user).post(url, penalty).status_code == 403
    assert Client().post(url, penalty).status_code == 302
    assert Penalty.objects.count() == 1


def test_the_organisers_create_a_league_enter_teams_and_draw(world):
    organiser = _as(world.organiser)
    url = "/federations/county/"
    page = organiser.get(url).content.decode()
    assert 'id="new-league"' in page and 'id="league-winter"' in page
    new = {
        "action": "new_league",
        "name": "Spring",
        "slug": "spring",
        "variant": "45",
        "team_format": "1v1",
        "tables_per_fixture": "3",
        "season_start": "2027-03-01",
        "season_end": "2027-02-01",
    }
    response = organiser.post(url, new)
    assert response.status_code == 400
    form = response.content.decode().split('id="new-league"')[1].split("</form>")[0]
    assert "The season ends before it starts." in form
    assert not League.objects.filter(slug="spring").exists()
    response = organiser.post(url, {**new, "season_end": "2027-06-30"})
    assert response.status_code == 302 and response["Location"] == "/federations/county/#leagues"
    spring = League.objects.get(slug="spring")
    assert (spring.team_format, spring.tables_per_fixture, spring.points_win) == ("1v1", 3, 2)

    team = {
        "action": "league_team",
        "league": "spring",
        "club": "north",
        "name": "North S",
        "captain": world.players["south"][0].pk,
    }
    response = organiser.post(url, team)
    assert response.status_code == 400
    form = response.content.decode().split('id="team-spring"')[1].split("</form>")[0]
    assert "No such player in this club." in form
    assert not LeagueTeam.objects.filter(league=spring).exists()
    assert organiser.post(url, {**team, "captain": world.players["north"][0].pk}).status_code == 302
    draw = {"action": "draw_fixtures", "league": "spring", "first_date": "", "days_between": "7"}
    response = organiser.post(url, draw)
    assert response.status_code == 409
    section = response.content.decode().split('id="league-spring"')[1].split("</section>")[0]
    assert "A league needs two teams or more." in section
    second = {**team, "club": "south", "name": "South S", "captain": world.players["south"][0].pk}
    assert organiser.post(url, second).status_code == 302
    assert organiser.post(url, draw).status_code == 302
    assert spring.fixtures.count() == 2
    assert _audit(world)[-4:] == [
        "league_created",
        "league_team_added",
        "league_team_added",
        "fixtures_generated",
    ]
    page = organiser.get(url).content.decode()
    assert 'id="draw-spring"' not in page and 'id="team-spring"' not in page
    french = organiser.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Nouveau championnat" in french and "Créer le championnat" in french


def test_garbage_in_the_forms_is_refused_never_a_500(world):
    """Not numbers, huge numbers, NUL bytes, bad dates: a 4xx, nothing stored."""
    garbage = ("abc", "99999999999999999999", "-1", "\x00", "1\x00", "2026-13-45", "")
    organiser, north = _as(world.organiser), _as(world.captains["north"])
    league_url = "/f/county/leagues/winter/"
    team_url = f"/f/county/leagues/winter/teams/{world.teams['north'].pk}/"
    forms = [
        (north, world.url, {"action": "enter"}, ("home_score", "away_score")),
        (north, world.url, {"action": "dispute"}, ("reason",)),
        (north, world.url, {"action": "enter_tables"}, ("table_1", "table_2")),
        (north, team_url, {"action": "add_player"}, ("player",)),
        (organiser, team_url, {"action": "remove_player"}, ("player",)),
        (organiser, league_url, {"action": "postpone"}, ("fixture", "date")),
        (organiser, league_url, {"action": "walkover"}, ("fixture", "team")),
        (organiser, league_url, {"action": "penalty"}, ("team", "points", "reason")),
        (organiser, "/federations/county/", {"action": "league_team"}, ("league", "club", "name")),
        (organiser, "/federations/county/", {"action": "draw_fixtures"}, ("league", "first_date")),
        (organiser, "/federations/county/", {"action": "new_league"}, ("name", "slug", "variant")),
    ]
    before = _audit(world)
    for client, url, base, fields in forms:
        for field in fields:
            for value in garbage:
                response = client.post(url, {**base, field: value})
                assert 400 <= response.status_code < 500, (url, base, field, value)
    assert _audit(world) == before
    response = organiser.post(
        "/federations/county/",
        {"action": "new_league", "name": "Été", "slug": "été", "variant": "45"},
    )
    assert response.status_code == 400 and not League.objects.filter(name="Été").exists()

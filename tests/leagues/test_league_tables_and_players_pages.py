"""The table-by-table result form of a fixture's page and a team's players page.

What it checks: the home captain picks, for each table, one of the home club's finished games
(shown by the players' names and the scores, never seat numbers or ids) and the side the home
team held; the result stored is exactly the API's for the same tables (scores, tables, audit);
bad picks (a game of another club, the same game twice, an unfinished game, garbage) are a 4xx
with the service's problem text beside the table, nothing stored; only the home captain posts
it. A team's captain and the federation's organisers add and take off its players, through
``leagues.services`` (audited); a refusal is a 4xx with its text, nothing stored; anyone else is
refused.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from accounts.services import issue_device_token
from federations.models import FederationAuditEntry
from games.models import Game, GameStatus
from leagues.models import Fixture, FixtureTable
from tests.leagues.factories import LeagueWorld
from tests.rankings.seed import T0, finished_game

pytestmark = pytest.mark.django_db

GARBAGE = ("abc", "99999999999999999999", "-1", "\x00", "1\x00", "1:2", "1:0:0", ":", "")


@pytest.fixture
def world():
    world = LeagueWorld()
    world.draw()
    world.fixture = Fixture.objects.get(
        league=world.league, home=world.teams["north"], away=world.teams["south"]
    )
    world.url = f"/f/county/leagues/winter/fixtures/{world.fixture.pk}/"
    north = world.players["north"]
    # two games at north: north's captain's pair won the first, lost the second (side 0 wins)
    world.first = finished_game(world.clubs["north"], [north[:2], north[4:6]], 0, T0, "45")
    world.second = finished_game(world.clubs["north"], [north[4:6], north[2:4]], 0, T0, "45")
    return world


def _as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _audit(world) -> list[tuple]:
    return list(
        FederationAuditEntry.objects.filter(federation=world.county)
        .order_by("id")
        .values_list("kind", "details")
    )


def _stored(fixture: Fixture) -> tuple:
    fixture.refresh_from_db()
    tables = list(
        FixtureTable.objects.filter(fixture=fixture).values_list(
            "number", "game_id", "home_side", "winner"
        )
    )
    return (fixture.status, fixture.home_score, fixture.away_score, fixture.entered_for_id, tables)


def _form(response, form_id: str) -> str:
    return response.content.decode().split(f'id="{form_id}"')[1].split("</form>")[0]


def test_the_home_captain_enters_table_by_table_as_the_api_does(world):
    north = _as(world.captains["north"])
    form = _form(north.get(world.url), "tables-form")
    # the games by their players' names and scores, each with both sides; no seat, no id shown
    select = form.split('id="tables-1"')[1].split("</select>")[0]
    labels = re.findall(r'<option value="(\d+:[01])"[^>]*>([^<]*)</option>', select)
    assert [value for value, _label in labels] == [
        f"{world.second.pk}:0",
        f"{world.second.pk}:1",
        f"{world.first.pk}:0",
        f"{world.first.pk}:1",
    ]
    texts = [label.replace("&amp;", "&") for _value, label in labels]
    assert texts[2].startswith("North 0 & North 1 (home team) 25–11 North 4 & North 5, ")
    assert texts[3].startswith("North 4 & North 5 (home team) 11–25 North 0 & North 1, ")
    assert "seat" not in form.lower() and f">{world.first.pk}<" not in form
    assert 'label for="tables-1"' in form and 'label for="tables-2"' in form

    post = {
        "action": "enter_tables",
        "table_1": f"{world.first.pk}:0",  # north's pair held side 0 and won
        "table_2": f"{world.second.pk}:1",  # north's pair held side 1 and lost
    }
    response = north.post(world.url, post)
    assert response.status_code == 302 and response["Location"] == world.url
    by_page = _stored(world.fixture)
    north_team = world.teams["north"].pk
    assert by_page == (
        "entered",
        1,
        1,
        north_team,
        [(1, world.first.pk, 0, "home"), (2, world.second.pk, 1, "away")],
    )
    page_audit = _audit(world)[-1]
    assert page_audit[0] == "result_entered"
    assert page_audit[1] == {
        "league": world.league.pk,
        "fixture": world.fixture.pk,
        "home_score": 1,
        "away_score": 1,
        "games": [world.first.pk, world.second.pk],
    }
    # the page shows what is entered, picked again
    form = _form(north.get(world.url), "tables-form")
    assert f'<option value="{world.first.pk}:0" selected>' in form
    assert f'<option value="{world.second.pk}:1" selected>' in form

    # the API with the same tables stores exactly the same (a new entry replaces the first)
    _, token = issue_device_token(user=world.captains["north"], device="test")
    api = Client(HTTP_AUTHORIZATION=f"Token {token}")
    body = {
        "tables": [
            {"game": world.first.pk, "home_side": 0},
            {"game": world.second.pk, "home_side": 1},
        ]
    }
    url = f"/api/federations/county/leagues/winter/fixtures/{world.fixture.pk}/result/"
    assert api.post(url, json.dumps(body), content_type="application/json").status_code == 200
    assert _stored(world.fixture) == by_page
    assert _audit(world)[-1] == page_audit

    # the away captain accepts as from a paper entry
    south = _as(world.captains["south"])
    assert south.post(world.url, {"action": "accept"}).status_code == 302
    world.fixture.refresh_from_db()
    assert world.fixture.status == "played"


def test_a_table_left_empty_counts_for_nobody(world):
    north = _as(world.captains["north"])
    post = {"action": "enter_tables", "table_1": "", "table_2": f"{world.first.pk}:1"}
    assert north.post(world.url, post).status_code == 302
    assert _stored(world.fixture) == (
        "entered",
        0,
        1,
        world.teams["north"].pk,
        [(1, world.first.pk, 1, "away")],
    )


def test_bad_picks_are_refused_beside_their_table_and_store_nothing(world):
    north = _as(world.captains["north"])
    players = world.players
    elsewhere = finished_game(
        world.clubs["south"], [players["south"][:2], players["south"][2:4]], 0, T0, "45"
    )
    unfinished = finished_game(
        world.clubs["north"], [players["north"][:2], players["north"][4:6]], 0, T0, "45"
    )
    Game.objects.filter(pk=unfinished.pk).update(status=GameStatus.IN_PROGRESS, winner_side=None)
    wrong = (
        "The game is not a finished two-sided game of the league&#x27;s variant at the home "
        "club, or it is listed twice."
    )
    before = (_stored(world.fixture), _audit(world))
    cases = [
        ({"table_1": f"{elsewhere.pk}:0"}, 400, "table_1", wrong),
        (
            {"table_1": f"{world.first.pk}:0", "table_2": f"{world.first.pk}:1"},
            400,
            "table_2",
            wrong,
        ),
        ({"table_2": f"{unfinished.pk}:0"}, 400, "table_2", wrong),
        ({"table_1": "99999999:0"}, 400, "table_1", wrong),
        ({"table_1": "abc"}, 400, "table_1", "Choose one of the games."),
        ({"table_1": "", "table_2": ""}, 400, None, "Choose the game of one table at least."),
    ]
    for picks, status, field, text in cases:
        response = north.post(world.url, {"action": "enter_tables", **picks})
        assert response.status_code == status, picks
        form = _form(response, "tables-form")
        if field is None:
            assert text in form, picks
        else:
            number = field.split("_")[1]
            table = form.split(f'id="tables-{number}"')[1].split("<label")[0]
            assert text in table, picks
        for value in picks.values():  # a game offered and picked stays picked
            if value.split(":")[0] == str(world.first.pk):
                assert f'value="{value}" selected' in form, picks
    assert (_stored(world.fixture), _audit(world)) == before


def test_a_game_taken_by_another_fixture_is_not_offered_and_is_refused(world):
    other = Fixture.objects.get(
        league=world.league, home=world.teams["north"], away=world.teams["east"]
    )
    east_url = f"/f/county/leagues/winter/fixtures/{other.pk}/"
    north = _as(world.captains["north"])
    assert (
        north.post(east_url, {"action": "enter_tables", "table_1": f"{world.first.pk}:0"})[
            "Location"
        ]
        == east_url
    )
    form = _form(north.get(world.url), "tables-form")
    assert f'value="{world.first.pk}:0"' not in form and f'value="{world.second.pk}:0"' in form
    before = (_stored(world.fixture), _audit(world))
    response = north.post(world.url, {"action": "enter_tables", "table_1": f"{world.first.pk}:0"})
    assert response.status_code == 409
    assert "The game is already a table of a league fixture." in _form(response, "tables-form")
    assert (_stored(world.fixture), _audit(world)) == before


def test_only_the_home_captain_has_the_table_form(world):
    post = {"action": "enter_tables", "table_1": f"{world.first.pk}:0"}
    before = _stored(world.fixture)
    south = _as(world.captains["south"])
    page = south.get(world.url).content.decode()
    assert 'id="result-form"' in page and 'id="tables-form"' not in page
    users = (
        world.captains["south"],
        world.captains["east"],
        world.organiser,
        world.club_organiser,
        world.outsider,
        world.rival,
    )
    for user in users:
        assert _as(user).post(world.url, post).status_code == 403, user
    response = Client().post(world.url, post)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert _stored(world.fixture) == before
    for value in GARBAGE:
        response = _as(world.captains["north"]).post(world.url, {**post, "table_1": value})
        assert 400 <= response.status_code < 500, value
    assert _stored(world.fixture) == before


def test_no_game_to_offer(world):
    Game.objects.filter(pk__in=[world.first.pk, world.second.pk]).update(variant="25")
    form = _form(_as(world.captains["north"]).get(world.url), "tables-form")
    assert 'id="no-table-games"' in form and "<select" not in form


# --- a team's players -------------------------------------------------------------------------


def _team_url(world, slug="north") -> str:
    return f"/f/county/leagues/winter/teams/{world.teams[slug].pk}/"


def _members(world, slug="north") -> list[str]:
    return sorted(world.teams[slug].players.values_list("display_name", flat=True))


def test_anyone_reads_a_team_and_the_league_links_it(world):
    page = Client().get(_team_url(world)).content.decode()
    assert "<h1>North A</h1>" in page
    names = re.findall(r"<li><span>([^<]+)", page)
    assert names == ["North 0 ", "North 1", "North 2", "North 3"]
    assert "(captain)" in page and "<form" not in page.split("</h1>")[1]
    league = Client().get("/f/county/leagues/winter/").content.decode()
    assert f'href="{_team_url(world)}"' in league


@pytest.mark.parametrize("who", ["captain", "organiser"])
def test_the_captain_or_an_organiser_adds_and_takes_off_a_player(world, who):
    user = world.captains["north"] if who == "captain" else world.organiser
    client, url = _as(user), _team_url(world)
    form = _form(client.get(url), "add-player-form")
    options = re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', form)
    assert [name for _pk, name in options] == ["North 4", "North 5", "North 6", "North 7"]
    assert 'label for="add-player"' in form
    fifth = world.players["north"][4]
    assert client.post(url, {"action": "add_player", "player": fifth.pk})["Location"] == url
    assert _members(world) == ["North 0", "North 1", "North 2", "North 3", "North 4"]
    page = client.get(url).content.decode()
    assert 'aria-label="Take North 4 off the team"' in page
    assert 'aria-label="Take North 0 off the team"' not in page  # never the captain
    second = world.players["north"][1]
    assert client.post(url, {"action": "remove_player", "player": second.pk})["Location"] == url
    assert _members(world) == ["North 0", "North 2", "North 3", "North 4"]
    kinds = [(kind, details) for kind, details in _audit(world)[-2:]]
    team = world.teams["north"].pk
    assert kinds == [
        ("league_player_added", {"league": world.league.pk, "team": team, "player": fifth.pk}),
        ("league_player_removed", {"league": world.league.pk, "team": team, "player": second.pk}),
    ]


def test_team_refusals_store_nothing(world):
    client, url = _as(world.captains["north"]), _team_url(world)
    before = (_members(world), _audit(world))
    cases = [
        ("add_player", world.players["south"][4].pk, 400, "No such player in this club."),
        ("add_player", world.players["north"][1].pk, 400, "The player is in the team already."),
        ("remove_player", world.players["north"][5].pk, 400, "No such player in this team."),
        (
            "remove_player",
            world.players["north"][0].pk,
            409,
            "The captain stays in the team (they enter and answer its results).",
        ),
    ]
    for action, player, status, text in cases:
        response = client.post(url, {"action": action, "player": player})
        assert response.status_code == status, (action, player)
        assert text in response.content.decode(), (action, player)
    world.players["north"][6].is_active = False
    world.players["north"][6].save()
    response = client.post(url, {"action": "add_player", "player": world.players["north"][6].pk})
    assert (
        response.status_code == 400
        and "The player is no longer active." in response.content.decode()
    )
    for action in ("add_player", "remove_player"):
        for value in GARBAGE:
            response = client.post(url, {"action": action, "player": value})
            assert 400 <= response.status_code < 500, (action, value)
    assert client.post(url, {"action": "x", "player": "1"}).status_code == 400
    assert (_members(world), _audit(world)) == before


def test_only_the_captain_and_organisers_change_a_team(world):
    url, post = _team_url(world), {"action": "add_player", "player": world.players["north"][4].pk}
    for user in (
        world.captains["south"],
        world.club_organiser,
        world.outsider,
        world.rival,
    ):
        client = _as(user)
        assert "<form" not in client.get(url).content.decode().split("</h1>")[1], user
        assert client.post(url, post).status_code == 403, user
    response = Client().post(url, post)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert _members(world) == ["North 0", "North 1", "North 2", "North 3"]
    other = f"/f/county/leagues/winter/teams/{world.teams['south'].pk}/"
    assert _as(world.captains["north"]).post(other, post).status_code == 403
    assert (
        Client().get(f"/f/other/leagues/winter/teams/{world.teams['north'].pk}/").status_code == 404
    )


def test_the_team_page_in_french(world):
    page = _as(world.captains["north"]).get(_team_url(world), HTTP_ACCEPT_LANGUAGE="fr")
    text = page.content.decode()
    assert "Ajouter un joueur" in text and "(capitaine)" in text

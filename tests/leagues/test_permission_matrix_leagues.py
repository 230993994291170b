"""The leagues' permission matrix: every leagues route, every actor, an exact status.

What it checks: ``LEAGUE_ROUTES`` declares, for each route of the ``leagues`` API and of the
public league pages, and each method, what each actor gets — anonymous, an outsider (signed in,
no role), the organiser of a member club with a team (``club_organiser``, no captain), the home
team's captain (``captain``: north's), the away team's (``other_captain``: south's), the
federation's organiser and the organiser of another federation (``rival``): "ok" (any 2xx) or an
exact status (a page's form is posted form-encoded). Every such route of the URL conf must be
declared here (the main matrix delegates them, tests/permission_routes.py). Then: nothing crosses
federations or leagues (another federation's league, another league's team or fixture are 404),
and the methods a route does not declare are 405.

What it does not check: response bodies (tests/leagues/test_api.py does).
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import issue_device_token
from leagues import services
from leagues.models import Fixture
from tests.leagues.factories import LeagueWorld, make_league
from tests.permission_requests import all_routes, matches, path_parameters

ACTORS = (
    "anonymous",
    "outsider",
    "club_organiser",
    "captain",
    "other_captain",
    "organiser",
    "rival",
)

ANYONE = "ok ok ok ok ok ok ok"
ORGANISERS = "401 403 403 403 403 ok 403"
CAPTAINS = "401 403 403 ok ok 403 403"
OTHER_CAPTAIN = "401 403 403 403 ok 403 403"
# a team's players (north's): its captain and the federation's organisers
TEAM_MANAGERS = "401 403 403 ok 403 ok 403"
# the pages' forms: an anonymous post goes to the login page, a form done redirects to its page
PAGE_ORGANISERS = "302 403 403 403 403 302 403"
PAGE_CAPTAINS = "302 403 403 302 302 403 403"
# a team's page (north's): its captain and the federation's organisers change its players
PAGE_TEAM = "302 403 403 302 403 302 403"

LEAGUE_ROUTES: dict[str, dict[str, str]] = {
    "leagues:league-list": {"GET": ANYONE, "POST": ORGANISERS},
    "leagues:league-detail": {"GET": ANYONE},
    "leagues:team-list": {"GET": ANYONE, "POST": ORGANISERS},
    "leagues:team-players": {"POST": TEAM_MANAGERS},
    "leagues:team-player": {"DELETE": TEAM_MANAGERS},
    "leagues:fixture-list": {"GET": ANYONE, "POST": ORGANISERS},
    "leagues:fixture-detail": {"GET": ANYONE},
    "leagues:fixture-postpone": {"POST": ORGANISERS},
    "leagues:fixture-walkover": {"POST": ORGANISERS},
    # either captain enters (a new entry replaces one waiting); the other one answers
    "leagues:fixture-result": {"POST": CAPTAINS},
    "leagues:fixture-accept": {"POST": OTHER_CAPTAIN},
    "leagues:fixture-dispute": {"POST": OTHER_CAPTAIN},
    "leagues:penalty-list": {"GET": ANYONE, "POST": ORGANISERS},
    "league_pages:index": {"GET": ANYONE},
    # the organisers' forms (postpone, walkover, penalty: posted here, a penalty)
    "league_pages:league": {"GET": ANYONE, "POST": PAGE_ORGANISERS},
    # a fixture's page: its captains' forms (enter, accept, dispute: posted here, an entry)
    "league_pages:fixture": {"GET": ANYONE, "POST": PAGE_CAPTAINS},
    # a team's page: its players (posted here, one added)
    "league_pages:team": {"GET": ANYONE, "POST": PAGE_TEAM},
    "league_pages:team-calendar": {"GET": ANYONE},
    "league_pages:club-calendar": {"GET": ANYONE},
}


class World(LeagueWorld):
    """LeagueWorld (north, south, east) drawn; north v south has north's result entered; the
    league ``spring`` has two teams and no fixtures yet (for drawing and entering teams)."""

    def __init__(self) -> None:
        super().__init__()
        self.draw()
        self.users = {
            "anonymous": None,
            "outsider": self.outsider,
            "club_organiser": self.club_organiser,
            "captain": self.captains["north"],
            "other_captain": self.captains["south"],
            "organiser": self.organiser,
            "rival": self.rival,
        }
        league, teams = self.league, self.teams
        self.entered = Fixture.objects.get(league=league, home=teams["north"], away=teams["south"])
        services.enter_result(
            fixture=self.entered, user=self.captains["north"], home_score=1, away_score=1
        )
        self.open = Fixture.objects.get(league=league, home=teams["south"], away=teams["north"])
        self.spring = make_league(self.county, self.organiser, slug="spring")
        for slug in ("north", "south"):
            services.add_team(
                league=self.spring,
                user=self.organiser,
                club=self.clubs[slug],
                name=f"{slug.title()} S",
                captain_id=self.players[slug][0].pk,
                player_ids=[],
            )

    def kwargs(self, route_key: str) -> dict:
        entered = route_key in ("leagues:fixture-accept", "leagues:fixture-dispute")
        drawing = route_key in ("leagues:fixture-list", "leagues:team-list")
        return {
            "slug": "county",
            "federation_slug": "county",
            "league_slug": "spring" if drawing else "winter",
            "fixture_id": (self.entered if entered else self.open).pk,
            "team_id": self.teams["north"].pk,
            "player_id": self.players["north"][1].pk,
            "club_slug": "north",
        }


BODIES = {
    ("leagues:league-list", "POST"): lambda w: {
        "name": "Autumn",
        "slug": "autumn",
        "season_start": "2026-09-01",
        "season_end": "2026-12-31",
    },
    ("leagues:team-list", "POST"): lambda w: {
        "club": "east",
        "name": "East S",
        "captain": w.players["east"][0].pk,
        "players": [w.players["east"][1].pk],
    },
    ("leagues:team-players", "POST"): lambda w: {"player": w.players["north"][4].pk},
    ("leagues:fixture-list", "POST"): lambda w: {},
    ("leagues:fixture-postpone", "POST"): lambda w: {"date": "2026-11-03"},
    ("leagues:fixture-walkover", "POST"): lambda w: {"team": w.teams["north"].pk},
    ("leagues:fixture-result", "POST"): lambda w: {"home_score": 2, "away_score": 0},
    ("leagues:fixture-dispute", "POST"): lambda w: {"reason": "We won the second table"},
    ("leagues:penalty-list", "POST"): lambda w: {
        "team": w.teams["east"].pk,
        "points": 1,
        "reason": "Late start",
    },
    ("league_pages:league", "POST"): lambda w: {
        "action": "penalty",
        "team": w.teams["east"].pk,
        "points": 1,
        "reason": "Late start",
    },
    ("league_pages:fixture", "POST"): lambda w: {
        "action": "enter",
        "home_score": 2,
        "away_score": 0,
    },
    ("league_pages:team", "POST"): lambda w: {
        "action": "add_player",
        "player": w.players["north"][4].pk,
    },
}


def url_for(route_key: str, world: World) -> str:
    values = world.kwargs(route_key)
    return reverse(route_key, kwargs={name: values[name] for name in path_parameters(route_key)})


def client_for(world: World, actor: str, url: str) -> Client:
    client = Client()
    user = world.users[actor]
    if user is not None:
        if url.startswith("/api/"):
            _, token = issue_device_token(user=user, device="matrix")
            client.defaults["HTTP_AUTHORIZATION"] = f"Token {token}"
        else:
            client.force_login(user)
    return client


def _league_route(key: str) -> bool:
    return key.startswith(("leagues:", "league_pages:"))


def test_every_leagues_route_is_declared():
    keys = {route.key for route in all_routes() if _league_route(route.key)}
    assert keys == set(LEAGUE_ROUTES)


def _cases():
    for route_key, methods in LEAGUE_ROUTES.items():
        for method in methods:
            for actor in ACTORS:
                yield pytest.param(route_key, method, actor, id=f"{route_key}-{method}-{actor}")


@pytest.mark.django_db
@pytest.mark.parametrize(("route_key", "method", "actor"), list(_cases()))
def test_route_answers_as_declared(route_key, method, actor):
    world = World()
    url = url_for(route_key, world)
    body = BODIES.get((route_key, method))
    client = client_for(world, actor, url)
    if body is None:
        response = client.generic(method, url)
    elif not url.startswith("/api/"):  # a page's form
        response = client.post(url, body(world))
    else:
        response = client.generic(
            method, url, json.dumps(body(world)), content_type="application/json"
        )
    expected = dict(zip(ACTORS, LEAGUE_ROUTES[route_key][method].split(), strict=True))[actor]
    assert matches(expected, response.status_code), (
        f"{method} {url} as {actor}: expected {expected}, got {response.status_code} "
        f"{response.content[:300]!r}"
    )


@pytest.mark.django_db
def test_nothing_crosses_federations_or_leagues():
    """The rival's federation has no ``winter``; county's ids under another league are 404."""
    world = World()
    rival = client_for(world, "rival", "/api/")
    organiser = client_for(world, "organiser", "/api/")
    fixture = world.open.pk
    for client, method, url in [
        (rival, "GET", "/api/federations/other/leagues/winter/"),
        (rival, "POST", f"/api/federations/other/leagues/winter/fixtures/{fixture}/postpone/"),
        (organiser, "GET", f"/api/federations/county/leagues/spring/fixtures/{fixture}/"),
        (organiser, "POST", f"/api/federations/county/leagues/spring/fixtures/{fixture}/walkover/"),
    ]:
        assert client.generic(method, url, "{}", content_type="application/json").status_code == (
            404
        ), url
    response = organiser.post(
        "/api/federations/county/leagues/spring/penalties/",
        {"team": world.teams["east"].pk, "points": 1, "reason": "x"},
        content_type="application/json",
    )
    assert response.status_code == 404
    assert response.json()["errors"][0]["pointer"] == "/team"
    page = Client()
    team = world.teams["north"].pk
    assert page.get(f"/f/other/leagues/winter/teams/{team}.ics").status_code == 404
    assert page.get(f"/f/county/leagues/spring/teams/{team}.ics").status_code == 404
    assert page.get("/f/county/leagues/winter/clubs/west.ics").status_code == 404


@pytest.mark.django_db
def test_undeclared_methods_are_refused():
    """Every method a route does not declare is 405 for the actor who passes its checks."""
    world = World()
    failures = []
    for route_key, methods in LEAGUE_ROUTES.items():
        url = url_for(route_key, world)
        outcomes = [dict(zip(ACTORS, each.split(), strict=True)) for each in methods.values()]
        actor = max(
            ("organiser", "other_captain"),
            key=lambda name: sum(outcome[name] == "ok" for outcome in outcomes),
        )
        client = client_for(world, actor, url)
        declared = set(methods) | ({"HEAD"} if "GET" in methods else set())
        for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
            if method not in declared and client.generic(method, url).status_code != 405:
                failures.append(f"{method} {route_key}")
    assert failures == []

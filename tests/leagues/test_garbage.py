"""No 500 from garbage on the leagues' API: every GET route with a bad ``?ordering=``,
``?page=`` or filter, and every route that reads a body with a deeply nested one (400
``too_deeply_nested``, nothing stored), in the leagues' matrix world
(tests/leagues/test_permission_matrix_leagues.py); the general checks skip these routes
(tests/hardening/test_query_and_body_garbage.py). The pages' forms: tests/leagues/
test_league_pages.py."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import issue_device_token
from leagues.models import Fixture, League, LeagueTeam, Penalty
from tests.leagues import test_permission_matrix_leagues as matrix
from tests.permission_requests import all_routes, implemented_methods

PROBLEM = "application/problem+json"


def _client(user) -> Client:
    _, token = issue_device_token(user=user, device="garbage")
    return Client(HTTP_AUTHORIZATION=f"Token {token}")


def _rows():
    return [
        list(model.objects.order_by("pk").values())
        for model in (League, LeagueTeam, Fixture, Penalty)
    ]


@pytest.mark.django_db
def test_league_routes_survive_garbage_and_deep_nesting():
    world = matrix.World()
    clients = {actor: _client(world.users[actor]) for actor in ("organiser", "other_captain")}
    routes = [route for route in all_routes() if route.key.startswith("leagues:")]
    gets = [
        matrix.url_for(route.key, world)
        for route in routes
        if "GET" in implemented_methods(route.view_class)
    ]
    assert len(gets) == 6
    queries = (
        "ordering=no_such_field",
        "ordering=%00%27%22;--,,-,__",
        "page=abc",
        "team=abc",
        "team=99999999999999999999",
        "club=%00%27%22;--",
        "club=north%00",
    )
    for url in gets:
        for query in queries:
            response = clients["organiser"].get(f"{url}?{query}")
            assert response.status_code in (200, 400, 404), (url, query, response.status_code)
            if response.status_code != 200:
                assert response["Content-Type"] == PROBLEM, (url, query)

    before = _rows()
    body = "[" * 950 + "]" * 950
    checked = 0
    for route_key, method in matrix.BODIES:
        if not route_key.startswith("leagues:"):
            continue  # the pages' forms: tests/leagues/test_league_pages.py
        url = matrix.url_for(route_key, world)
        captain = route_key in ("leagues:fixture-result", "leagues:fixture-dispute")
        writer = clients["other_captain" if captain else "organiser"]
        response = writer.generic(method, url, body, content_type="application/json")
        assert response.status_code == 400, (method, url, response.status_code)
        assert response.json()["code"] == "too_deeply_nested", (method, url)
        checked += 1
    assert checked == 9
    assert _rows() == before

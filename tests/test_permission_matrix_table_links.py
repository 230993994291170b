"""The permission matrix's table-link actors: every route, for a tablet holding a table link.

What it does: a tablet holding a table link (``Authorization: Table <token>``, no account, no
session) may use exactly the routes of ``TABLE_LINK_ROUTES`` for its own game; everything else in
the API is a 404 (nothing is revealed, nothing stored), and the pages, which never read the
header, treat it as the anonymous visitor it is (``ROUTES``' anonymous outcome). "other table's
link" holds a live link of another game of the same club: its own table answers (/api/table/),
this game does not exist for it. Every route of ``ROUTES`` is run, every declared method, by both.

What it does not do: run the other kinds of user (tests/test_permission_matrix.py).
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.views import APIView

from tests.permission_requests import (
    TOURNAMENT_PARAMETERS,
    Route,
    all_routes,
    matches,
    path_parameters,
    url_for,
    world_for_matrix,
)
from tests.permission_routes import BODIES, ROUTES, Delegated
from tests.rankings.matrix import RANKING_PARAMETERS
from tests.settlements.matrix import JOB_PARAMETERS

TABLE_LINK_ROUTES: dict[str, dict[str, str]] = {
    "games:game-detail": {"GET": "ok"},
    "games:hand-list": {"GET": "ok", "POST": "ok"},
    "games:hand-detail": {"GET": "ok", "PUT": "428", "DELETE": "428"},
    "games:hand-preview": {"POST": "ok"},
    "games:correction-preview": {"POST": "ok"},
    "games:legal-plays": {"POST": "ok"},
    "games:game-history": {"GET": "ok"},
    "tables:current": {"GET": "ok"},
}
TABLE_ACTORS = ("table link", "other table's link")


def _table_link_expectation(route: Route, method: str, actor: str) -> str:
    allowed = TABLE_LINK_ROUTES.get(route.key, {}).get(method)
    if allowed is not None:
        if actor == "table link" or route.key == "tables:current":
            return allowed
        return "404"
    if route.view_class is not None and issubclass(route.view_class, APIView):
        return "404"
    return ROUTES[route.key][method].outcomes(False)["anonymous"]


def _table_link_cases():
    routes = {route.key: route for route in all_routes()}
    for route_key, declaration in ROUTES.items():
        if not isinstance(declaration, Delegated):
            yield pytest.param(routes[route_key], id=route_key)


def test_table_link_routes_are_declared_routes():
    for route_key, methods in TABLE_LINK_ROUTES.items():
        declaration = ROUTES.get(route_key)
        assert isinstance(declaration, dict) and set(methods) <= set(declaration), route_key


@pytest.mark.django_db
@pytest.mark.parametrize("route", list(_table_link_cases()))
def test_a_table_link_answers_as_declared(route):
    """Every declared method of the route, by both actors, in one world: the other table's
    link first (it must store nothing), then this table's (its writes are valid bodies)."""
    parameters = set(path_parameters(route.key))
    world = world_for_matrix(
        public=False,
        with_game=True,
        with_tournament=bool(parameters & TOURNAMENT_PARAMETERS),
        with_practice=bool(parameters & {"practice_game_id", "token"}),
        with_jobs=bool(parameters & JOB_PARAMETERS),
        with_federation=bool(parameters & RANKING_PARAMETERS),
    )
    url = url_for(route.key, world)
    bodies = {
        method: BODIES[(route.key, method)](world)
        for method in ROUTES[route.key]
        if (route.key, method) in BODIES
    }
    failures = []
    for actor in reversed(TABLE_ACTORS):
        client = Client(HTTP_AUTHORIZATION=f"Table {world.extra['table_tokens'][actor]}")
        for method in ROUTES[route.key]:
            if method not in bodies:
                response = client.generic(method, url)
            else:
                response = client.generic(
                    method, url, json.dumps(bodies[method]), content_type="application/json"
                )
            expected = _table_link_expectation(route, method, actor)
            if not matches(expected, response.status_code):
                failures.append(
                    f"{method} {url} with {actor}: expected {expected}, got "
                    f"{response.status_code} {response.content[:200]!r}"
                )
    assert failures == [], "; ".join(failures)

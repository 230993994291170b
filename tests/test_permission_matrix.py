"""Every route of the URL conf, every method, every kind of user: the status is a decision.

What it does: ``ROUTES`` (tests/permission_routes.py) declares, for each route (by name, or by
pattern for unnamed ones; glob keys like ``"admin:*"`` allowed) and each HTTP method, what an
anonymous user, an outsider (logged in, no role), a player, a scorekeeper and an organiser of the
club get — "ok" (any 2xx), or an exact status. Routes under a club are run against a private club
and again against a public one. ``test_every_route_is_declared`` walks the URL conf: a route
missing from the table, a method a view implements but the table does not declare (for API
views), or a table row that matches no route fails. So no endpoint ships without someone
deciding who may use it.

HEAD and OPTIONS, decided once for every route: HEAD answers exactly as GET would, for every
role, without a body (``test_head_answers_as_get_does``); a route without GET refuses it. OPTIONS
is refused with 405 everywhere in the API (settings: no DRF metadata; the schema describes the
API) and on the pages; only Django's own views answer it (an empty reply listing the methods).
``test_undeclared_methods_are_refused`` sends every method a route does not declare, as the
organiser (who passes the permission checks), and expects 405 unless ``UNDECLARED_METHODS``
says otherwise.

Adding a route: add a row to ``ROUTES`` (reuse the named expectations there), a request body to
``BODIES`` for methods that take one (it must be valid, so "ok" really means the write worked),
and, when the route has a new path parameter, a value in ``World.path_values``
(tests/clubs/factories.py) or in ``world_for_matrix`` (tests/permission_requests.py).

How requests authenticate: API routes (``/api/…``) with a device token (``Authorization:
Token …``, as tablets do); pages and the admin with a session.

What it does not do: check response bodies (the app tests do), or run the table-link actors
(tests/test_permission_matrix_table_links.py).
"""

from __future__ import annotations

import fnmatch
import json

import pytest
from rest_framework.views import APIView

from tests.clubs.factories import ROLE_NAMES
from tests.permission_requests import (
    all_routes,
    client_for,
    declaration_for,
    implemented_methods,
    matches,
    url_for,
    world_for_matrix,
    world_for_route,
)
from tests.permission_routes import (
    ADMIN,
    ALL_METHODS,
    BODIES,
    REDIRECT_TO_LOGIN,
    ROUTES,
    UNDECLARED_METHODS,
    Delegated,
)

# The table ---------------------------------------------------------------------------------------


def test_every_route_is_declared():
    routes = all_routes()
    undeclared = [route.key for route in routes if declaration_for(route.key) is None]
    assert undeclared == [], "declare these routes in ROUTES: " + ", ".join(undeclared)

    mismatched = []
    for route in routes:
        declaration = declaration_for(route.key)
        if isinstance(declaration, Delegated):
            continue
        if route.view_class is not None and issubclass(route.view_class, APIView):
            implemented = implemented_methods(route.view_class)
            if implemented != set(declaration):
                mismatched.append(f"{route.key}: view has {sorted(implemented)}")
    assert mismatched == [], "methods not declared as implemented: " + "; ".join(mismatched)

    keys = [route.key for route in routes]
    stale = [key for key in ROUTES if not any(fnmatch.fnmatchcase(k, key) for k in keys)]
    assert stale == [], "ROUTES rows that match no route: " + ", ".join(stale)


def test_the_table_lookup_prefers_exact_keys_and_refuses_unknown_routes():
    assert declaration_for("admin:index") == {"GET": REDIRECT_TO_LOGIN}
    assert declaration_for("admin:clubs_player_changelist") is ADMIN
    assert declaration_for("admin/clubs/player/<path:object_id>/") is ADMIN
    assert declaration_for("clubs:not-a-route") is None
    assert declaration_for("games:not-a-route") is None


def test_bodies_belong_to_declared_methods():
    for route_key, method in BODIES:
        declaration = ROUTES.get(route_key)
        assert isinstance(declaration, dict) and method in declaration, (route_key, method)


def test_undeclared_method_exceptions_are_for_undeclared_methods():
    for route_key, outcomes in UNDECLARED_METHODS.items():
        declaration = ROUTES.get(route_key)
        assert isinstance(declaration, dict), route_key
        assert not set(outcomes) & set(declaration), route_key
        assert set(outcomes) <= set(ALL_METHODS), route_key


# The requests -----------------------------------------------------------------------------------


def _cases():
    for route_key, declaration in ROUTES.items():
        if isinstance(declaration, Delegated):
            continue
        for method, expect in declaration.items():
            for public in (False, True) if expect.public is not None else (False,):
                for role_name in ROLE_NAMES:
                    club = "public" if public else "private"
                    yield pytest.param(
                        route_key,
                        method,
                        public,
                        role_name,
                        id=f"{route_key}-{method}-{club}-{role_name}",
                    )


@pytest.mark.django_db
@pytest.mark.parametrize(("route_key", "method", "public", "role_name"), list(_cases()))
def test_route_answers_as_declared(route_key, method, public, role_name):
    world = world_for_route(route_key, public=public)
    url = url_for(route_key, world)
    client = client_for(world, role_name, url)
    body = BODIES.get((route_key, method))
    if body is None:
        response = client.generic(method, url)
    else:
        response = client.generic(
            method, url, json.dumps(body(world)), content_type="application/json"
        )
    expected = ROUTES[route_key][method].outcomes(public)[role_name]
    assert matches(expected, response.status_code), (
        f"{method} {url} as {role_name}: expected {expected}, got {response.status_code} "
        f"{response.content[:300]!r}"
    )


def _head_cases():
    for route_key, declaration in ROUTES.items():
        if isinstance(declaration, dict) and "GET" in declaration:
            for public in (False, True) if declaration["GET"].public is not None else (False,):
                club = "public" if public else "private"
                yield pytest.param(route_key, public, id=f"{route_key}-{club}")


@pytest.mark.django_db
@pytest.mark.parametrize(("route_key", "public"), list(_head_cases()))
def test_head_answers_as_get_does(route_key, public):
    world = world_for_route(route_key, public=public)
    url = url_for(route_key, world)
    failures = []
    for role_name, outcome in ROUTES[route_key]["GET"].outcomes(public).items():
        response = client_for(world, role_name, url).head(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        if not matches(outcome, response.status_code) or body != b"":
            failures.append(
                f"{role_name}: expected {outcome}, got {response.status_code} "
                f"with {len(body)} bytes"
            )
    assert failures == [], f"HEAD {url}: " + "; ".join(failures)


@pytest.mark.django_db
def test_undeclared_methods_are_refused():
    world = world_for_matrix(
        public=False,
        with_game=True,
        with_tournament=True,
        with_practice=True,
        with_jobs=True,
        with_federation=True,
    )
    failures = []
    checked = 0
    for route_key, declaration in ROUTES.items():
        if isinstance(declaration, Delegated):
            continue
        url = url_for(route_key, world)
        client = client_for(world, "organiser", url)
        declared = set(declaration) | ({"HEAD"} if "GET" in declaration else set())
        for method in ALL_METHODS:
            if method in declared:
                continue
            expected = UNDECLARED_METHODS.get(route_key, {}).get(method, 405)
            status_code = client.generic(method, url).status_code
            checked += 1
            if status_code != expected:
                failures.append(f"{method} {route_key}: expected {expected}, got {status_code}")
    assert failures == [], "; ".join(failures)
    assert checked > 100  # the walk really ran over the table

"""No 500 from query or body garbage: every list route's ``?ordering=`` and ``?page=``, deeply
nested JSON on every JSON endpoint, and a body over a route's size limit.

What it proves: every GET route of the API (club, game and tournament routes filled from one
world) answers 200 or a 400 problem document for an ordering by a valid field, an unknown field
and garbage, and for page garbage; a 2 KB body nested 950 levels deep is a 400
``too_deeply_nested`` problem on every POST/PUT/PATCH route of the API, anonymous token login
included, and nothing is stored; a body over 64 KiB is a 413 ``body_too_large`` problem.

What it does not do: check what the lists contain (the app tests do).
"""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import issue_device_token
from tests.permission_requests import (
    all_routes,
    implemented_methods,
    path_parameters,
    world_for_matrix,
)

PROBLEM = "application/problem+json"


@pytest.fixture
def world(db):
    return world_for_matrix(
        public=True,
        with_game=True,
        with_tournament=True,
        with_practice=True,
        with_jobs=True,
        with_federation=True,
    )


@pytest.fixture
def organiser_client(world) -> Client:
    _, token = issue_device_token(user=world.users["organiser"], device="garbage")
    return Client(HTTP_AUTHORIZATION=f"Token {token}")


def _api_urls(world, method: str) -> list[str]:
    from django.urls import reverse

    values = world.path_values()
    urls = []
    for route in all_routes():
        if not route.pattern.startswith("api/") or route.view_class is None:
            continue
        # tables:current answers only a request holding a table link (404 to anyone else: the
        # permission matrix's table-link actors walk it); hall:screen only a live hall link's
        # credential (tests/hall/test_api.py).
        if route.key in ("schema", "api-docs", "tables:current", "hall:screen"):
            continue
        # A federation's routes have their own world and actors (the test at the end); so have
        # its leagues' (tests/leagues/test_garbage.py).
        if route.key.startswith(("federations:", "leagues:")):
            continue
        if method not in implemented_methods(route.view_class):
            continue
        kwargs = {name: values[name] for name in path_parameters(route.key)}
        urls.append(reverse(route.key, kwargs=kwargs))
    return urls


def _assert_ok_or_problem(response, url: str) -> None:
    assert response.status_code in (200, 400), (url, response.status_code, response.content[:300])
    if response.status_code == 400:
        assert response["Content-Type"] == PROBLEM, url


def test_every_list_route_survives_ordering_and_page_garbage(world, organiser_client):
    urls = _api_urls(world, "GET")
    assert "/api/tournaments/{}/matches/".format(world.path_values()["tournament_id"]) in urls
    queries = [
        "ordering=id",
        "ordering=-created_at",
        "ordering=no_such_field",
        "ordering=%00%27%22;--,,-,__",
        "page=abc",
        "page=99999999999999999999999",
        "page_size=abc&page=1",
    ]
    for url in urls:
        for query in queries:
            for client in (organiser_client, Client()):
                response = client.get(f"{url}?{query}")
                if client is not organiser_client and response.status_code in (401, 403, 404):
                    continue  # an anonymous reader who may not read the route at all
                _assert_ok_or_problem(response, f"{url}?{query}")


def test_match_list_orders_by_a_declared_field(world, organiser_client):
    url = f"/api/tournaments/{world.path_values()['tournament_id']}/matches/"
    for ordering in ("table", "-table", "round__number"):
        response = organiser_client.get(url, {"ordering": ordering})
        assert response.status_code == 200, response.content


def test_page_garbage_is_an_invalid_page_problem(world, organiser_client):
    response = organiser_client.get(f"/api/clubs/{world.club.slug}/players/?page=abc")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_page"


def test_deeply_nested_bodies_are_refused_cheaply_everywhere(world, organiser_client):
    body = "[" * 950 + "]" * 950
    assert len(body) < 2048
    tournament_id = world.path_values()["tournament_id"]
    # These take no body and never read one (logout would end the organiser's token).
    bodiless = {
        "/api/auth/logout/",
        f"/api/tournaments/{tournament_id}/rounds/",
        f"/api/tournaments/{tournament_id}/close/",
        f"/api/invitations/{world.path_values()['invitation_id']}/accept/",
        f"/api/tournaments/{tournament_id}/rounds/1/release/",
        f"/api/nights/{world.path_values()['night_id']}/close/",
        f"/api/transfers/{world.path_values()['transfer_id']}/paid/",
        f"/api/tournaments/{tournament_id}/hall/link/",
        f"/api/nights/{world.path_values()['night_id']}/hall/link/",
    }

    urls = {
        method: [url for url in _api_urls(world, method) if url not in bodiless]
        for method in ("POST", "PUT", "PATCH")
    }
    assert "/api/auth/token/" in urls["POST"]
    from games.models import Hand

    hands_before = Hand.objects.count()
    for method, method_urls in urls.items():
        for url in method_urls:
            for client in (organiser_client, Client()):
                response = client.generic(
                    method, url, body, content_type="application/json", HTTP_IF_MATCH='"x"'
                )
                if response.status_code in (401, 403, 404) and client is not organiser_client:
                    continue
                assert response.status_code == 400, (method, url, response.status_code)
                assert response["Content-Type"] == PROBLEM
                assert response.json()["code"] == "too_deeply_nested", (method, url)
    assert Hand.objects.count() == hands_before


def test_nesting_inside_strings_is_text_not_structure(world):
    response = Client().post(
        "/api/auth/token/",
        {"username": "[" * 900 + "{" * 90, "password": "x"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"  # the username is too long, not too deep


def test_a_body_over_the_limit_is_413(world, organiser_client):
    game_id = world.path_values()["game_id"]
    body = '{"dealer": 0, "padding": "' + "x" * (64 * 1024) + '"}'
    response = organiser_client.post(
        f"/api/games/{game_id}/hands/", body, content_type="application/json"
    )
    assert response.status_code == 413
    assert response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "body_too_large"


WRITERS = {
    "federations:player-detail": "player",
    "federations:event-club-nominations": "club_organiser",
}


@pytest.mark.django_db
def test_federation_routes_survive_garbage_and_deep_nesting():
    """The same two checks on the federations' API, in their matrix's world, by the county's
    organiser (tests/federations/test_permission_matrix_federations.py)."""
    from federations.models import Federation, FederationPlayer
    from tests.federations import test_permission_matrix_federations as federations_matrix

    world = federations_matrix.World()
    clients = {}
    for actor in ("organiser", "player", "club_organiser"):
        _, token = issue_device_token(user=world.users[actor], device="garbage")
        clients[actor] = Client(HTTP_AUTHORIZATION=f"Token {token}")
    routes = [route for route in all_routes() if route.key.startswith("federations:")]
    gets = {
        federations_matrix.url_for(route.key, world): clients[WRITERS.get(route.key, "organiser")]
        for route in routes
        if "GET" in implemented_methods(route.view_class)
    }
    assert "/api/federations/county/players/" in gets
    for url, reader in gets.items():
        for query in ("ordering=no_such_field", "ordering=%00%27%22;--,,-,__", "page=abc"):
            _assert_ok_or_problem(reader.get(f"{url}?{query}"), f"{url}?{query}")

    before = (list(Federation.objects.values()), list(FederationPlayer.objects.values()))
    body = "[" * 950 + "]" * 950
    checked = 0
    # The routes that read a body are those the matrix posts one to; the others read none.
    for route_key, method in federations_matrix.BODIES:
        if route_key.startswith("federations:"):
            url = federations_matrix.url_for(route_key, world)
            # A player's public choices are the player's to change (the organisers read them);
            # a club's nominations for an event are its organisers'.
            writer = clients[WRITERS.get(route_key, "organiser")]
            response = writer.generic(method, url, body, content_type="application/json")
            assert response.status_code == 400, (method, url, response.status_code)
            assert response.json()["code"] == "too_deeply_nested", (method, url)
            checked += 1
    assert checked == 12  # the bodies the federations matrix posts: events' and organisers' too
    assert (list(Federation.objects.values()), list(FederationPlayer.objects.values())) == before


def test_nesting_depth_counts_brackets_outside_strings():
    from config.parsers import nesting_depth

    assert nesting_depth(b'{"a": [[1], {"b": "[[[["}]}', 32) == 3
    assert nesting_depth(b'"\\"[[["', 32) == 0
    assert nesting_depth(b"[" * 100, 32) == 33

"""Query counts of the clubs list and detail endpoints, pinned so N+1 cannot creep in.

Each list is measured at two sizes: the count must be the same (and exact). Users are
authenticated with ``force_authenticate``, so no authentication query is counted.
"""

from __future__ import annotations

import pytest

from clubs.models import Membership, Role
from tests.clubs.factories import build_world, make_club, make_player, make_team, make_user
from tests.helpers import api_client

pytestmark = pytest.mark.django_db


def _grow(world, count: int) -> None:
    """Add ``count`` players, ``count // 2`` teams of them and ``count`` members."""
    players = [make_player(world.club, f"Extra {index:03d}") for index in range(count)]
    for index in range(0, count - 1, 2):
        make_team(world.club, f"Extra team {index:03d}", players[index : index + 2])
    for index in range(count):
        Membership.objects.create(
            club=world.club, user=make_user(f"extra-{index:03d}"), role=Role.PLAYER
        )


# club lookup + role (annotated on the same query), count, page (+ prefetch for teams)
LIST_QUERIES = {"players": 3, "teams": 4, "memberships": 3}
# what build_world has, and how many each _grow(world, size) adds
LIST_SIZES = {"players": (5, 1), "teams": (1, 0.5), "memberships": (4, 1)}


@pytest.mark.parametrize("size", [0, 12])
@pytest.mark.parametrize("collection", sorted(LIST_QUERIES))
def test_club_collection_lists(django_assert_num_queries, collection, size):
    world = build_world()
    _grow(world, size)
    client = api_client(world.users["organiser"])
    with django_assert_num_queries(LIST_QUERIES[collection]):
        response = client.get(f"/api/clubs/{world.club.slug}/{collection}/")
    assert response.status_code == 200
    base, per_size = LIST_SIZES[collection]
    assert len(response.json()["results"]) == base + int(size * per_size)


@pytest.mark.parametrize("size", [1, 10])
def test_club_list(django_assert_num_queries, size):
    user = make_user("member")
    for index in range(size):
        club = make_club(f"club-{index}", public=index % 2 == 0)
        if index % 3 == 0:
            Membership.objects.create(club=club, user=user, role=Role.PLAYER)
    with django_assert_num_queries(2):  # count, page (roles annotated)
        response = api_client(user).get("/api/clubs/")
    assert response.status_code == 200
    with django_assert_num_queries(2):
        response = api_client().get("/api/clubs/")
    assert response.status_code == 200


def test_public_players_list_for_anonymous(django_assert_num_queries):
    world = build_world(public=True)
    _grow(world, 6)
    with django_assert_num_queries(3):
        response = api_client().get(f"/api/clubs/{world.club.slug}/players/")
    assert response.status_code == 200
    assert response.json()["count"] == 11


@pytest.mark.parametrize(
    ("path", "queries"),
    [
        ("", 1),  # the club, with the viewer's role
        ("players/{player_id}/", 2),
        ("teams/{team_id}/", 3),  # team, its members with their players
        ("memberships/{membership_id}/", 2),
    ],
)
def test_detail_endpoints(django_assert_num_queries, path, queries):
    world = build_world()
    url = f"/api/clubs/{world.club.slug}/" + path.format(**world.path_values())
    client = api_client(world.users["organiser"])
    with django_assert_num_queries(queries):
        response = client.get(url)
    assert response.status_code == 200

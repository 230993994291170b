"""The public ranking reads: the API and the pages list exactly the ranked players who chose to
be ranked, with the names they chose; filters by game and club; ETag/304; the history across
clubs; query counts that do not grow with the players shown."""

from __future__ import annotations

import pytest
from django.test import Client

from federations.models import NameShown
from rankings.build import update_rankings
from rankings.models import FederationRating
from tests.helpers import api_client
from tests.rankings.seed import at, finished_game, settled_night, two_clubs
from tests.rankings.test_build import PLAN, play

pytestmark = pytest.mark.django_db


def ranked(extra_plan=()):
    world = two_clubs()
    play(world, [*PLAN, *extra_plan])
    finished_game(
        world.clubs[1],
        [[world.club_players["Eve@b"]], [world.club_players["Fay@b"]]],
        0,
        at(7),
        variant="45",
    )
    players = world.club_players
    settled_night(world.clubs[0], {players["Ann@a"]: 1, players["Cat@a"]: 2}, at(8))
    update_rankings(federation_id=world.federation.pk)
    return world


def expected_order(world) -> list[str]:
    return [
        row.federation_player.display_name
        for row in FederationRating.objects.filter(federation=world.federation)
        .select_related("federation_player")
        .order_by("-ordinal", "-points", "federation_player_id")
    ]


def api_names(world, query: str = "") -> list[str]:
    response = api_client().get(f"/api/federations/{world.federation.slug}/rankings/{query}")
    assert response.status_code == 200, response.content
    return [row["player"]["name"] for row in response.json()["results"]]


def test_the_api_lists_every_ranked_player_best_first_with_positions():
    world = ranked()
    response = api_client().get(f"/api/federations/{world.federation.slug}/rankings/")
    body = response.json()
    assert body["count"] == 6
    assert [row["player"]["name"] for row in body["results"]] == expected_order(world)
    assert [row["position"] for row in body["results"]] == [1, 2, 3, 4, 5, 6]
    ann = next(row for row in body["results"] if row["player"]["name"] == "Ann Byrne")
    rating = FederationRating.objects.get(federation_player=world.people["Ann"])
    assert ann["games"] == 5 and ann["points"] == 1 and ann["events"] == 1
    assert ann["ordinal"] == round(rating.ordinal, 1) and ann["form"] == rating.form


def test_filters_by_game_and_club():
    world = ranked()
    assert api_names(world, "?game=45") == [
        n for n in expected_order(world) if n in ("Eve Byrne", "Fay Byrne")
    ]
    at_a = {"Ann Byrne", "Bob Byrne", "Cat Byrne", "Dan Byrne"}
    assert api_names(world, f"?club={world.clubs[0].slug}") == [
        n for n in expected_order(world) if n in at_a
    ]
    response = api_client().get(f"/api/federations/{world.federation.slug}/rankings/?game=99")
    assert response.status_code == 400
    page = Client().get(f"/f/{world.federation.slug}/rankings/?game=45")
    assert page.status_code == 200
    assert page.content.decode().count('class="jump"') == 2
    assert Client().get(f"/f/{world.federation.slug}/rankings/?game=99").status_code == 400


def test_hidden_players_are_left_out_and_names_shown_as_chosen():
    world = ranked()
    bob, cat = world.people["Bob"], world.people["Cat"]
    bob.ranking_shown = False
    bob.save()
    cat.name_shown = NameShown.INITIALS
    cat.save()
    names = api_names(world)
    assert "Bob Byrne" not in names and "C. B." in names and "Cat Byrne" not in names
    assert len(names) == 5
    page = Client().get(f"/f/{world.federation.slug}/rankings/").content.decode()
    assert "Bob Byrne" not in page and "C. B." in page and "Cat Byrne" not in page
    slug = world.federation.slug
    assert api_client().get(f"/api/federations/{slug}/players/{bob.pk}/history/").status_code == 404
    assert Client().get(f"/f/{slug}/rankings/players/{bob.pk}/").status_code == 404
    history = api_client().get(f"/api/federations/{slug}/players/{cat.pk}/history/").json()
    assert history["player"] == {"id": cat.pk, "name": "C. B."}


def test_etag_and_not_modified_until_the_ranking_moves():
    world = ranked()
    url = f"/api/federations/{world.federation.slug}/rankings/"
    first = api_client().get(url)
    etag = first["ETag"]
    assert api_client().get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    finished_game(
        world.clubs[0],
        [[world.club_players["Ann@a"]], [world.club_players["Dan@a"]]],
        1,
        at(9),
    )
    update_rankings(federation_id=world.federation.pk)
    moved = api_client().get(url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag


def test_a_players_history_across_clubs():
    world = ranked()
    ann = world.people["Ann"]
    body = (
        api_client()
        .get(f"/api/federations/{world.federation.slug}/players/{ann.pk}/history/")
        .json()
    )
    assert body["count"] == 5
    assert [step["club"]["slug"][-1] for step in body["results"]] == ["b", "a", "a", "b", "a"]
    assert [step["won"] for step in body["results"]] == [False, False, True, True, False]
    assert body["placings"] == [
        {
            "event": "Friday drive",
            "club": {"slug": world.clubs[0].slug, "name": world.clubs[0].name},
            "kind": "night",
            "held_at": at(8).isoformat().replace("+00:00", "Z"),
            "place": 1,
            "field": 2,
            "points": 1,
        }
    ]
    assert body["rating"]["position"] == expected_order(world).index("Ann Byrne") + 1
    page = Client().get(f"/f/{world.federation.slug}/rankings/players/{ann.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="form-chart"' in text and "<polyline" in text and "<script" not in text
    assert text.count("<tr>") == 1 + 1 + 1 + 5  # two heads, one placing, five games


def _count(django_assert_num_queries, url, queries, client):
    with django_assert_num_queries(queries):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("extra", [0, 4])
def test_query_counts_do_not_grow_with_the_players(django_assert_num_queries, extra):
    more = [(0, [[f"{n}@a"] for n in ("Ann", "Bob", "Cat", "Dan")], 0, 10)] * extra
    world = ranked(more)
    slug = world.federation.slug
    # the federation, the ETag, the count, the page
    _count(django_assert_num_queries, f"/api/federations/{slug}/rankings/", 4, api_client())
    # the federation, the clubs of the filter, the count, the page
    _count(django_assert_num_queries, f"/f/{slug}/rankings/", 4, Client())
    ann = world.people["Ann"].pk
    # the federation, the player, the ETag, the rating, its position, the count, the games,
    # the placings
    _count(
        django_assert_num_queries,
        f"/api/federations/{slug}/players/{ann}/history/",
        8,
        api_client(),
    )
    # the federation, the player, the rating, its position, the games, the placings
    _count(django_assert_num_queries, f"/f/{slug}/rankings/players/{ann}/", 6, Client())


def test_the_pages_speak_french():
    world = ranked()
    slug, ann = world.federation.slug, world.people["Ann"].pk
    ranking = Client().get(f"/f/{slug}/rankings/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Classement de County Board" in ranking and "Tous les clubs" in ranking
    player = Client().get(f"/f/{slug}/rankings/players/{ann}/", HTTP_ACCEPT_LANGUAGE="fr")
    text = player.content.decode()
    assert "La forme au fil du temps" in text and "1 sur 2" in text
    assert "Form over time" not in text

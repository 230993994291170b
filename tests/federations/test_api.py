"""The federations API end to end: a county board is made, a club invited and accepted, players
linked, merged and un-merged, the player's choices, the levy, the results read, the schema.

What it checks: the exact bodies of the main answers; bad input is a problem with its code and
pointer and stores nothing (an unknown field, a bad rate, an unknown club, a link across
federations); the federation's reads of a member club are read only; every route is in the
OpenAPI schema.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

import pytest
from rest_framework.test import APIClient

from federations.api import urls as federation_urls
from federations.models import Federation, FederationAuditEntry, PlayerLink
from tests.clubs.factories import make_club, make_membership, make_player, make_user
from tests.federations.factories import make_federation_player, make_link, make_member
from tests.federations.levy_helpers import night_game

pytestmark = pytest.mark.django_db

DUBLIN = zoneinfo.ZoneInfo("Europe/Dublin")


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_county_board_through_the_api():
    secretary, north_organiser = make_user("secretary"), make_user("north-organiser")
    north = make_club("north")
    make_membership(north, north_organiser, "organiser")
    board, club = client_of(secretary), client_of(north_organiser)
    created = board.post(
        "/api/federations/",
        {"name": "Kilkenny County Board", "slug": "kk", "currency": "EUR", "levy_rate": "0.50"},
        format="json",
    )
    assert created.status_code == 201
    assert created.json() == {
        "name": "Kilkenny County Board",
        "slug": "kk",
        "currency": "EUR",
        "levy_rate": "0.50",
        "member_clubs": [],
    }
    invited = board.post("/api/federations/kk/clubs/", {"club": "north"}, format="json")
    assert (invited.status_code, invited.json()["state"]) == (201, "invited")
    accepted = club.post("/api/federations/kk/clubs/north/accept/")
    assert (accepted.status_code, accepted.json()["state"]) == (200, "member")
    assert board.get("/api/federations/kk/").json()["member_clubs"] == ["north"]

    ann, ann_again = make_player(north, "Ann"), make_player(north, "Ann B")
    one = board.post("/api/federations/kk/players/", {"display_name": "Ann Byrne"}, format="json")
    two = board.post("/api/federations/kk/players/", {"display_name": "Ann Byrne"}, format="json")
    one_id, two_id = one.json()["id"], two.json()["id"]
    link = board.post(
        "/api/federations/kk/links/", {"federation_player": one_id, "player": ann.pk}, format="json"
    )
    assert link.status_code == 201
    assert link.json() | {"created_at": None} == {
        "id": link.json()["id"],
        "federation_player": one_id,
        "player": ann.pk,
        "player_name": "Ann",
        "club": "north",
        "how": "organiser",
        "created_at": None,
        "unlinked_at": None,
    }
    proposed = board.post(
        "/api/federations/kk/link-invitations/",
        {"federation_player": two_id, "player": ann_again.pk},
        format="json",
    )
    confirmed = club.post(f"/api/federations/kk/link-invitations/{proposed.json()['id']}/accept/")
    assert (confirmed.status_code, confirmed.json()["how"]) == (200, "invitation")
    merged = board.post(
        "/api/federations/kk/merges/", {"source": two_id, "target": one_id}, format="json"
    )
    assert merged.status_code == 201
    players = board.get("/api/federations/kk/players/").json()
    assert [(p["id"], [link["player"] for link in p["links"]]) for p in players] == [
        (one_id, [ann.pk, ann_again.pk])
    ]
    undone = board.post(f"/api/federations/kk/merges/{merged.json()['id']}/undo/")
    assert (undone.status_code, undone.json()["merged_into"]) == (200, None)
    assert len(board.get("/api/federations/kk/players/").json()) == 2

    night_game(north, [ann, ann_again], dt.datetime.now(DUBLIN))
    today = dt.datetime.now(DUBLIN).date().isoformat()
    levy = board.get("/api/federations/kk/levy/", {"from": today, "to": today}).json()
    assert levy["clubs"] == [
        {"club": "north", "name": "North", "player_sessions": 2, "levy": "1.00"}
    ]
    results = board.get("/api/federations/kk/clubs/north/results/").json()
    assert [night["games"] for night in results["nights"]] == [1]
    assert results["events"] == []
    assert [(g["players"], g["status"]) for g in results["games"]] == [
        (["Ann", "Ann B"], "in_progress")
    ]
    kinds = [entry["kind"] for entry in board.get("/api/federations/kk/audit/").json()]
    assert kinds[::-1] == [
        "federation_created",
        "club_invited",
        "club_accepted",
        "player_created",
        "player_created",
        "linked",
        "link_invited",
        "linked",
        "merged",
        "unmerged",
    ]


def test_the_player_sets_their_public_choices():
    nora = make_user("nora")
    north = make_club("north")
    board = client_of(make_user("secretary"))
    board.post("/api/federations/", {"name": "B", "slug": "b", "currency": "EUR"}, format="json")
    federation = Federation.objects.get()
    make_member(federation, north)
    person = make_federation_player(federation, "Nora Kelly")
    make_link(person, make_player(north, "Nora", user=nora))
    changed = client_of(nora).patch(
        f"/api/federations/b/players/{person.pk}/",
        {"name_shown": "initials", "ranking_shown": False},
        format="json",
    )
    assert changed.status_code == 200
    assert (changed.json()["public_name"], changed.json()["ranking_shown"]) == ("N. K.", False)


@pytest.mark.parametrize(
    ("body", "code", "pointer"),
    [
        ({"name": "X", "slug": "x", "currency": "EUR", "extra": 1}, "unknown_field", "/extra"),
        (
            {"name": "X", "slug": "x", "currency": "EUR", "levy_rate": "0.505"},
            "invalid_amount",
            "/levy_rate",
        ),
        (
            {"name": "X", "slug": "x", "currency": "EUR", "levy_rate": "-1"},
            "invalid_amount",
            "/levy_rate",
        ),
        ({"name": "X", "slug": "x", "currency": "XXX"}, "invalid_choice", "/currency"),
    ],
)
def test_bad_federation_input_is_refused_and_nothing_stored(body, code, pointer):
    response = client_of(make_user("u")).post("/api/federations/", body, format="json")
    assert response.status_code == 400
    assert (response.json()["errors"][0]["code"], response.json()["errors"][0]["pointer"]) == (
        code,
        pointer,
    )
    assert not Federation.objects.exists() and not FederationAuditEntry.objects.exists()


def test_unknown_club_and_other_federations_players_are_refused():
    secretary = make_user("secretary")
    board = client_of(secretary)
    board.post("/api/federations/", {"name": "A", "slug": "a", "currency": "EUR"}, format="json")
    response = board.post("/api/federations/a/clubs/", {"club": "nowhere"}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "unknown_club")
    stranger = make_player(make_club("far"), "Stranger")
    person = board.post("/api/federations/a/players/", {"display_name": "P"}, format="json")
    refused = board.post(
        "/api/federations/a/links/",
        {"federation_player": person.json()["id"], "player": stranger.pk},
        format="json",
    )
    assert refused.status_code == 404
    assert not PlayerLink.objects.exists()


def test_every_federations_route_is_in_the_schema():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    ours = [
        "/api/" + re.sub(r"<\w+:(\w+)>", r"{\1}", str(pattern.pattern))
        for pattern in federation_urls.urlpatterns
    ]
    assert len(ours) == 28  # 19, the events' 7, the organisers' 2
    assert [path for path in ours if path not in schema["paths"]] == []

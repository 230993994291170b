"""Federation events through the API: an event made, nominated for, selected and created at the
host club; bad input answered with its code and pointer, nothing stored.

What it checks: the exact bodies of the event, the club's nominations and the selected entrants;
the host club's tournament holds the entrants; an unknown setting, a setting of the wrong type,
an unknown or non-member host club, a player of another club, the quota, a closed event — each a
4xx problem naming its pointer, with nothing stored.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from federations.models import FederationEvent, FederationNomination
from tests.federations.event_world import county
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

EVENT = {
    "name": "County Championship",
    "host_club": "south",
    "game": "25",
    "format": "round_robin",
    "date": "2026-03-01",
    "rule": "nominations",
    "quota": 2,
    "settings": {"table_size": 2, "match_games": 3, "match_rule": "best_of"},
}


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def problem(response) -> tuple:
    """The status, the first error's code (the problem's own for a refusal) and the pointers."""
    errors = response.json()["errors"]
    return response.status_code, errors[0]["code"], [error["pointer"] for error in errors]


def test_an_event_from_nominations_to_the_host_clubs_tournament():
    w = county()
    board, north, south = client_of(w.secretary), client_of(w.north_org), client_of(w.south_org)
    made = board.post("/api/federations/kk/events/", EVENT, format="json")
    assert made.status_code == 201, made.content
    event = made.json()
    event_id = event.pop("id")
    assert event == {
        "name": "County Championship",
        "host_club": "south",
        "host_club_name": "South",
        "game": "25",
        "format": "round_robin",
        "settings": {"table_size": 2, "match_games": 3, "match_rule": "best_of"},
        "date": "2026-03-01",
        "rule": "nominations",
        "quota": 2,
        "season_year": None,
        "status": "draft",
        "selected_at": None,
        "selected_season_year": None,
        "tournament": None,
        "entrants": [],
    }
    base = f"/api/federations/kk/events/{event_id}/"
    assert [each["id"] for each in north.get("/api/federations/kk/events/").json()] == [event_id]
    mine = f"{base}clubs/north/nominations/"
    assert north.post(mine, {"player": w.bob.pk}, format="json").status_code == 201
    assert north.post(mine, {"player": w.ann.pk}, format="json").status_code == 201
    full = north.post(mine, {"player": w.cat.pk}, format="json")
    assert problem(full) == (409, "quota_full", [None])
    stranger = north.post(mine, {"player": w.tia.pk}, format="json")
    assert problem(stranger) == (400, "unknown_player", ["/player"])
    assert south.post(mine, {"player": w.dan.pk}, format="json").status_code == 404
    theirs = f"{base}clubs/south/nominations/"
    assert south.post(theirs, {"player": w.vic.pk}, format="json").status_code == 201
    listed = north.get(mine).json()
    assert (listed["quota"], listed["open"]) == (2, True)
    assert [(each["player_name"], each["order"]) for each in listed["nominations"]] == [
        ("Bob", 1),
        ("Ann", 2),
    ]
    everyone = board.get(f"{base}nominations/").json()
    assert [(each["club"], each["player_name"]) for each in everyone] == [
        ("north", "Bob"),
        ("north", "Ann"),
        ("south", "Vic"),
    ]
    assert problem(board.post(f"{base}tournament/")) == (409, "not_selected", [None])
    chosen = board.post(f"{base}select/").json()
    assert chosen["status"] == "selected"
    assert [(each["seed"], each["club"], each["player_name"]) for each in chosen["entrants"]] == [
        (1, "north", "Bob"),
        (2, "south", "Vic"),
        (3, "north", "Ann"),
    ]
    closed = north.post(mine, {"player": w.cat.pk}, format="json")
    assert problem(closed) == (409, "nominations_closed", [None])
    created = board.post(f"{base}tournament/")
    assert created.status_code == 201
    tournament = Tournament.objects.get(pk=created.json()["tournament"])
    assert (tournament.club, tournament.format, tournament.match_games) == (
        w.south,
        "round_robin",
        3,
    )
    assert [
        (entrant.seed, entrant.player.display_name, entrant.player.club.slug)
        for entrant in tournament.entrants.select_related("player__club").order_by("seed")
    ] == [(1, "Bob", "south"), (2, "Vic", "south"), (3, "Ann", "south")]
    assert problem(board.post(f"{base}tournament/")) == (409, "event_created", [None])


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"settings": {"stake": "0.20"}}, (400, "unknown_field", ["/settings/stake"])),
        ({"settings": {"table_size": "big"}}, (400, "invalid", ["/settings/table_size"])),
        ({"settings": {"round_count": 0}}, (400, "min_value", ["/settings/round_count"])),
        ({"host_club": "nowhere"}, (400, "unknown_club", ["/host_club"])),
        ({"host_club": "west"}, (409, "not_a_member", ["/host_club"])),
        ({"rule": "lottery"}, (400, "invalid_choice", ["/rule"])),
        ({"quota": 0}, (400, "min_value", ["/quota"])),
        ({"format": "swiss"}, (400, "required", ["/settings/round_count"])),
        ({"colour": "red"}, (400, "unknown_field", ["/colour"])),
    ],
)
def test_bad_input_is_refused_and_nothing_stored(change, expected):
    w = county()
    response = client_of(w.secretary).post(
        "/api/federations/kk/events/", {**EVENT, **change}, format="json"
    )
    assert problem(response) == expected
    assert not FederationEvent.objects.exists()


def test_a_bad_nomination_stores_nothing():
    w = county()
    board = client_of(w.secretary)
    event_id = board.post("/api/federations/kk/events/", EVENT, format="json").json()["id"]
    url = f"/api/federations/kk/events/{event_id}/clubs/north/nominations/"
    north = client_of(w.north_org)
    for body, expected in [
        ({}, (400, "required", ["/player"])),
        ({"player": w.bob.pk, "federation_player": 1}, (400, "required", ["/player"])),
        ({"federation_player": 999999}, (400, "unknown_player", ["/federation_player"])),
        ({"player": "Bob"}, (400, "invalid", ["/player"])),
    ]:
        assert problem(north.post(url, body, format="json")) == expected
    assert not FederationNomination.objects.exists()
    assert client_of(w.west_org).post(url, {"player": w.bob.pk}, format="json").status_code == 404
    west = f"/api/federations/kk/events/{event_id}/clubs/west/nominations/"
    assert client_of(w.west_org).post(west, {"player": w.west_player.pk}).status_code == 404
    assert not FederationNomination.objects.exists()


def test_the_events_list_reads_in_a_fixed_number_of_queries(django_assert_num_queries):
    w = county()
    board = client_of(w.secretary)
    for name in ("One", "Two", "Three"):
        made = board.post("/api/federations/kk/events/", {**EVENT, "name": name}, format="json")
        for player in (w.bob, w.ann):
            client_of(w.north_org).post(
                f"/api/federations/kk/events/{made.json()['id']}/clubs/north/nominations/",
                {"player": player.pk},
                format="json",
            )
        board.post(f"/api/federations/kk/events/{made.json()['id']}/select/")
    # the federation, the role, the events with their host clubs, their entrants, nominations
    with django_assert_num_queries(5):
        listed = board.get("/api/federations/kk/events/")
    assert [len(each["entrants"]) for each in listed.json()] == [2, 2, 2]

"""Who may see and run a tournament, beyond the route-by-route permission matrix.

Organisers manage; scorekeepers record (through games); players read their club's tournaments;
anybody reads a public tournament — even of a private club — and only those; other clubs' people
get 404.
"""

from __future__ import annotations

import pytest

from clubs.models import Role
from tests.clubs.factories import make_club, make_membership, make_user
from tests.helpers import token_client
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db


def test_only_public_tournaments_are_visible_outside_the_club():
    event = build_event(players=2, public=True)
    public = event.create_tournament(name="Open", game="25", format="knockout", is_public=True)
    private = event.create_tournament(name="Members", game="25", format="knockout")
    listing = f"/api/clubs/{event.club.slug}/tournaments/"

    member_view = event.ok("get", listing, role="player")
    assert [item["name"] for item in member_view["results"]] == ["Members", "Open"]
    for role in ("anonymous", "outsider"):
        response = event.call("get", listing, role=role)
        assert [item["name"] for item in response.json()["results"]] == ["Open"]
        assert event.call("get", f"/api/tournaments/{public['id']}/", role=role).status_code == 200
        hidden = event.call("get", f"/api/tournaments/{private['id']}/standings/", role=role)
        assert (hidden.status_code, hidden.json()["code"]) == (404, "not_found")


def test_the_club_list_filters_by_format_status_and_visibility():
    event = build_event(players=2)
    event.create_tournament(name="Cup", game="25", format="knockout", is_public=True)
    event.create_tournament(name="Evening", game="25", format="swiss", round_count=3)
    listing = f"/api/clubs/{event.club.slug}/tournaments/"

    def names(query: str) -> list[str]:
        return sorted(item["name"] for item in event.ok("get", listing + query)["results"])

    # ``format`` is the tournament's format here, not DRF's renderer override.
    assert names("?format=swiss") == ["Evening"]
    assert names("?format=knockout") == ["Cup"]
    assert names("?format=drive") == []
    assert names("?is_public=true") == ["Cup"]
    assert names("?status=registration&format=swiss") == ["Evening"]
    bad = event.call("get", listing + "?format=league")
    assert (bad.status_code, bad.json()["errors"][0]["pointer"]) == (400, "/format")


def test_a_public_tournament_of_a_private_club_is_readable_by_anyone():
    event = build_event(players=2)
    tournament = event.create_tournament(
        name="Charity drive",
        game="25",
        format="knockout",
        is_public=True,
        entrants=[{"player": player.pk} for player in event.players],
    )
    (match,) = event.draw(tournament["id"])["matches"]
    anonymous = token_client(None)
    for path in ("", "rounds/", "matches/", "bracket/", "standings/", "entrants/"):
        assert anonymous.get(f"/api/tournaments/{tournament['id']}/{path}").status_code == 200
    assert anonymous.get(f"/api/matches/{match['id']}/").status_code == 200
    # The club itself stays private.
    assert anonymous.get(f"/api/clubs/{event.club.slug}/").status_code == 404
    # Reading is all: an anonymous write is 401.
    assert anonymous.post(f"/api/tournaments/{tournament['id']}/close/").status_code == 401


def test_roles_in_the_club_decide_who_manages_and_who_scores():
    event = build_event(players=2)
    tournament = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entrants=[{"player": player.pk} for player in event.players],
    )
    rounds = f"/api/tournaments/{tournament['id']}/rounds/"
    for role in ("player", "scorekeeper"):
        response = event.call("post", rounds, role=role)
        assert (response.status_code, response.json()["code"]) == (403, "permission_denied")
        creating = event.call(
            "post",
            f"/api/clubs/{event.club.slug}/tournaments/",
            {"name": "Mine", "game": "25", "format": "knockout"},
            role=role,
        )
        assert creating.status_code == 403
    (match,) = event.draw(tournament["id"])["matches"]
    # The scorekeeper records the match's game through the games API.
    win_game(event, match["games"][0]["id"], 0, role="scorekeeper")
    assert event.ok("get", f"/api/matches/{match['id']}/", role="player")["status"] == "decided"


def test_another_clubs_organiser_finds_nothing():
    event = build_event(players=2)
    tournament = event.create_tournament(name="Cup", game="25", format="knockout")
    rival = make_user("rival-organiser")
    make_membership(make_club("rivals"), rival, Role.ORGANISER)
    client = token_client(rival)
    base = f"/api/tournaments/{tournament['id']}/"
    assert client.get(base).status_code == 404
    assert client.patch(base, {"name": "Mine now"}, format="json").status_code == 404
    assert client.post(base + "rounds/").status_code == 404
    assert client.get(f"/api/clubs/{event.club.slug}/tournaments/").status_code == 404

"""The clubs API end to end: bodies, problem documents with pointers, filters, and no stray writes.

Permissions role by role are in tests/test_permission_matrix.py; query counts in
tests/clubs/test_api_queries.py. Here each test uses the organiser unless it says otherwise.
"""

from __future__ import annotations

import pytest

from clubs.models import Club, Membership, Player, Team
from tests.clubs.factories import (
    build_world,
    clubs_snapshot,
    make_club,
    make_player,
    make_team,
    make_user,
)
from tests.helpers import api_client

pytestmark = pytest.mark.django_db

NEW_CLUB = {
    "name": "The Local",
    "slug": "the-local",
    "currency": "EUR",
    "time_zone": "Europe/Dublin",
}


def errors_of(response) -> list[tuple[str, str | None]]:
    assert response["Content-Type"] == "application/problem+json", response.content
    return [(error["code"], error["pointer"]) for error in response.json()["errors"]]


@pytest.fixture
def world():
    return build_world()


@pytest.fixture
def organiser(world):
    return api_client(world.users["organiser"])


def players_url(world, player_id=None):
    base = f"/api/clubs/{world.club.slug}/players/"
    return base if player_id is None else f"{base}{player_id}/"


def teams_url(world, team_id=None):
    base = f"/api/clubs/{world.club.slug}/teams/"
    return base if team_id is None else f"{base}{team_id}/"


def memberships_url(world, membership_id=None):
    base = f"/api/clubs/{world.club.slug}/memberships/"
    return base if membership_id is None else f"{base}{membership_id}/"


# Clubs ------------------------------------------------------------------------------------------


def test_create_club_answers_the_club_and_makes_the_caller_organiser():
    user = make_user("founder")
    response = api_client(user).post(
        "/api/clubs/", {**NEW_CLUB, "default_house_rules": {"target": 31}}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert response["Location"] == "/api/clubs/the-local/"
    assert {key: body[key] for key in body if key not in ("id", "created_at")} == {
        "name": "The Local",
        "slug": "the-local",
        "currency": "EUR",
        "minor_unit_exponent": 2,
        "time_zone": "Europe/Dublin",
        "default_game": "25",
        "default_house_rules": {"target": 31},
        "effective_house_rules": {
            "game": "25",
            "target": 31,
            "trick_points": 5,
            "best_trump_bonus": 0,
            "game_end": "at_trick",
            "simultaneous_finish": None,
            "renege_privilege": ["5", "J", "AH"],
            "ace_of_hearts_follows_hearts": False,
            "dealer_robs_ace": "may",
            "jink_doubles_stake": True,
            "bids": None,
            "jink_bid": None,
            "made_thirty_scores": None,
            "min_bid_at_100": None,
            "dealer_may_hold": None,
            "all_pass": None,
            "kitty": None,
            "first_lead": "left_of_dealer",
            "renege_penalty": "offender_scores_zero",
            "renege_deduction": 0,
        },
        "public_standings": False,
        "confirm_hands": False,
        "require_two_factor": False,
        "role": "organiser",
    }
    assert list(Membership.objects.values_list("user__username", "role")) == [
        ("founder", "organiser")
    ]


@pytest.mark.parametrize(
    ("change", "expected_errors"),
    [
        ({"name": ["not", "a", "name"]}, [("invalid", "/name")]),
        ({"slug": "Not a slug!"}, [("invalid", "/slug")]),
        ({"currency": "XYZ"}, [("invalid_choice", "/currency")]),
        ({"currency": 978}, [("invalid_choice", "/currency")]),
        ({"time_zone": "Mars/Olympus"}, [("invalid_time_zone", "/time_zone")]),
        ({"default_game": "99"}, [("invalid_choice", "/default_game")]),
        ({"public_standings": "perhaps"}, [("invalid", "/public_standings")]),
        ({"default_house_rules": ["target", 31]}, [("not_a_dict", "/default_house_rules")]),
        (
            {"default_house_rules": {"colour": "red"}},
            [("invalid_house_rule", "/default_house_rules/colour")],
        ),
        (
            {"default_house_rules": {"target": "lots"}},
            [("invalid_house_rule", "/default_house_rules/target")],
        ),
        ({"colour": "red"}, [("unknown_field", "/colour")]),
        ({"role": "organiser"}, [("unknown_field", "/role")]),
    ],
)
def test_create_club_refuses_bad_input_and_stores_nothing(change, expected_errors):
    user = make_user("founder")
    before = clubs_snapshot()
    response = api_client(user).post("/api/clubs/", {**NEW_CLUB, **change}, format="json")
    assert response.status_code == 400
    assert errors_of(response) == expected_errors
    assert clubs_snapshot() == before


def test_create_club_reports_every_missing_field():
    response = api_client(make_user("founder")).post("/api/clubs/", {}, format="json")
    assert response.status_code == 400
    assert sorted(errors_of(response)) == [
        ("required", "/currency"),
        ("required", "/name"),
        ("required", "/slug"),
        ("required", "/time_zone"),
    ]


def test_create_club_refuses_a_taken_slug(world):
    before = clubs_snapshot()
    response = api_client(make_user("founder")).post(
        "/api/clubs/", {**NEW_CLUB, "slug": world.club.slug}, format="json"
    )
    assert response.status_code == 400
    assert errors_of(response) == [("unique", "/slug")]
    assert clubs_snapshot() == before


def test_malformed_json_is_a_parse_error():
    response = api_client(make_user("founder")).post(
        "/api/clubs/", b'{"name": ', content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert Club.objects.count() == 0


def test_club_list_shows_own_clubs_and_public_ones():
    mine = make_club("mine")
    make_club("private-other")
    make_club("public-other", public=True)
    user = make_user("me")
    Membership.objects.create(club=mine, user=user, role="player")
    response = api_client(user).get("/api/clubs/")
    assert [(club["slug"], club["role"]) for club in response.json()["results"]] == [
        ("mine", "player"),
        ("public-other", None),
    ]
    anonymous = api_client().get("/api/clubs/")
    assert [club["slug"] for club in anonymous.json()["results"]] == ["public-other"]
    searched = api_client(user).get("/api/clubs/", {"search": "PUBLIC"})
    assert [club["slug"] for club in searched.json()["results"]] == ["public-other"]


def test_patch_club_changes_only_what_is_sent(world, organiser):
    response = organiser.patch(
        f"/api/clubs/{world.club.slug}/",
        {"public_standings": True, "default_house_rules": {"jink_doubles_stake": False}},
        format="json",
    )
    assert response.status_code == 200, response.content
    world.club.refresh_from_db()
    assert world.club.public_standings is True
    assert world.club.default_house_rules == {"jink_doubles_stake": False}
    assert world.club.name == "The Local"


def test_patch_club_to_a_game_the_overrides_do_not_fit(world, organiser):
    world.club.default_house_rules = {"dealer_robs_ace": "must"}
    world.club.save()
    before = clubs_snapshot()
    response = organiser.patch(
        f"/api/clubs/{world.club.slug}/", {"default_game": "220"}, format="json"
    )
    assert response.status_code == 400
    assert errors_of(response) == [("invalid_house_rule", "/default_house_rules/dealer_robs_ace")]
    assert clubs_snapshot() == before


def test_delete_club(world, organiser):
    response = organiser.delete(f"/api/clubs/{world.club.slug}/")
    assert response.status_code == 204
    assert Club.objects.count() == 0


# Memberships ------------------------------------------------------------------------------------


def test_memberships_list_and_filter_by_role(world, organiser):
    response = organiser.get(memberships_url(world))
    assert [(m["username"], m["role"]) for m in response.json()["results"]] == [
        ("the-local-player", "player"),
        ("the-local-scorekeeper", "scorekeeper"),
        ("the-local-organiser", "organiser"),
        ("the-local-spare-member", "player"),
    ]
    response = organiser.get(memberships_url(world), {"role": "player"})
    assert [m["username"] for m in response.json()["results"]] == [
        "the-local-player",
        "the-local-spare-member",
    ]
    response = organiser.get(memberships_url(world), {"role": "king"})
    assert response.status_code == 400
    assert errors_of(response) == [("invalid_choice", "/role")]


def test_add_membership_by_username(world, organiser):
    response = organiser.post(
        memberships_url(world), {"username": "the-local-newcomer", "role": "scorekeeper"}
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["username"], body["role"], body["user"]) == (
        "the-local-newcomer",
        "scorekeeper",
        world.spare_user.pk,
    )
    assert response["Location"] == memberships_url(world, body["id"])


@pytest.mark.parametrize(
    ("body", "expected_errors"),
    [
        ({"username": "nobody", "role": "player"}, [("unknown_user", "/username")]),
        ({"username": "the-local-player", "role": "player"}, [("unique", "/username")]),
        ({"username": "the-local-newcomer", "role": "boss"}, [("invalid_choice", "/role")]),
        ({"username": "the-local-newcomer"}, [("required", "/role")]),
    ],
)
def test_add_membership_refusals(world, organiser, body, expected_errors):
    before = clubs_snapshot()
    response = organiser.post(memberships_url(world), body)
    assert response.status_code == 400
    assert errors_of(response) == expected_errors
    assert clubs_snapshot() == before


def test_change_and_remove_a_membership(world, organiser):
    url = memberships_url(world, world.spare_membership.pk)
    response = organiser.patch(url, {"role": "scorekeeper"})
    assert (response.status_code, response.json()["role"]) == (200, "scorekeeper")
    response = organiser.patch(url, {"role": "scorekeeper", "username": "x"})
    assert errors_of(response) == [("unknown_field", "/username")]
    assert organiser.delete(url).status_code == 204
    assert not Membership.objects.filter(pk=world.spare_membership.pk).exists()


def test_the_last_organiser_cannot_step_down(world, organiser):
    own = Membership.objects.get(user=world.users["organiser"])
    response = organiser.patch(memberships_url(world, own.pk), {"role": "player"})
    assert response.status_code == 409
    assert errors_of(response) == [("last_organiser", "/role")]
    response = organiser.delete(memberships_url(world, own.pk))
    assert response.status_code == 409
    own.refresh_from_db()
    assert own.role == "organiser"


def test_a_membership_of_another_club_is_not_found(world, organiser):
    other = build_world(slug="elsewhere")
    response = organiser.get(memberships_url(world, other.spare_membership.pk))
    assert response.status_code == 404
    assert errors_of(response) == [("not_found", None)]


# Players ----------------------------------------------------------------------------------------


def test_add_player(world, organiser):
    response = organiser.post(
        players_url(world), {"display_name": "Mary Byrne", "username": "the-local-newcomer"}
    )
    assert response.status_code == 201, response.content
    body = response.json()
    # The account is invited, not linked: it is linked when its owner accepts.
    keys = ("display_name", "user", "username", "is_active", "invited_username")
    assert {key: body[key] for key in keys} == {
        "display_name": "Mary Byrne",
        "user": None,
        "username": None,
        "is_active": True,
        "invited_username": "the-local-newcomer",
    }
    assert response["Location"] == players_url(world, body["id"])


@pytest.mark.parametrize(
    ("body", "expected_errors"),
    [
        ({"display_name": "ann"}, [("unique", "/display_name")]),
        ({"display_name": ""}, [("blank", "/display_name")]),
        ({"display_name": "x" * 81}, [("max_length", "/display_name")]),
        ({"display_name": {"first": "Mary"}}, [("invalid", "/display_name")]),
        ({"display_name": "New", "is_active": "sometimes"}, [("invalid", "/is_active")]),
        ({"display_name": "New", "club": 3}, [("unknown_field", "/club")]),
        ({"display_name": "New", "id": 3}, [("unknown_field", "/id")]),
    ],
)
def test_add_player_refusals(world, organiser, body, expected_errors):
    before = clubs_snapshot()
    response = organiser.post(players_url(world), body, format="json")
    assert response.status_code == 400
    assert errors_of(response) == expected_errors
    assert clubs_snapshot() == before


def test_player_filters_and_ordering(world, organiser):
    world.players[1].is_active = False
    world.players[1].save()
    world.players[2].user = world.spare_user
    world.players[2].save()

    def names(**query):
        response = organiser.get(players_url(world), query)
        assert response.status_code == 200, response.content
        return [player["display_name"] for player in response.json()["results"]]

    assert names() == ["Ann", "Bill", "Cait", "Dan", "Eve"]
    assert names(is_active="false") == ["Bill"]
    assert names(is_active="true") == ["Ann", "Cait", "Dan", "Eve"]
    assert names(search="A") == ["Ann", "Cait", "Dan"]
    assert names(user=world.spare_user.pk) == ["Cait"]
    assert names(has_user="true") == ["Cait"]
    assert names(ordering="-display_name") == ["Eve", "Dan", "Cait", "Bill", "Ann"]
    response = organiser.get(players_url(world), {"page_size": 2, "page": 2})
    body = response.json()
    assert (body["count"], [p["display_name"] for p in body["results"]]) == (5, ["Cait", "Dan"])


def test_another_clubs_player_is_not_found_under_this_club(world, organiser):
    stranger = make_player(make_club("elsewhere"), "Stranger")
    for method in ("get", "patch", "delete"):
        response = getattr(organiser, method)(players_url(world, stranger.pk), {})
        assert response.status_code == 404
    stranger.refresh_from_db()
    assert stranger.display_name == "Stranger"


def test_update_player(world, organiser):
    response = organiser.patch(
        players_url(world, world.player.pk), {"display_name": "Evelyn", "is_active": False}
    )
    assert response.status_code == 200, response.content
    assert (response.json()["display_name"], response.json()["is_active"]) == ("Evelyn", False)
    response = organiser.patch(players_url(world, world.player.pk), {"display_name": "ANN"})
    assert errors_of(response) == [("unique", "/display_name")]
    world.player.refresh_from_db()
    assert world.player.display_name == "Evelyn"


def test_delete_player_or_deactivate_a_team_member(world, organiser):
    assert organiser.delete(players_url(world, world.player.pk)).status_code == 204
    assert not Player.objects.filter(pk=world.player.pk).exists()
    in_team = world.team.ordered_members()[0]
    response = organiser.delete(players_url(world, in_team.pk))
    assert (response.status_code, response.json()["is_active"]) == (200, False)
    in_team.refresh_from_db()
    assert in_team.is_active is False


# Teams ------------------------------------------------------------------------------------------


def test_create_team(world, organiser):
    ids = [world.players[4].pk, world.players[2].pk, world.players[3].pk]
    response = organiser.post(teams_url(world), {"name": "Trio", "members": ids}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["name"] == "Trio"
    assert body["members"] == [
        {"id": ids[0], "display_name": "Eve"},
        {"id": ids[1], "display_name": "Cait"},
        {"id": ids[2], "display_name": "Dan"},
    ]
    assert body["is_active"] is True
    assert response["Location"] == teams_url(world, body["id"])


def test_team_refusals_point_at_the_member(world, organiser):
    stranger = make_player(make_club("elsewhere"), "Stranger")
    cases = [
        (
            {"name": "Mixed", "members": [world.players[2].pk, stranger.pk]},
            [("unknown_player", "/members/1")],
        ),
        (
            {"name": "Twice", "members": [world.players[2].pk, world.players[2].pk]},
            [("duplicate_player", "/members/1")],
        ),
        ({"name": "Solo", "members": [world.players[2].pk]}, [("min_length", "/members")]),
        ({"name": "Crowd", "members": [1, 2, 3, 4]}, [("max_length", "/members")]),
        ({"name": "Words", "members": [world.players[2].pk, "x"]}, [("invalid", "/members/1")]),
        ({"name": "Flat", "members": 7}, [("not_a_list", "/members")]),
        (
            {"name": "ann and bill", "members": [world.players[2].pk, world.players[3].pk]},
            [("unique", "/name")],
        ),
    ]
    before = clubs_snapshot()
    for body, expected_errors in cases:
        response = organiser.post(teams_url(world), body, format="json")
        assert response.status_code == 400, body
        assert errors_of(response) == expected_errors, body
    assert clubs_snapshot() == before


def test_team_filters(world, organiser):
    second = make_team(world.club, "Cait and Ann", [world.players[2], world.players[0]])
    make_team(world.club, "Old pair", [world.players[3], world.players[4]], is_active=False)

    def names(**query):
        response = organiser.get(teams_url(world), query)
        assert response.status_code == 200, response.content
        return [team["name"] for team in response.json()["results"]]

    assert names() == ["Ann and Bill", "Cait and Ann", "Old pair"]
    assert names(player=world.players[0].pk) == ["Ann and Bill", second.name]
    assert names(is_active="false") == ["Old pair"]
    assert names(player=world.players[0].pk, is_active="true", ordering="-name") == [
        "Cait and Ann",
        "Ann and Bill",
    ]


def test_update_team_members_and_refusal(world, organiser):
    url = teams_url(world, world.team.pk)
    ids = [world.players[3].pk, world.players[1].pk]
    response = organiser.patch(url, {"members": ids}, format="json")
    assert response.status_code == 200, response.content
    assert [member["id"] for member in response.json()["members"]] == ids
    before = clubs_snapshot()
    response = organiser.patch(url, {"name": "X", "members": [ids[0], ids[0]]}, format="json")
    assert errors_of(response) == [("duplicate_player", "/members/1")]
    assert clubs_snapshot() == before


def test_delete_team(world, organiser):
    assert organiser.delete(teams_url(world, world.team.pk)).status_code == 204
    assert Team.objects.count() == 0
    assert Player.objects.filter(club=world.club).count() == 5


# Idempotency ------------------------------------------------------------------------------------


def test_a_retried_create_with_the_same_key_creates_once(world, organiser):
    headers = {"HTTP_IDEMPOTENCY_KEY": "tablet-1-request-7"}
    first = organiser.post(players_url(world), {"display_name": "Once"}, format="json", **headers)
    again = organiser.post(players_url(world), {"display_name": "Once"}, format="json", **headers)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Player.objects.filter(display_name="Once").count() == 1
    other = organiser.post(players_url(world), {"display_name": "Twice"}, format="json", **headers)
    assert other.status_code == 422
    assert errors_of(other) == [("idempotency_key_reused", None)]

"""A club's house rules accept the classic app's options (``ace_of_hearts_lead``,
``rob_discard``) and refuse bad values with the existing error code and pointer."""

from __future__ import annotations

import pytest

from clubs.models import Club
from tests.clubs.factories import make_user
from tests.clubs.test_api import NEW_CLUB, errors_of
from tests.helpers import api_client

pytestmark = pytest.mark.django_db

CLASSIC = {"ace_of_hearts_lead": "trump_then_hearts", "rob_discard": "not_the_ace"}


def test_a_club_of_45_plays_the_classic_options():
    response = api_client(make_user("founder")).post(
        "/api/clubs/",
        {**NEW_CLUB, "default_game": "45", "default_house_rules": CLASSIC},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["default_house_rules"] == CLASSIC
    effective = body["effective_house_rules"]
    assert (effective["ace_of_hearts_lead"], effective["rob_discard"]) == (
        "trump_then_hearts",
        "not_the_ace",
    )


def test_the_defaults_may_be_named_too():
    response = api_client(make_user("founder")).post(
        "/api/clubs/",
        {**NEW_CLUB, "default_house_rules": {"rob_discard": "any_card"}},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["default_house_rules"] == {"rob_discard": "any_card"}


@pytest.mark.parametrize(
    ("game", "rules", "pointer"),
    [
        ("45", {"ace_of_hearts_lead": "hearts"}, "/default_house_rules/ace_of_hearts_lead"),
        ("25", {"rob_discard": "the_ace"}, "/default_house_rules/rob_discard"),
        ("110", {"rob_discard": "not_the_ace"}, "/default_house_rules/rob_discard"),
    ],
)
def test_bad_values_are_refused_and_nothing_is_stored(game, rules, pointer):
    response = api_client(make_user("founder")).post(
        "/api/clubs/",
        {**NEW_CLUB, "default_game": game, "default_house_rules": rules},
        format="json",
    )
    assert response.status_code == 400
    assert errors_of(response) == [("invalid_house_rule", pointer)]
    assert not Club.objects.exists()

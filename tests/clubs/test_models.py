"""Clubs models: currency exponents, time zones, house rules, and the database constraints."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from clubs.models import (
    CURRENCY_MINOR_UNIT_EXPONENTS,
    Club,
    Player,
    TeamMember,
    normalize_house_rule_overrides,
    validate_time_zone,
)
from rules_engine.errors import RulesError
from tests.clubs.factories import make_club, make_player, make_team, make_user


def test_currency_table_holds_the_usual_exponents():
    assert CURRENCY_MINOR_UNIT_EXPONENTS["EUR"] == 2
    assert CURRENCY_MINOR_UNIT_EXPONENTS["GBP"] == 2
    assert CURRENCY_MINOR_UNIT_EXPONENTS["CAD"] == 2
    assert CURRENCY_MINOR_UNIT_EXPONENTS["USD"] == 2
    assert CURRENCY_MINOR_UNIT_EXPONENTS["JPY"] == 0


@pytest.mark.parametrize(("currency", "exponent"), [("EUR", 2), ("JPY", 0), ("ISK", 0)])
def test_club_minor_unit_exponent_follows_its_currency(currency, exponent):
    assert Club(currency=currency).minor_unit_exponent == exponent


@pytest.mark.parametrize("name", ["Europe/Dublin", "America/Halifax", "UTC"])
def test_known_time_zones_are_accepted(name):
    assert validate_time_zone(name) is None


@pytest.mark.parametrize("name", ["Mars/Olympus", "europe/dublin", "", "../etc/passwd", "GMT+1"])
def test_unknown_time_zones_are_refused_with_a_code(name):
    with pytest.raises(ValidationError) as caught:
        validate_time_zone(name)
    assert caught.value.code == "invalid_time_zone"


def test_overrides_are_stored_in_the_engine_canonical_form():
    normalized = normalize_house_rule_overrides("25", {"renege_privilege": ["J", "5"]})
    assert normalized == {"renege_privilege": ["5", "J"]}


def test_overrides_report_every_bad_key_with_its_pointer():
    with pytest.raises(RulesError) as caught:
        normalize_house_rule_overrides(
            "25", {"target": 0, "bids": [10], "colour": "red", "game": "45", "a/b": 1}
        )
    pointers = sorted(error.pointer for error in caught.value.errors)
    assert pointers == ["/a~1b", "/bids", "/colour", "/game", "/target"]
    assert {error.code for error in caught.value.errors} == {"invalid_house_rule"}


def test_overrides_named_like_engine_parameters_are_errors_not_crashes():
    with pytest.raises(RulesError) as caught:
        normalize_house_rule_overrides("45", {"cls": 1})
    assert [error.pointer for error in caught.value.errors] == ["/cls"]


def test_effective_house_rules_apply_the_overrides_to_the_game_defaults():
    club = Club(default_game="45", default_house_rules={"target": 61})
    rules = club.effective_house_rules()
    assert rules["game"] == "45"
    assert rules["target"] == 61
    assert rules["best_trump_bonus"] == 5  # the 45 default, untouched


def test_club_clean_reports_house_rule_errors_on_the_field():
    club = Club(
        name="X",
        slug="x",
        currency="EUR",
        time_zone="Europe/Dublin",
        default_game="25",
        default_house_rules={"kitty": 3},
    )
    with pytest.raises(ValidationError) as caught:
        club.clean()
    errors = caught.value.error_dict["default_house_rules"]
    assert [error.code for error in errors] == ["invalid_house_rule"]


def test_club_clean_treats_no_overrides_as_an_empty_object():
    club = Club(default_game="25", default_house_rules=None)
    club.clean()
    assert club.default_house_rules == {}
    club.default_house_rules = ["target", 31]
    with pytest.raises(ValidationError) as caught:
        club.clean()
    assert [error.code for error in caught.value.error_dict["default_house_rules"]] == ["invalid"]


def test_club_clean_refuses_an_unknown_currency_and_time_zone():
    club = Club(name="X", slug="x", currency="XYZ", time_zone="Nowhere/Town")
    with pytest.raises(ValidationError) as caught:
        club.clean_fields()
    assert sorted(caught.value.error_dict) == ["currency", "time_zone"]


@pytest.mark.django_db
def test_player_names_are_unique_per_club_ignoring_case():
    club = make_club("one")
    other = make_club("two")
    make_player(club, "Mary Byrne")
    make_player(other, "Mary Byrne")  # another club may have its own Mary
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player(club, "MARY BYRNE")
    assert Player.objects.filter(club=club).count() == 1


@pytest.mark.django_db
def test_an_account_links_to_at_most_one_player_per_club():
    club = make_club("one")
    user = make_user("mary")
    make_player(club, "Mary", user=user)
    make_player(club, "Unlinked 1")
    make_player(club, "Unlinked 2")  # many players without accounts are fine
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player(club, "Mary again", user=user)
    make_player(make_club("two"), "Mary", user=user)
    assert Player.objects.filter(user=user).count() == 2


@pytest.mark.django_db
def test_team_names_are_unique_per_club_ignoring_case():
    club = make_club("one")
    players = [make_player(club, name) for name in "ABCD"]
    make_team(club, "Knaves", players[:2])
    with pytest.raises(IntegrityError), transaction.atomic():
        make_team(club, "knaves", players[2:])


@pytest.mark.django_db
def test_team_members_are_kept_in_order_and_never_repeated():
    club = make_club("one")
    players = [make_player(club, name) for name in "ABC"]
    team = make_team(club, "Trio", [players[2], players[0], players[1]])
    assert [player.display_name for player in team.ordered_members()] == ["C", "A", "B"]
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMember.objects.create(team=team, player=players[0], position=0)


@pytest.mark.django_db
def test_team_member_positions_stop_at_three():
    club = make_club("one")
    players = [make_player(club, name) for name in "ABCD"]
    team = make_team(club, "Trio", players[:3])
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMember.objects.create(team=team, player=players[3], position=3)


@pytest.mark.django_db
def test_team_member_clean_refuses_a_player_of_another_club():
    club = make_club("one")
    stranger = make_player(make_club("two"), "Stranger")
    team = make_team(club, "Pair", [make_player(club, "A"), make_player(club, "B")])
    with pytest.raises(ValidationError) as caught:
        TeamMember(team=team, player=stranger, position=2).full_clean()
    assert [error.code for error in caught.value.error_dict["player"]] == ["other_club"]


def test_game_types_are_the_engines_games_in_its_order():
    from clubs.models import GAME_CHOICES, GameType
    from rules_engine import GAMES

    assert tuple(GameType.values) == GAMES
    assert GAME_CHOICES == [
        ("25", "Twenty-Five"),
        ("45", "Forty-Five"),
        ("55", "Fifty-Five"),
        ("110", "One Hundred and Ten"),
        ("220", "Two Hundred and Twenty"),
        ("auction45", "Auction Forty-Fives"),
    ]

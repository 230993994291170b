"""new_game: seat counts per game, sides and seating, first dealer, house rules, carried totals,
and the JSON forms of GameState (rules.md "Players, sides, seating")."""

import pytest

from rules_engine import GameState, HouseRules, new_game
from tests.helpers import error_of


def test_defaults_every_seat_its_own_side():
    state = new_game("25", 5)
    assert state.seat_count == 5
    assert state.sides == ((0,), (1,), (2,), (3,), (4,))
    assert state.side_of_seat == (0, 1, 2, 3, 4)
    assert state.totals == (0, 0, 0, 0, 0)
    assert state.hands_played == 0
    assert state.next_dealer == 0
    assert state.finished is False
    assert state.winner is None
    assert state.double_stake is False
    assert state.rules == HouseRules.for_game("25")
    assert state.game == "25"


def test_seats_as_a_sequence_counts_its_length():
    state = new_game("45", [11, 12, 13, 14], sides=[[0, 2], [1, 3]], first_dealer=3)
    assert state.seat_count == 4
    assert state.sides == ((0, 2), (1, 3))
    assert state.side_of_seat == (0, 1, 0, 1)
    assert state.next_dealer == 3


@pytest.mark.parametrize(
    ("game", "seats", "sides"),
    [
        ("25", 2, None),
        ("25", 10, None),
        ("25", 4, [[0, 2], [1, 3]]),
        ("25", 6, [[0, 3], [1, 4], [2, 5]]),
        ("25", 6, [[0, 2, 4], [1, 3, 5]]),
        ("25", 9, [[0, 3, 6], [1, 4, 7], [2, 5, 8]]),
        ("25", 10, [[0, 5], [1, 6], [2, 7], [3, 8], [4, 9]]),
        ("110", 9, None),
        ("45", 3, None),
        ("45", 4, [[1, 3], [0, 2]]),
        ("45", 6, [[0, 2, 4], [1, 3, 5]]),
        ("auction45", 4, [[0, 2], [1, 3]]),
        ("auction45", 6, [[0, 2, 4], [1, 3, 5]]),
    ],
)
def test_accepted_formations(game, seats, sides):
    state = new_game(game, seats, sides=sides)
    assert state.seat_count == seats
    assert sorted(seat for side in state.sides for seat in side) == list(range(seats))


@pytest.mark.parametrize(
    ("game", "seats", "sides", "pointer"),
    [
        ("25", 1, None, "/seats"),
        ("25", 11, None, "/seats"),
        ("45", 2, None, "/sides"),
        ("45", 4, None, "/sides"),
        ("45", 5, None, "/sides"),
        ("45", 6, [[0, 3], [1, 4], [2, 5]], "/sides"),
        ("auction45", 3, None, "/sides"),
        ("auction45", 4, None, "/sides"),
        ("auction45", 8, [[0, 2, 4, 6], [1, 3, 5, 7]], "/sides"),
        # 5 per seat and a kitty of 5: 10 seats need 55 cards.
        ("110", 10, None, "/seats"),
    ],
)
def test_refused_seat_counts(game, seats, sides, pointer):
    error = error_of(new_game, game, seats, sides=sides)
    assert error.code == "invalid_seating"
    assert error.pointer == pointer


def test_ten_seats_of_110_fit_with_a_small_kitty():
    state = new_game("110", 10, rules={"kitty": 2})
    assert state.seat_count == 10


def test_partners_next_to_each_other_are_refused():
    error = error_of(new_game, "25", 4, sides=[[0, 1], [2, 3]])
    assert error.code == "invalid_seating"
    assert error.detail.startswith("seats 0 and 1 are partners (side 0)")
    assert error.pointer == "/sides/0"


def test_last_seat_neighbours_seat_zero():
    error = error_of(new_game, "25", 6, sides=[[0, 2, 5], [1, 3, 4]])
    assert error.code == "invalid_seating"
    assert error.detail.startswith("seats 3 and 4 are partners")


def test_partnerships_must_sit_in_rotation():
    # No partners adjacent, but pairs not opposite: rules.md seats pairs opposite each other.
    error = error_of(new_game, "25", 6, sides=[[0, 2], [1, 4], [3, 5]])
    assert error.code == "invalid_seating"
    assert "rotation" in error.detail


def test_unequal_sides_are_refused():
    error = error_of(new_game, "25", 5, sides=[[0, 2], [1, 3], [4]])
    assert error.code == "invalid_seating"


@pytest.mark.parametrize(
    ("sides", "pointer"),
    [
        ([[0, 2], [1, 4]], "/sides/1/1"),
        ([[0, 2], [1, 2]], "/sides/1/1"),
        ([[0, 2], []], "/sides/1"),
        ([[0, 2]], "/sides"),
        ([[0, 1, 2, 3]], "/sides"),
        ("0,2/1,3", "/sides"),
    ],
)
def test_malformed_sides(sides, pointer):
    error = error_of(new_game, "25", 4, sides=sides)
    assert error.code == "invalid_seating"
    assert error.pointer == pointer


def test_first_dealer_must_be_a_seat():
    error = error_of(new_game, "25", 4, first_dealer=4)
    assert (error.code, error.pointer) == ("invalid_seat", "/first_dealer")


def test_rules_as_overrides_or_value():
    state = new_game("45", 3, rules={"target": 60})
    assert state.rules.target == 60
    assert state.rules.game == "45"
    rules = HouseRules.for_game("45", renege_privilege=["5"])
    assert new_game("45", 3, rules=rules).rules is rules


def test_rules_for_another_game_are_refused():
    error = error_of(new_game, "45", 3, rules=HouseRules.for_game("25"))
    assert error.code == "invalid_house_rule"


def test_bad_house_rule_override():
    error = error_of(new_game, "45", 3, rules={"kitty": 3})
    assert (error.code, error.pointer) == ("invalid_house_rule", "/kitty")


def test_unknown_game():
    error = error_of(new_game, "99", 3)
    assert error.code == "invalid_house_rule"


def test_totals_carried_in_from_paper():
    state = new_game("45", 4, sides=[[0, 2], [1, 3]], totals=[20, 35])
    assert state.totals == (20, 35)
    assert state.has_scored == (True, True)


@pytest.mark.parametrize(
    ("totals", "pointer"),
    [([20], "/totals"), ([20, "5"], "/totals/1"), ([45, 0], "/totals/0"), ("20,35", "/totals")],
)
def test_bad_totals(totals, pointer):
    error = error_of(new_game, "45", 4, sides=[[0, 2], [1, 3]], totals=totals)
    assert (error.code, error.pointer) == ("invalid_record", pointer)


def test_game_state_is_frozen():
    state = new_game("25", 3)
    with pytest.raises(AttributeError):
        state.totals = (1, 2, 3)
    assert isinstance(state, GameState)


def test_to_dict_and_summary():
    state = new_game("45", 4, sides=[[0, 2], [1, 3]], first_dealer=3, totals=[5, 10])
    assert state.summary() == {
        "status": "in_progress",
        "winner": None,
        "next_dealer": 3,
        "double_stake": False,
    }
    data = state.to_dict()
    assert data["totals"] == {"0": 5, "1": 10}
    assert data["sides"] == [[0, 2], [1, 3]]
    assert data["seat_count"] == 4
    assert data["hands_played"] == 0
    assert data["first_dealer"] == 3
    assert data["house_rules"] == HouseRules.for_game("45").to_dict()
    assert data["status"] == "in_progress"


def test_check_seating_directly():
    from rules_engine.seating import check_seating

    rules = HouseRules.for_game("45")
    assert check_seating(rules, 4, [[1, 3], [0, 2]]) == (((1, 3), (0, 2)), (1, 0, 1, 0))
    for seats in (1, 0, 11):
        error = error_of(check_seating, HouseRules.for_game("25"), seats)
        assert (error.code, error.pointer) == ("invalid_seating", "/seats")

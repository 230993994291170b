"""House rules: defaults per game (rules.md's table), overrides, JSON round trip, validation."""

import dataclasses

import pytest

from rules_engine.errors import RulesError
from rules_engine.house_rules import ALL_KEYS, GAMES, KEYS, HouseRules

COMMON = {
    "trick_points": 5,
    "renege_privilege": ["5", "J", "AH"],
    "ace_of_hearts_follows_hearts": False,
    "renege_penalty": "offender_scores_zero",
    "renege_deduction": 0,
}
NO_BIDDING = {
    "bids": None,
    "jink_bid": None,
    "made_thirty_scores": None,
    "min_bid_at_100": None,
    "dealer_may_hold": None,
    "all_pass": None,
    "kitty": None,
}


def bidding_55(target):
    return {
        **COMMON,
        "game": str(target),
        "target": target,
        "best_trump_bonus": 5,
        "game_end": "at_hand_end",
        "simultaneous_finish": "first_to_reach",
        "dealer_robs_ace": None,
        "jink_doubles_stake": False,
        "bids": [10, 15, 20, 25, 60],
        "jink_bid": 60,
        "made_thirty_scores": None,
        "min_bid_at_100": None,
        "dealer_may_hold": True,
        "all_pass": "redeal",
        "kitty": 5,
        "first_lead": "left_of_dealer",
    }


EXPECTED_DEFAULTS = {
    "25": {
        **COMMON,
        **NO_BIDDING,
        "game": "25",
        "target": 25,
        "best_trump_bonus": 0,
        "game_end": "at_trick",
        "simultaneous_finish": None,
        "dealer_robs_ace": "may",
        "jink_doubles_stake": True,
        "first_lead": "left_of_dealer",
    },
    "45": {
        **COMMON,
        **NO_BIDDING,
        "game": "45",
        "target": 45,
        "best_trump_bonus": 5,
        "game_end": "at_hand_end",
        "simultaneous_finish": "higher_total",
        "dealer_robs_ace": "must",
        "jink_doubles_stake": False,
        "first_lead": "left_of_dealer",
    },
    "55": bidding_55(55),
    "110": bidding_55(110),
    "220": bidding_55(220),
    "auction45": {
        **COMMON,
        "game": "auction45",
        "target": 120,
        "best_trump_bonus": 5,
        "game_end": "at_hand_end",
        "simultaneous_finish": "bidder_first",
        "dealer_robs_ace": None,
        "jink_doubles_stake": False,
        "bids": [15, 20, 25, 30],
        "jink_bid": None,
        "made_thirty_scores": 60,
        "min_bid_at_100": 20,
        "dealer_may_hold": True,
        "all_pass": "dealer_stuck",
        "kitty": 3,
        "first_lead": "left_of_bidder",
    },
}


def caught_errors(call, *args, **kwargs):
    """The (pointer, detail) pairs of the one RulesError ``call`` raises."""
    with pytest.raises(RulesError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == "invalid_house_rule"
    assert all(error.code == "invalid_house_rule" for error in caught.value.errors)
    return [(error.pointer, error.detail) for error in caught.value.errors]


@pytest.mark.parametrize("game", GAMES)
def test_defaults_per_game(game):
    rules = HouseRules.for_game(game)
    assert rules.to_dict() == EXPECTED_DEFAULTS[game]
    assert list(rules.to_dict()) == ["game", *KEYS]


@pytest.mark.parametrize("game", GAMES)
def test_round_trip_through_a_dict(game):
    rules = HouseRules.for_game(game)
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert HouseRules.from_dict({"game": game}) == rules


def test_games_and_their_kinds():
    assert GAMES == ("25", "45", "55", "110", "220", "auction45")
    assert [HouseRules.for_game(game).is_bidding for game in GAMES] == [
        False, False, True, True, True, True,
    ]  # fmt: skip
    assert [HouseRules.for_game(game).has_turn_up for game in GAMES] == [
        True, True, False, False, False, False,
    ]  # fmt: skip


def test_values_are_normalised_to_immutable_forms():
    rules = HouseRules.for_game("55", bids=[10, 20, 30], jink_bid=30, renege_privilege=["A", "5"])
    assert rules.bids == (10, 20, 30)
    assert rules.renege_privilege == frozenset({"5", "A"})
    assert isinstance(rules.renege_privilege, frozenset)
    assert rules.to_dict()["renege_privilege"] == ["5", "A"]
    assert rules.to_dict()["bids"] == [10, 20, 30]
    assert hash(rules) == hash(HouseRules.from_dict(rules.to_dict()))


def test_renege_privilege_accepts_list_tuple_set_and_sorts_on_output():
    for given in (["A", "AH", "J", "5"], ("AH", "5"), {"J"}, frozenset(), []):
        rules = HouseRules.for_game("45", renege_privilege=given)
        assert rules.renege_privilege == frozenset(given)
    full = HouseRules.for_game("45", renege_privilege={"A", "AH", "J", "5"})
    assert full.to_dict()["renege_privilege"] == ["5", "J", "AH", "A"]
    assert HouseRules.for_game("45", renege_privilege=[]).to_dict()["renege_privilege"] == []


@pytest.mark.parametrize(
    ("game", "overrides"),
    [
        ("25", {"target": 31, "game_end": "at_hand_end", "jink_doubles_stake": False}),
        ("25", {"dealer_robs_ace": "must", "ace_of_hearts_follows_hearts": True}),
        ("45", {"simultaneous_finish": "first_to_reach", "best_trump_bonus": 0}),
        ("45", {"renege_penalty": "deduct", "renege_deduction": 10, "trick_points": 0}),
        ("110", {"all_pass": "dealer_stuck", "dealer_may_hold": False, "kitty": 0}),
        ("110", {"jink_bid": None, "min_bid_at_100": 20, "game_end": "at_trick"}),
        ("220", {"renege_penalty": "void_hand", "first_lead": "left_of_bidder"}),
        ("auction45", {"jink_bid": 30, "made_thirty_scores": None, "min_bid_at_100": None}),
        ("auction45", {"bids": [15, 20, 25, 30, 60], "jink_bid": 60, "kitty": 5}),
    ],
)
def test_valid_overrides(game, overrides):
    rules = HouseRules.for_game(game, **overrides)
    expected = {**EXPECTED_DEFAULTS[game], **overrides}
    assert rules.to_dict() == expected
    assert HouseRules.from_dict(expected) == rules


def test_replace_derives_a_new_validated_value():
    rules = HouseRules.for_game("45")
    changed = rules.replace(target=61, renege_privilege=["5"])
    assert (changed.game, changed.target, changed.renege_privilege) == ("45", 61, frozenset({"5"}))
    assert rules.target == 45
    assert caught_errors(rules.replace, target=-1) == [
        ("/target", "target: got -1; allowed: an integer from 1 to 1000")
    ]
    assert caught_errors(rules.replace, game="25") == [
        ("/game", "game: cannot be changed; start from HouseRules.for_game instead")
    ]


def test_rules_are_frozen():
    rules = HouseRules.for_game("25")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 30  # type: ignore[misc]


def test_not_applicable_keys_are_none_and_cannot_be_set():
    assert HouseRules.for_game("45", bids=None).bids is None
    assert caught_errors(HouseRules.for_game, "45", bids=[10, 15], kitty=5) == [
        ("/bids", "bids: does not apply to game 45; leave it out"),
        ("/kitty", "kitty: does not apply to game 45; leave it out"),
    ]
    assert caught_errors(HouseRules.for_game, "25", simultaneous_finish="higher_total") == [
        ("/simultaneous_finish", "simultaneous_finish: does not apply to game 25; leave it out")
    ]
    assert caught_errors(HouseRules.for_game, "110", dealer_robs_ace="may") == [
        ("/dealer_robs_ace", "dealer_robs_ace: does not apply to game 110; leave it out")
    ]
    assert caught_errors(HouseRules.for_game, "55", made_thirty_scores=60) == [
        ("/made_thirty_scores", "made_thirty_scores: does not apply to game 55; leave it out")
    ]
    assert caught_errors(HouseRules.for_game, "auction45", dealer_robs_ace="must") == [
        ("/dealer_robs_ace", "dealer_robs_ace: does not apply to game auction45; leave it out")
    ]


@pytest.mark.parametrize(
    ("game", "key", "value", "detail"),
    [
        ("25", "target", 0, "got 0; allowed: an integer from 1 to 1000"),
        ("25", "target", True, "got true; allowed: an integer from 1 to 1000"),
        ("25", "target", 25.0, "got 25.0; allowed: an integer from 1 to 1000"),
        ("25", "target", "25", 'got "25"; allowed: an integer from 1 to 1000'),
        ("25", "target", None, "got null; allowed: an integer from 1 to 1000"),
        ("45", "trick_points", -5, "got -5; allowed: an integer from 0 to 100"),
        ("45", "best_trump_bonus", False, "got false; allowed: an integer from 0 to 100"),
        # Bounds from what the games allow: a target of 10**30 is a game that never ends.
        ("25", "target", 10**30, f"got {10**30}; allowed: an integer from 1 to 1000"),
        ("25", "target", 1001, "got 1001; allowed: an integer from 1 to 1000"),
        ("45", "trick_points", 101, "got 101; allowed: an integer from 0 to 100"),
        (
            "55",
            "bids",
            [10, 2000],
            "got [10, 2000]; allowed: a non-empty list of at most 20 integers from 1 to 1000 in "
            "strictly increasing order",
        ),
        ("45", "game_end", "at_end", 'got "at_end"; allowed: one of at_trick, at_hand_end'),
        (
            "45",
            "simultaneous_finish",
            "tie",
            'got "tie"; allowed: one of higher_total, first_to_reach, bidder_first',
        ),
        ("25", "ace_of_hearts_follows_hearts", 1, "got 1; allowed: true or false"),
        ("25", "ace_of_hearts_follows_hearts", "true", 'got "true"; allowed: true or false'),
        ("25", "dealer_robs_ace", "never", 'got "never"; allowed: one of may, must'),
        ("25", "jink_doubles_stake", None, "got null; allowed: true or false"),
        ("55", "dealer_may_hold", 0, "got 0; allowed: true or false"),
        ("55", "all_pass", "pass", 'got "pass"; allowed: one of redeal, dealer_stuck'),
        ("55", "kitty", 6, "got 6; allowed: an integer from 0 to 5"),
        ("55", "kitty", -1, "got -1; allowed: an integer from 0 to 5"),
        ("55", "kitty", True, "got true; allowed: an integer from 0 to 5"),
        (
            "45",
            "first_lead",
            "dealer",
            'got "dealer"; allowed: one of left_of_dealer, left_of_bidder',
        ),
        (
            "45",
            "renege_penalty",
            "fine",
            'got "fine"; allowed: one of offender_scores_zero, void_hand, deduct',
        ),
        ("45", "renege_deduction", -10, "got -10; allowed: an integer from 0 to 1000"),
        ("55", "jink_bid", 0, "got 0; allowed: an integer from 1 to 1000 or null"),
        ("55", "jink_bid", 61, "got 61; allowed: null or one of bids (10, 15, 20, 25, 60)"),
        ("55", "min_bid_at_100", 12, "got 12; allowed: null or one of bids (10, 15, 20, 25, 60)"),
        (
            "auction45",
            "made_thirty_scores",
            -60,
            "got -60; allowed: an integer from 0 to 1000 or null",
        ),
    ],
)
def test_invalid_values(game, key, value, detail):
    assert caught_errors(HouseRules.for_game, game, **{key: value}) == [
        (f"/{key}", f"{key}: {detail}")
    ]


RENEGE_ALLOWED = "allowed: a list of distinct keys from 5, J, AH, A (possibly empty)"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (["5", "K"], '["5", "K"]'),
        (["5", "5"], '["5", "5"]'),
        ("5", '"5"'),
        ([5], "[5]"),
        (None, "null"),
        ({"5": True}, '{"5": true}'),
    ],
)
def test_invalid_renege_privilege(value, shown):
    assert caught_errors(HouseRules.for_game, "25", renege_privilege=value) == [
        ("/renege_privilege", f"renege_privilege: got {shown}; {RENEGE_ALLOWED}")
    ]


BIDS_ALLOWED = (
    "allowed: a non-empty list of at most 20 integers from 1 to 1000 in strictly increasing order"
)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ([], "[]"),
        ([10, 10, 15], "[10, 10, 15]"),
        ([15, 10], "[15, 10]"),
        ([0, 10], "[0, 10]"),
        ([10, True], "[10, true]"),
        ([10, "15"], '[10, "15"]'),
        (10, "10"),
        (None, "null"),
    ],
)
def test_invalid_bids(value, shown):
    # jink_bid is not checked against bids that are themselves wrong.
    assert caught_errors(HouseRules.for_game, "110", bids=value) == [
        ("/bids", f"bids: got {shown}; {BIDS_ALLOWED}")
    ]


def test_jink_bid_must_be_one_of_the_bids_after_overrides():
    assert caught_errors(HouseRules.for_game, "110", bids=[10, 15, 20]) == [
        ("/jink_bid", "jink_bid: got 60; allowed: null or one of bids (10, 15, 20)")
    ]
    assert HouseRules.for_game("110", bids=[10, 15, 20], jink_bid=None).jink_bid is None
    assert HouseRules.for_game("110", bids=[10, 15, 20], jink_bid=20).jink_bid == 20


def test_left_of_bidder_needs_a_bidding_game():
    assert caught_errors(HouseRules.for_game, "25", first_lead="left_of_bidder") == [
        ("/first_lead", "first_lead: left_of_bidder needs a bidding game, not game 25")
    ]


def test_unknown_game():
    assert caught_errors(HouseRules.for_game, "spoil5") == [
        ("/game", 'game: unknown game "spoil5"; allowed: 25, 45, 55, 110, 220, auction45')
    ]
    assert caught_errors(HouseRules.for_game, 45) == [
        ("/game", "game: unknown game 45; allowed: 25, 45, 55, 110, 220, auction45")
    ]


def test_unknown_key():
    known = ", ".join(ALL_KEYS)
    assert caught_errors(HouseRules.for_game, "45", tricks_points=5) == [
        ("/tricks_points", f"tricks_points: unknown house rule; known keys: {known}")
    ]


def test_several_bad_keys_give_one_error_listing_each():
    with pytest.raises(RulesError) as caught:
        HouseRules.for_game("45", colour="red", target=0, kitty=3, renege_privilege=["Q"])
    error = caught.value
    assert error.code == "invalid_house_rule"
    assert error.pointer == ""
    assert [item["pointer"] for item in error.as_list()] == [
        "/colour",
        "/target",
        "/renege_privilege",
        "/kitty",
    ]
    assert error.detail == "; ".join(item.detail for item in error.errors)


def test_from_dict_rejects_non_objects_and_a_missing_game():
    with pytest.raises(RulesError) as caught:
        HouseRules.from_dict(["45"])
    assert caught.value.as_dict() == {
        "code": "invalid_house_rule",
        "detail": "house rules must be an object with a game, got list",
        "pointer": "",
    }
    assert caught_errors(HouseRules.from_dict, {"target": 45}) == [
        ("/game", "game: missing; allowed: 25, 45, 55, 110, 220, auction45")
    ]


def test_from_dict_validates_like_for_game():
    assert caught_errors(HouseRules.from_dict, {"game": "45", "kitty": 2, "target": "x"}) == [
        ("/target", 'target: got "x"; allowed: an integer from 1 to 1000'),
        ("/kitty", "kitty: does not apply to game 45; leave it out"),
    ]


def test_direct_construction_is_validated_too():
    values = {**HouseRules.for_game("45").to_dict(), "target": 0}
    with pytest.raises(RulesError) as caught:
        HouseRules(**values)
    assert caught.value.pointer == "/target"


def test_an_override_named_game_or_cls_is_a_rules_error_not_a_type_error():
    assert caught_errors(HouseRules.for_game, "25", game="45") == [
        ("/game", "game: is not a house rule; pass the game as the first argument")
    ]
    assert [pointer for pointer, _ in caught_errors(HouseRules.for_game, "25", cls=1)] == ["/cls"]

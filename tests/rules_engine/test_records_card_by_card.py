"""Card-by-card records: card syntax, duplicates, counts, plays, leaders, robbing, the best trump
and the shape of the record (api.md "Card-by-card entry")."""

import copy

import pytest

from rules_engine import new_game
from tests.helpers import error_of
from tests.rules_engine.fixtures.examples import (
    EXAMPLE_H,
    example_a,
    example_a_robbed,
    example_p,
    example_r,
)

PAIRS = [[0, 2], [1, 3]]


def game_45():
    return new_game("45", 4, sides=PAIRS)


def test_card_spellings_are_accepted():
    record = example_a()
    record["tricks"][0] = ["qs", "K♠", "9s", "3♠️"]
    record["tricks"][3] = ["TH", "2d", "td", "6♥"]
    result, _ = game_45().record(record)
    assert result.trick_winners == (2, 1, 0, 0, 2)


def test_invalid_cards_are_all_reported():
    record = example_a()
    record["tricks"][1][2] = "1D"
    record["deal"][3][0] = "4X"
    error = error_of(game_45().record, record)
    assert error.code == "invalid_card"
    assert [(single.code, single.pointer) for single in error.errors] == [
        ("invalid_card", "/deal/3/0"),
        ("invalid_card", "/tricks/1/2"),
    ]
    assert error.as_list()[1]["pointer"] == "/tricks/1/2"


def test_invalid_turn_up():
    record = example_a()
    record["turn_up"] = "2Z"
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("invalid_card", "/turn_up")


def test_card_dealt_twice():
    record = example_a()
    record["deal"][2][1] = "JD"
    error = error_of(game_45().record, record)
    assert error.code == "duplicate_card"
    assert error.pointer == "/deal/2/1"
    assert error.detail == "JD appears twice: at /deal/0/1 and at /deal/2/1"


def test_turn_up_also_dealt():
    record = example_a()
    record["turn_up"] = "9S"
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("duplicate_card", "/turn_up")


def test_card_played_twice_without_deal():
    record = example_a(deal=False)
    record["tricks"][3][1] = "QD"  # seat 1 played QD in trick 2 already
    error = error_of(game_45().record, record)
    assert error.code == "duplicate_card"
    assert error.pointer == "/tricks/3/1"


def test_card_played_from_another_hand():
    record = example_a()
    record["tricks"][3][1] = "4H"  # dealt to seat 3
    error = error_of(game_45().record, record)
    assert error.code == "duplicate_card"
    assert error.pointer == "/tricks/3/1"
    assert error.detail == "seat 1 played 4H to trick 4, but 4H belongs to seat 3 (at /deal/3/0)"


def test_card_played_that_nobody_was_dealt():
    record = example_a()
    record["tricks"][3][1] = "KC"
    error = error_of(game_45().record, record)
    assert error.code == "illegal_play"
    assert error.pointer == "/tricks/3/1"
    assert error.detail == "seat 1 played KC to trick 4, but was not dealt it"


def test_turn_up_played_without_a_rob():
    record = example_a()
    record["tricks"][3][3] = "2S"
    error = error_of(game_45().record, record)
    assert error.code == "duplicate_card"
    assert error.pointer == "/tricks/3/3"
    assert error.detail == (
        "seat 3 played 2S to trick 4, but 2S is the turn-up and seat 3 did not rob it"
    )


def test_turn_up_played_without_a_rob_no_deal():
    error = error_of(new_game("25", 3).record, example_r(rob=False, deal=False))
    assert (error.code, error.pointer) == ("duplicate_card", "/tricks/0/2")


def test_trick_with_too_few_cards():
    record = example_a()
    record["tricks"][1] = ["8D", "5C", "JD"]
    error = error_of(game_45().record, record)
    assert error.code == "wrong_card_count"
    assert error.pointer == "/tricks/1"
    assert error.detail == "trick 2 has 3 cards; each of the 4 seats plays one card to every trick"


def test_deal_shapes():
    record = example_a()
    record["deal"][2] = record["deal"][2][:4]
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("wrong_card_count", "/deal/2")
    record = example_a()
    record["deal"] = record["deal"][:3]
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("wrong_card_count", "/deal")


@pytest.mark.parametrize("count", [0, 4, 6])
def test_trick_count(count):
    record = example_a()
    record["tricks"] = (record["tricks"] + [["2H", "3H", "7H", "8H"]])[:count]
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("wrong_trick_count", "/tricks")


def test_trump_led_must_be_followed_with_a_trump():
    record = example_a()
    record["tricks"][0][3] = "10H"
    record["tricks"][3][0] = "3S"
    error = error_of(game_45().record, record)
    assert error.code == "illegal_play"
    assert error.pointer == "/tricks/0/3"
    assert error.detail == "seat 0 played 10H to trick 1, but a trump was led and the hand held 3S"


def test_privileged_trump_may_not_be_withheld_from_a_higher_lead():
    error = error_of(new_game("25", 2).record, example_p("2H"))
    assert error.code == "illegal_play"
    assert error.pointer == "/tricks/0/1"
    assert error.detail == (
        "seat 0 played 2H to trick 1, but a trump was led and the hand held JS, which may not be "
        "withheld when 5S is led"
    )


def test_privileged_trump_may_be_withheld_from_a_lower_lead():
    result, _ = new_game("25", 2).record(example_p("2H", lead="3S"))
    assert result.trick_winners == (1, 0, 0, 0, 0)
    assert result.points == (20, 5)


def test_renege_privilege_house_rule():
    state = new_game("25", 2, rules={"renege_privilege": ["5"]})
    error = error_of(state.record, example_p("2H", lead="3S"))
    assert (error.code, error.pointer) == ("illegal_play", "/tricks/0/1")


def test_ace_of_hearts_is_not_a_heart_by_default():
    result, _ = new_game("25", 2).record(copy.deepcopy(EXAMPLE_H))
    assert result.trick_winners == (1, 1, 1, 1, 0)


def test_ace_of_hearts_follows_hearts_variant():
    state = new_game("25", 2, rules={"ace_of_hearts_follows_hearts": True})
    error = error_of(state.record, copy.deepcopy(EXAMPLE_H))
    assert error.code == "illegal_play"
    assert error.pointer == "/tricks/0/1"
    assert error.detail == (
        "seat 0 played 2C to trick 1, but hearts were led and the hand held AH: follow suit or "
        "trump"
    )


def test_trick_object_form_with_leaders():
    record = example_a()
    leaders = [1, 2, 1, 0, 0]
    record["tricks"] = [
        {"leader": leader, "cards": cards}
        for leader, cards in zip(leaders, record["tricks"], strict=True)
    ]
    result, _ = game_45().record(record)
    assert result.trick_winners == (2, 1, 0, 0, 2)
    record["tricks"][2]["leader"] = 2
    error = error_of(game_45().record, record)
    assert error.code == "wrong_leader"
    assert error.pointer == "/tricks/2/leader"
    assert error.detail == (
        "trick 3 is recorded as led by seat 2, but seat 1 led it (the winner of trick 2 leads)"
    )


def test_object_form_pointer_of_an_illegal_play():
    record = example_a()
    record["tricks"][0][3] = "10H"
    record["tricks"][3][0] = "3S"
    record["tricks"][0] = {"leader": 1, "cards": record["tricks"][0]}
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("illegal_play", "/tricks/0/cards/3")


@pytest.mark.parametrize("trick", [{"leader": 1}, {"cards": ["QS"], "leader": 1, "x": 1}])
def test_malformed_trick_object(trick):
    record = example_a()
    record["tricks"][0] = trick
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/tricks/0")


def test_rob_by_a_seat_without_the_ace():
    record = example_a_robbed()
    record["rob"]["seat"] = 2
    error = error_of(game_45().record, record)
    assert error.code == "illegal_rob"
    assert error.pointer == "/rob/seat"
    assert error.detail == (
        "seat 2 robbed the turn-up 2S, but only the holder of the ace of trumps (AS) may rob, "
        "and seat 1 held it"
    )


def test_rob_discard_not_in_the_robbers_hand():
    record = example_a_robbed()
    record["rob"]["discard"] = "5S"
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("illegal_rob", "/rob/discard")


def test_rob_discard_needed_with_a_deal():
    record = example_a_robbed()
    del record["rob"]["discard"]
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/rob/discard")


def test_rob_without_deal_checks_the_ace_was_the_robbers():
    record = example_a_robbed(deal=False)
    record["rob"]["seat"] = 3
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("illegal_rob", "/rob/seat")


def test_rob_discard_played_by_someone():
    record = example_a_robbed(deal=False)
    record["rob"]["discard"] = "4H"
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("duplicate_card", "/rob/discard")


def test_robbed_turn_up_played_by_another_seat():
    record = example_r(deal=False)
    # The dealer (seat 0) robbed AC, but seat 2 is recorded playing it.
    record["tricks"][0] = ["2D", "AC", "2S"]
    error = error_of(new_game("45", 3).record, record)
    assert error.code == "duplicate_card"
    assert error.pointer == "/tricks/0/1"
    assert error.detail == (
        "seat 2 played AC to trick 1, but AC is the turn-up and seat 0 robbed it"
    )


def test_only_the_dealer_robs_a_turned_up_ace():
    record = example_r()
    record["rob"] = {"seat": 1, "discard": "2D"}
    error = error_of(new_game("45", 3).record, record)
    assert error.code == "illegal_rob"
    assert error.pointer == "/rob/seat"


def test_rob_may_not_discard_the_turn_up():
    record = example_r(deal=False)
    record["rob"]["discard"] = "AC"
    error = error_of(new_game("45", 3).record, record)
    assert (error.code, error.pointer) == ("illegal_rob", "/rob/discard")


def test_stated_best_trump_must_match():
    record = example_a()
    record["best_trump"] = {"seat": 2, "trick": 4, "card": "5S"}
    result, _ = game_45().record(record)
    assert result.best_trump.seat == 2
    record["best_trump"] = {"seat": 2, "trick": 0}
    error = error_of(game_45().record, record)
    assert error.code == "best_trump_mismatch"
    assert error.pointer == "/best_trump"
    record["best_trump"] = None
    error = error_of(game_45().record, record)
    assert error.code == "best_trump_mismatch"


def test_stated_trump_must_match_the_turn_up():
    record = example_a()
    record["trump"] = "H"
    error = error_of(game_45().record, record)
    assert error.code == "invalid_trump"
    assert error.pointer == "/trump"
    assert error.detail == "trumps are spades, fixed by the turn-up 2S, not hearts"
    record["trump"] = "♠"
    result, _ = game_45().record(record)
    assert result.trump == "S"


@pytest.mark.parametrize(
    ("change", "code", "pointer"),
    [
        ({"colour": "red"}, "invalid_record", "/colour"),
        ({"kitty": ["2H"]}, "invalid_record", "/kitty"),
        ({"trick_winners": [0, 0, 0, 0, 0]}, "invalid_record", "/trick_winners"),
        ({"turn_up": None}, "invalid_card", "/turn_up"),
        ({"tricks": "QS KS 9S 3S"}, "invalid_record", "/tricks"),
        ({"dealer": "0"}, "invalid_record", "/dealer"),
        ({"dealer": 7}, "invalid_seat", "/dealer"),
    ],
)
def test_record_shape(change, code, pointer):
    record = example_a()
    record.update(change)
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == (code, pointer)


def test_missing_turn_up():
    record = example_a()
    del record["turn_up"]
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/turn_up")


@pytest.mark.parametrize("record", [[], "hand", None, {"dealer": 0}, {}])
def test_not_a_hand(record):
    error = error_of(game_45().record, record)
    assert error.code == "invalid_record"


def test_the_first_error_in_play_order_is_reported():
    record = example_a()
    record["tricks"][2] = ["6C", "5D", "6H", "2C"]  # seat 3 throws 6H holding 7C (trick 3)
    record["tricks"][3][1] = "KC"  # and seat 1 plays a card nobody was dealt (trick 4)
    error = error_of(game_45().record, record)
    assert (error.code, error.pointer) == ("illegal_play", "/tricks/2/2")
    assert len(error.errors) == 1


def test_an_undealt_card_that_does_not_follow_is_reported_as_not_dealt():
    record = example_a()
    record["tricks"][2][2] = "KH"  # clubs led; seat 3 was never dealt KH
    error = error_of(game_45().record, record)
    assert error.code == "illegal_play"
    assert error.pointer == "/tricks/2/2"
    assert error.detail == "seat 3 played KH to trick 3, but was not dealt it"

"""Misdeals and reneges (rules.md "Irregularities", renege_penalty): both shapes."""

import pytest

from rules_engine import Renege, new_game
from tests.helpers import error_of
from tests.rules_engine.fixtures.examples import EXAMPLE_A_WINNERS, example_a, example_a_renege

PAIRS = [[0, 2], [1, 3]]


def test_misdeal_scores_nothing_and_the_same_dealer_deals_again():
    state = new_game("45", 4, sides=PAIRS, first_dealer=2, totals=[10, 5])
    result, after = state.record({"dealer": 2, "misdeal": True})
    assert result.kind == "misdeal"
    assert result.points == (0, 0)
    assert result.trick_winners == ()
    assert result.trump is None
    assert result.to_dict()["kind"] == "misdeal"
    assert after.totals == (10, 5)
    assert after.hands_played == 1
    assert after.next_dealer == 2


@pytest.mark.parametrize(
    ("record", "pointer"),
    [
        ({"dealer": 0, "misdeal": False}, "/misdeal"),
        ({"dealer": 0, "misdeal": True, "trump": "S"}, "/trump"),
    ],
)
def test_malformed_misdeal(record, pointer):
    error = error_of(new_game("45", 3).record, record)
    assert (error.code, error.pointer) == ("invalid_record", pointer)


def renege_state(penalty="offender_scores_zero", deduction=0):
    rules = {"renege_penalty": penalty, "renege_deduction": deduction}
    return new_game("45", 4, sides=PAIRS, rules=rules)


@pytest.mark.parametrize("with_deal", [True, False])
def test_illegal_play_without_renege_entry_is_refused(with_deal):
    error = error_of(renege_state().record, example_a_renege(deal=with_deal))
    assert error.code == "illegal_play"
    assert error.pointer == "/tricks/2/2"
    assert error.detail == (
        "seat 3 played 6H to trick 3, but clubs were led and the hand held 7C: follow suit or trump"
    )


@pytest.mark.parametrize("with_deal", [True, False])
def test_renege_offender_scores_zero(with_deal):
    record = example_a_renege({"seat": 3, "trick": 2}, deal=with_deal)
    result, after = renege_state().record(record)
    assert result.kind == "renege"
    assert result.renege == Renege(seat=3, trick=2)
    assert result.trick_winners == (2, 1, 0, 0, 2)
    assert result.points == (25, 0)
    assert result.to_dict()["renege"] == {"seat": 3, "trick": 2}
    assert after.next_dealer == 1


def test_renege_void_hand():
    result, after = renege_state("void_hand").record(example_a_renege({"seat": 3, "trick": 2}))
    assert result.points == (0, 0)
    assert after.totals == (0, 0)
    assert after.next_dealer == 0
    assert after.hands_played == 1


def test_renege_deduct():
    state = renege_state("deduct", 10)
    result, after = state.record(example_a_renege({"seat": 3, "trick": 2}))
    assert result.points == (25, -10)
    assert after.totals == (25, -10)


def test_renege_entry_at_a_legal_play_is_refused():
    error = error_of(renege_state().record, example_a_renege({"seat": 1, "trick": 0}))
    # The first illegal play (seat 3, trick 3) is reached before the renege is checked.
    assert (error.code, error.pointer) == ("illegal_play", "/tricks/2/2")
    record = example_a()
    record["renege"] = {"seat": 1, "trick": 0}
    error = error_of(renege_state().record, record)
    assert error.code == "invalid_record"
    assert error.pointer == "/renege"
    assert error.detail == (
        "a renege by seat 1 in trick 1 is recorded, but its play there (QS) was legal"
    )


@pytest.mark.parametrize(
    ("renege", "code", "pointer"),
    [
        ({"seat": 3, "trick": 5}, "invalid_record", "/renege/trick"),
        ({"seat": 4, "trick": 2}, "invalid_seat", "/renege/seat"),
        ({"seat": 3}, "invalid_record", "/renege"),
        ([3, 2], "invalid_record", "/renege"),
    ],
)
def test_malformed_renege(renege, code, pointer):
    error = error_of(renege_state().record, example_a_renege(renege))
    assert (error.code, error.pointer) == (code, pointer)


def test_renege_in_trick_winner_entry():
    record = {
        "dealer": 0,
        "trump": "S",
        "trick_winners": EXAMPLE_A_WINNERS,
        "best_trump": {"seat": 2, "trick": 4},
        "renege": {"seat": 3, "trick": 2},
    }
    result, _ = renege_state().record(record)
    assert result.kind == "renege"
    assert result.points == (25, 0)
    record["renege"] = {"seat": 0, "trick": 2}
    result, _ = renege_state().record(record)
    assert result.points == (0, 5)


def bidding_renege(renege_seat, amount=20):
    return {
        "dealer": 0,
        "trump": "H",
        "trick_winners": [1, 1, 2, 1, 0],
        "best_trump": {"seat": 1, "trick": 0},
        "bid": {"seat": 1, "amount": amount},
        "renege": {"seat": renege_seat, "trick": 1},
    }


def test_bidding_side_that_reneges_is_set():
    # Seat 1 made its 20 on the cards, but reneged: it loses the bid; the others score as played.
    result, _ = new_game("110", 3).record(bidding_renege(1))
    assert result.points == (5, -20, 5)
    assert result.bid.made is False


def test_non_bidding_offender_scores_nothing_and_the_bid_stands():
    result, _ = new_game("110", 3).record(bidding_renege(2))
    assert result.points == (5, 20, 0)
    assert result.bid.made is True


def test_void_hand_leaves_the_bid_unsettled():
    state = new_game("110", 3, rules={"renege_penalty": "void_hand"})
    result, after = state.record(bidding_renege(2))
    assert result.points == (0, 0, 0)
    assert result.bid.made is None
    assert after.next_dealer == 0


def test_deduct_from_a_reneging_bidder():
    state = new_game("110", 3, rules={"renege_penalty": "deduct", "renege_deduction": 5})
    result, _ = state.record(bidding_renege(1))
    assert result.points == (5, -25, 5)


def test_renege_in_25_the_hand_stops_when_another_side_reaches():
    # Seat 0 reneges in trick 1; seat 1 (on 15) reaches 25 at trick 2; seat 0's tricks count
    # for nothing.
    state = new_game("25", 3, totals=[20, 15, 0])
    record = {"dealer": 0, "trump": "S", "trick_winners": [1, 1], "renege": {"seat": 0, "trick": 0}}
    result, after = state.record(record)
    assert result.points == (0, 10, 0)
    assert after.winner == 1
    record = {
        "dealer": 0,
        "trump": "S",
        "trick_winners": [0, 0, 1, 1],
        "renege": {"seat": 0, "trick": 0},
    }
    result, after = state.record(record)
    assert result.points == (0, 10, 0)
    assert after.winner == 1

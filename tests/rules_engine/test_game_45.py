"""Forty-Five: the best-trump bonus, robbing a turned-up ace, higher total wins, exact tie plays
on (rules.md "45"). The hands are worked out in fixtures/examples.py."""

import pytest

from rules_engine import BestTrump, Card, new_game, parse_card
from tests.helpers import error_of
from tests.rules_engine.fixtures.examples import (
    EXAMPLE_A_WINNERS,
    example_a,
    example_a_robbed,
    example_r,
)

PAIRS = [[0, 2], [1, 3]]


def two_v_two(**kwargs):
    return new_game("45", 4, sides=PAIRS, **kwargs)


@pytest.mark.parametrize("with_deal", [True, False])
def test_example_a_card_by_card(with_deal):
    state = two_v_two()
    result, after = state.record(example_a(deal=with_deal))
    assert result.kind == "played"
    assert result.trump == "S"
    assert result.trick_winners == (2, 1, 0, 0, 2)
    # Side 0 (seats 0, 2): 4 tricks + the 5S bonus; side 1: one trick.
    assert result.points == (25, 5)
    assert result.best_trump == BestTrump(seat=2, card=parse_card("5S"), trick=4)
    assert result.bid is None
    assert result.reached == (None, None)
    assert after.totals == (25, 5)
    assert after.hands_played == 1
    assert after.next_dealer == 1
    assert after.finished is False
    assert state.totals == (0, 0) and state.hands_played == 0  # the old state is untouched


def test_example_a_to_dict_matches_api():
    result, after = two_v_two().record(example_a())
    assert result.to_dict() == {
        "number": 1,
        "kind": "played",
        "dealer": 0,
        "trump": "S",
        "trick_winners": [2, 1, 0, 0, 2],
        "points": {"0": 25, "1": 5},
        "best_trump": {"seat": 2, "card": "5S", "trick": 4},
        "bid": None,
        "reached": {"0": None, "1": None},
        "renege": None,
        "rob": None,
    }
    assert after.to_dict()["totals"] == {"0": 25, "1": 5}


@pytest.mark.parametrize("with_deal", [True, False])
def test_robbed_turn_up(with_deal):
    result, after = two_v_two().record(example_a_robbed(deal=with_deal))
    assert result.trick_winners == (2, 1, 2, 1, 2)
    assert result.points == (20, 10)
    assert result.rob_seat == 1
    assert result.to_dict()["rob"] == {"seat": 1}


def test_trick_winner_entry_of_example_a():
    record = {
        "dealer": 0,
        "trump": "S",
        "trick_winners": EXAMPLE_A_WINNERS,
        "best_trump": {"seat": 2, "trick": 4},
    }
    result, after = two_v_two().record(record)
    assert result.points == (25, 5)
    assert result.best_trump == BestTrump(seat=2, card=None, trick=4)
    assert after.totals == (25, 5)


def test_trick_winner_entry_naming_the_card():
    record = {
        "dealer": 0,
        "trump": "S",
        "trick_winners": EXAMPLE_A_WINNERS,
        "best_trump": {"seat": 2, "trick": 4, "card": "5s"},
    }
    result, _ = two_v_two().record(record)
    assert result.best_trump.card is Card("5", "S")


def test_no_trump_played_means_no_bonus():
    record = {"dealer": 0, "trump": "S", "trick_winners": EXAMPLE_A_WINNERS, "best_trump": None}
    result, _ = two_v_two().record(record)
    assert result.points == (20, 5)
    assert result.best_trump is None


def test_the_dealer_robs_a_turned_up_ace():
    result, _ = new_game("45", 3).record(example_r())
    assert result.trick_winners == (0, 0, 0, 0, 0)
    assert result.points == (30, 0, 0)
    assert result.rob_seat == 0
    assert result.best_trump == BestTrump(seat=0, card=parse_card("AC"), trick=0)


def test_the_dealer_must_rob_a_turned_up_ace_in_45():
    error = error_of(new_game("45", 3).record, example_r(rob=False))
    assert error.code == "illegal_rob"
    assert error.pointer == "/rob"
    assert error.detail == (
        "the turn-up is AC: the dealer (seat 0) must rob it (dealer_robs_ace is must), but no "
        "rob was recorded"
    )


def test_must_rob_checked_in_trick_winner_entry_with_turn_up():
    record = {"dealer": 0, "turn_up": "AC", "trick_winners": [0] * 5, "best_trump": None}
    error = error_of(new_game("45", 3).record, record)
    assert (error.code, error.pointer) == ("illegal_rob", "/rob")
    record["rob"] = {"seat": 0}
    result, _ = new_game("45", 3).record(record)
    assert result.trump == "C"
    assert result.rob_seat == 0
    record["rob"] = {"seat": 1}
    error = error_of(new_game("45", 3).record, record)
    assert (error.code, error.pointer) == ("illegal_rob", "/rob/seat")


def test_one_side_past_45_wins():
    state = two_v_two(totals=[30, 40])
    result, after = state.record(example_a())
    assert after.totals == (55, 45)
    # Both passed 45 in the same hand: the higher total wins.
    assert after.finished is True
    assert after.winner == 0
    assert after.status == "finished"
    # Side 0 stood at 45 after trick 4 (30 + 5 + 5 + 5), side 1 after trick 2 (40 + 5).
    assert result.reached == (3, 1)


def test_higher_total_wins_even_when_the_other_side_got_there_first():
    # Side 0 reaches 45 in trick 1, side 1 only in trick 2, but side 1 ends higher.
    record = {
        "dealer": 0,
        "trump": "S",
        "trick_winners": [0, 1, 1, 1, 0],
        "best_trump": {"seat": 1, "trick": 1},
    }
    result, after = two_v_two(totals=[40, 40]).record(record)
    assert result.points == (10, 20)
    assert result.reached == (0, 1)
    assert after.totals == (50, 60)
    assert after.winner == 1


def test_exact_tie_plays_another_hand():
    record = {
        "dealer": 0,
        "trump": "S",
        "trick_winners": [0, 1, 1, 1, 0],
        "best_trump": {"seat": 1, "trick": 1},
    }
    _, after = two_v_two(totals=[40, 30]).record(record)
    assert after.totals == (50, 50)
    assert after.finished is False
    assert after.winner is None
    # The next hand decides: side 0 takes three tricks.
    record = {
        "dealer": 1,
        "trump": "H",
        "trick_winners": [0, 0, 1, 2, 3],
        "best_trump": {"seat": 3, "trick": 4},
    }
    result, final = after.record(record)
    assert result.points == (15, 15)
    assert final.totals == (65, 65)
    assert final.finished is False
    record = {
        "dealer": 2,
        "trump": "D",
        "trick_winners": [0, 0, 0, 1, 1],
        "best_trump": {"seat": 0, "trick": 0},
    }
    _, final = final.record(record)
    assert final.totals == (85, 75)
    assert final.winner == 0


def test_cut_throat_three_players():
    record = {
        "dealer": 0,
        "trump": "C",
        "trick_winners": [1, 2, 2, 0, 2],
        "best_trump": {"seat": 2, "trick": 1},
    }
    result, after = new_game("45", 3).record(record)
    assert result.points == (5, 5, 20)
    assert after.next_dealer == 1


def test_renege_privilege_house_rule_changes_legality():
    # Trick 1 of example A: seat 0 holds 3S and JS, QS led. With only "5" privileged it still
    # must trump (3S); the example stays legal either way.
    rules = {"renege_privilege": ["5"]}
    result, _ = two_v_two(rules=rules).record(example_a())
    assert result.points == (25, 5)

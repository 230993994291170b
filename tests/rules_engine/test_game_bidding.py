"""The bidding games 55, 110, 220 and Auction 45: scoring a bid made or failed, the jink bid,
first to reach, bidder first, the kitty and discards, the first lead (rules.md)."""

import pytest

from rules_engine import BidResult, new_game
from tests.helpers import error_of
from tests.rules_engine.fixtures.examples import example_k, example_q

PAIRS = [[0, 2], [1, 3]]


def entry(winners, bid, best=(None, None), dealer=0, trump="H"):
    seat, trick = best
    return {
        "dealer": dealer,
        "trump": trump,
        "trick_winners": winners,
        "best_trump": None if seat is None else {"seat": seat, "trick": trick},
        "bid": {"seat": bid[0], "amount": bid[1]},
    }


def test_bid_made_scores_what_was_taken():
    # Seat 1 takes three tricks and the best trump: 15 + 5 = 20, its bid of 20 is made.
    result, after = new_game("110", 3).record(entry([1, 1, 2, 1, 0], (1, 20), (1, 0)))
    assert result.points == (5, 20, 5)
    assert result.bid == BidResult(seat=1, amount=20, made=True)
    assert result.to_dict()["bid"] == {"seat": 1, "amount": 20, "made": True}
    assert after.totals == (5, 20, 5)


def test_bid_failed_loses_the_bid():
    result, after = new_game("110", 3).record(entry([1, 1, 2, 1, 0], (1, 25), (1, 0)))
    assert result.points == (5, -25, 5)
    assert result.bid.made is False
    assert after.totals == (5, -25, 5)


def test_jink_bid_made_scores_60():
    result, _ = new_game("55", 3).record(entry([1] * 5, (1, 60), (1, 2)))
    assert result.points == (0, 60, 0)
    assert result.bid.made is True


def test_jink_bid_failed_loses_60():
    result, _ = new_game("55", 3).record(entry([1, 1, 1, 1, 2], (1, 60), (2, 4)))
    assert result.points == (0, -60, 10)
    assert result.bid.made is False


def test_lower_bid_taking_all_five_scores_only_its_30():
    result, _ = new_game("220", 3).record(entry([1] * 5, (1, 25), (1, 3)))
    assert result.points == (0, 30, 0)


def test_partners_pool_their_tricks_towards_the_bid():
    state = new_game("110", 4, sides=PAIRS)
    result, _ = state.record(entry([1, 3, 0, 2, 3], (3, 15), (1, 0)))
    # Side 1 (seats 1, 3): three tricks and the best trump = 20 >= 15.
    assert result.points == (10, 20)


def test_first_to_reach_wins_counting_trick_by_trick():
    # Seat 0 (100) reaches 110 at trick 3; seat 1 (100) at trick 4 but ends higher; seat 2's bid
    # of 10 fails. First to reach wins.
    state = new_game("110", 3, totals=[100, 100, 0])
    result, after = state.record(entry([1, 0, 0, 1, 1], (2, 10), (1, 4)))
    assert result.points == (10, 20, -10)
    assert result.reached == (2, 3, None)
    assert after.totals == (110, 120, -10)
    assert after.winner == 0


def test_the_best_trump_bonus_counts_at_its_trick():
    # Same tricks, but the best trump is seat 1's trick 1: it stands on 110 after trick 1.
    state = new_game("110", 3, totals=[100, 100, 0])
    result, after = state.record(entry([1, 0, 0, 1, 1], (2, 10), (1, 0)))
    assert result.reached == (2, 0, None)
    assert after.winner == 1


def test_a_bidder_counts_only_if_the_bid_is_made():
    state = new_game("110", 3, totals=[100, 100, 0])
    # Seat 1 bids 25 and takes 20 (3 tricks + bonus): set, so its early tricks do not count.
    result, after = state.record(entry([1, 1, 0, 0, 1], (1, 25), (1, 0)))
    assert result.points == (10, -25, 0)
    assert result.reached == (3, None, None)
    assert after.winner == 0
    # Had it bid 20, it would have stood on 110 after its first trick and won.
    result, after = state.record(entry([1, 1, 0, 0, 1], (1, 20), (1, 0)))
    assert result.reached == (3, 0, None)
    assert after.winner == 1


def test_made_thirty_scores_sixty_in_auction_45():
    state = new_game("auction45", 4, sides=PAIRS)
    result, _ = state.record(entry([1, 3, 1, 3, 1], (1, 30), (3, 1)))
    assert result.points == (0, 60)
    assert result.bid.made is True


def test_bidder_first_in_auction_45():
    # Both sides pass 120 in this hand; side 0 got there first, but side 1 bid: side 1 wins.
    state = new_game("auction45", 4, sides=PAIRS, totals=[110, 110])
    result, after = state.record(entry([0, 0, 1, 3, 1], (1, 20), (1, 4)))
    assert result.points == (10, 20)
    assert result.reached == (1, 3)
    assert after.winner == 1


def test_non_bidding_side_wins_when_the_bid_fails():
    state = new_game("auction45", 4, sides=PAIRS, totals=[110, 110])
    result, after = state.record(entry([0, 0, 1, 3, 1], (1, 25), (1, 4)))
    assert result.points == (10, -25)
    assert after.winner == 0


@pytest.mark.parametrize(
    ("seat", "amount", "allowed"), [(0, 15, False), (0, 20, True), (1, 15, True)]
)
def test_min_bid_at_100(seat, amount, allowed):
    state = new_game("auction45", 4, sides=PAIRS, totals=[100, 0])
    record = entry([0, 1, 2, 3, 0], (seat, amount), (0, 0))
    if allowed:
        result, _ = state.record(record)
        assert result.bid.amount == amount
    else:
        error = error_of(state.record, record)
        assert (error.code, error.pointer) == ("illegal_bid", "/bid/amount")
        assert error.detail == (
            "seat 0 bid 15, but its side has 100, and a side on 100 or more bids at least 20 "
            "(min_bid_at_100)"
        )


def test_bid_not_allowed_in_the_game():
    error = error_of(new_game("110", 3).record, entry([0, 1, 2, 0, 1], (1, 30), (0, 0)))
    assert (error.code, error.pointer) == ("illegal_bid", "/bid/amount")
    assert error.detail == "seat 1 bid 30: the bids are 10, 15, 20, 25, 60"


@pytest.mark.parametrize("with_deal", [True, False])
def test_card_by_card_with_kitty(with_deal):
    result, after = new_game("110", 3).record(example_k(deal=with_deal))
    assert result.trick_winners == (1, 1, 1, 1, 1)
    assert result.bid == BidResult(seat=1, amount=25, made=True)
    assert result.points == (0, 30, 0)
    assert result.trump == "D"
    assert after.next_dealer == 1


def test_card_by_card_bid_field_must_match_the_bidding():
    record = example_k()
    record["bid"] = {"seat": 1, "amount": 25}
    result, _ = new_game("110", 3).record(record)
    assert result.bid.amount == 25
    record["bid"] = {"seat": 1, "amount": 20}
    error = error_of(new_game("110", 3).record, record)
    assert (error.code, error.pointer) == ("illegal_bid", "/bid")


def test_discard_not_from_hand_or_kitty():
    record = example_k()
    record["discard"] = ["2H", "9S", "10S", "8C", "9C"]
    error = error_of(new_game("110", 3).record, record)
    # 2H was dealt to seat 2.
    assert (error.code, error.pointer) == ("duplicate_card", "/discard/0")
    record["discard"] = ["KC", "9S", "10S", "8C", "9C"]
    error = error_of(new_game("110", 3).record, record)
    assert (error.code, error.pointer) == ("illegal_play", "/discard/0")
    assert error.detail == (
        "the bidder (seat 1) discarded KC, which was neither in its hand nor in the kitty"
    )


def test_discards_must_leave_five_cards():
    record = example_k()
    record["discard"] = ["8S", "9S", "10S", "8C"]
    error = error_of(new_game("110", 3).record, record)
    assert (error.code, error.pointer) == ("wrong_card_count", "/discard")


def test_kitty_card_also_dealt():
    record = example_k()
    record["kitty"][0] = "2C"
    error = error_of(new_game("110", 3).record, record)
    assert (error.code, error.pointer) == ("duplicate_card", "/kitty/0")


def test_kitty_and_discard_needed_with_a_deal():
    record = example_k()
    del record["kitty"]
    error = error_of(new_game("110", 3).record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/kitty")


def test_without_deal_only_the_bidder_plays_kitty_cards():
    record = example_k(deal=False)
    record["kitty"] = ["AD", "KD", "QD", "8C", "2H"]
    error = error_of(new_game("110", 3).record, record)
    assert (error.code, error.pointer) == ("duplicate_card", "/tricks/0/1")


def test_without_deal_a_discard_may_not_be_played():
    record = example_k(deal=False)
    record["discard"] = ["8S", "9S", "10S", "8C", "7C"]
    error = error_of(new_game("110", 3).record, record)
    assert (error.code, error.pointer) == ("duplicate_card", "/discard/4")


@pytest.mark.parametrize("with_deal", [True, False])
def test_auction_45_first_lead_left_of_the_bidder(with_deal):
    state = new_game("auction45", 4, sides=PAIRS)
    result, _ = state.record(example_q(deal=with_deal))
    assert result.trick_winners == (2, 2, 2, 2, 2)
    assert result.points == (30, 0)
    assert result.bid == BidResult(seat=2, amount=15, made=True)


def test_leader_stated_in_object_form_must_be_right():
    record = example_q()
    record["tricks"][0] = {"leader": 3, "cards": record["tricks"][0]}
    result, _ = new_game("auction45", 4, sides=PAIRS).record(record)
    assert result.trick_winners == (2, 2, 2, 2, 2)
    record["tricks"][0]["leader"] = 1
    error = error_of(new_game("auction45", 4, sides=PAIRS).record, record)
    assert (error.code, error.pointer) == ("wrong_leader", "/tricks/0/leader")
    assert error.detail.startswith("trick 1 is recorded as led by seat 1, but seat 3 led it")


def test_redeal_after_all_pass():
    state = new_game("110", 3)
    result, after = state.record({"dealer": 0, "redeal": True})
    assert result.kind == "redeal"
    assert result.points == (0, 0, 0)
    assert after.next_dealer == 1
    assert after.hands_played == 1
    bidding = [
        {"seat": 2, "call": "pass"},
        {"seat": 0, "call": "pass"},
        {"seat": 1, "call": "pass"},
    ]
    result, final = after.record({"dealer": 1, "bidding": bidding})
    assert result.kind == "redeal"
    assert final.next_dealer == 2


def test_all_pass_then_play_is_refused():
    bidding = [
        {"seat": 1, "call": "pass"},
        {"seat": 2, "call": "pass"},
        {"seat": 0, "call": "pass"},
    ]
    record = example_k()
    record["bidding"] = bidding
    error = error_of(new_game("110", 3).record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/discard")


def test_no_redeal_when_the_dealer_is_stuck():
    error = error_of(new_game("auction45", 4, sides=PAIRS).record, {"dealer": 0, "redeal": True})
    assert (error.code, error.pointer) == ("illegal_bid", "/redeal")


def test_redeal_is_for_bidding_games_only():
    error = error_of(new_game("45", 3).record, {"dealer": 0, "redeal": True})
    assert (error.code, error.pointer) == ("invalid_record", "/redeal")


def test_bidding_fields_do_not_belong_in_45():
    record = {
        "dealer": 0,
        "trump": "S",
        "trick_winners": [0] * 5,
        "best_trump": None,
        "bid": {"seat": 1, "amount": 20},
    }
    error = error_of(new_game("45", 3).record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/bid")


def test_missing_bid():
    record = {"dealer": 0, "trump": "S", "trick_winners": [0] * 5, "best_trump": None}
    error = error_of(new_game("110", 3).record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/bid")


def test_bid_seat_out_of_range():
    error = error_of(new_game("110", 3).record, entry([0] * 5, (3, 20), (0, 0)))
    assert (error.code, error.pointer) == ("invalid_seat", "/bid/seat")


def test_trick_winner_entry_with_the_bidding_instead_of_the_bid():
    record = entry([1, 1, 2, 1, 0], (1, 20), (1, 0))
    del record["bid"]
    record["bidding"] = [
        {"seat": 1, "call": "15"},
        {"seat": 2, "call": "pass"},
        {"seat": 0, "call": "hold"},
        {"seat": 1, "call": "20"},
        {"seat": 0, "call": "pass"},
    ]
    result, _ = new_game("110", 3).record(record)
    assert result.bid == BidResult(seat=1, amount=20, made=True)
    assert result.points == (5, 20, 5)

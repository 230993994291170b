"""The auction: bids, passes, the dealer's hold, passes are final, all-pass handling and the
minimum at 100 (rules.md "55, 110, 220" and "Auction Forty-Fives")."""

import pytest

from rules_engine import HouseRules, RulesError
from rules_engine.bidding import check_bid, check_bidding, minimum_bid

RULES_110 = HouseRules.for_game("110")
RULES_AUCTION = HouseRules.for_game("auction45")


def calls(*pairs):
    return [{"seat": seat, "call": call} for seat, call in pairs]


def auction(sequence, *, dealer=0, seats=4, rules=RULES_110, totals=None, side_of_seat=None):
    side_of_seat = side_of_seat or tuple(range(seats))
    totals = totals or (0,) * (max(side_of_seat) + 1)
    return check_bidding(
        sequence,
        dealer=dealer,
        seat_count=seats,
        rules=rules,
        totals=totals,
        side_of_seat=side_of_seat,
    )


def refused(sequence, **kwargs) -> RulesError:
    with pytest.raises(RulesError) as caught:
        auction(sequence, **kwargs)
    return caught.value


def test_once_around_highest_bid_wins():
    assert auction(calls((1, "10"), (2, "15"), (3, "pass"), (0, "pass"))) == (2, 15)


def test_calls_may_be_numbers_or_any_case():
    assert auction(calls((1, 10), (2, "PASS"), (3, " 20 "), (0, "Pass"))) == (3, 20)


def test_dealer_bids_last_and_may_bid_above():
    assert auction(calls((1, "15"), (2, "pass"), (3, "pass"), (0, "20"))) == (0, 20)


def test_dealer_hold_then_the_held_player_passes():
    sequence = calls((1, "15"), (2, "pass"), (3, "pass"), (0, "hold"), (1, "pass"))
    assert auction(sequence) == (0, 15)


def test_hold_raise_hold_until_60_is_held():
    sequence = calls(
        (1, "15"),
        (2, "20"),
        (3, "pass"),
        (0, "hold"),
        (2, "25"),
        (0, "hold"),
        (2, "60"),
        (0, "hold"),
    )
    assert auction(sequence) == (0, 60)


def test_held_player_raises_and_the_dealer_passes():
    sequence = calls((1, "pass"), (2, "20"), (3, "pass"), (0, "hold"), (2, "25"), (0, "pass"))
    assert auction(sequence) == (2, 25)


def test_the_highest_bid_held_ends_the_auction():
    sequence = calls((1, "60"), (2, "pass"), (3, "pass"), (0, "hold"), (1, "pass"))
    error = refused(sequence)
    assert error.code == "illegal_bid"
    assert error.pointer == "/bidding/4"
    assert error.detail == "the bidding was over (seat 0 won the bid at 60), but call 5 follows"


def test_dealer_outbidding_the_held_player_ends_it():
    sequence = calls((1, "15"), (2, "pass"), (3, "pass"), (0, "hold"), (1, "20"), (0, "25"))
    assert auction(sequence) == (0, 25)


def test_a_bid_must_be_above_the_current_one():
    error = refused(calls((1, "15"), (2, "15"), (3, "pass"), (0, "pass")))
    assert error.code == "illegal_bid"
    assert error.pointer == "/bidding/1/call"
    assert error.detail == "seat 2 bid 15, but the bid was already 15 (seat 1): bid higher or pass"


def test_only_allowed_bids():
    error = refused(calls((1, "17"), (2, "pass"), (3, "pass"), (0, "pass")))
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/0/call")
    assert error.detail == "seat 1 bid 17: the bids are 10, 15, 20, 25, 60"


def test_calls_in_turn_from_the_dealers_left():
    error = refused(calls((2, "15"), (1, "pass"), (3, "pass"), (0, "pass")))
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/0/seat")
    assert error.detail == "call 1 is by seat 2, but seat 1 was next to call"


def test_a_player_who_passed_bids_no_more():
    sequence = calls((1, "15"), (2, "pass"), (3, "pass"), (0, "hold"), (2, "20"))
    error = refused(sequence)
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/4/seat")


def test_an_outbid_player_bids_no_more():
    sequence = calls((1, "15"), (2, "20"), (3, "pass"), (0, "pass"), (1, "25"))
    error = refused(sequence)
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/4")


def test_only_the_dealer_holds():
    error = refused(calls((1, "15"), (2, "hold"), (3, "pass"), (0, "pass")))
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/1/call")
    assert error.detail == "seat 2 cannot hold: only the dealer holds"


def test_the_held_player_cannot_hold():
    sequence = calls((1, "15"), (2, "pass"), (3, "pass"), (0, "hold"), (1, "hold"))
    error = refused(sequence)
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/4/call")


def test_nothing_to_hold():
    error = refused(calls((1, "pass"), (2, "pass"), (3, "pass"), (0, "hold")))
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/3/call")
    assert error.detail == "the dealer (seat 0) held, but nobody had bid"


def test_hold_refused_when_the_dealer_may_not_hold():
    rules = RULES_110.replace(dealer_may_hold=False)
    error = refused(calls((1, "15"), (2, "pass"), (3, "pass"), (0, "hold")), rules=rules)
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/3/call")


def test_unfinished_bidding():
    error = refused(calls((1, "15"), (2, "pass")))
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding")
    assert error.detail == "the bidding is not finished: seat 3 has still to call"
    error = refused(calls((1, "15"), (2, "pass"), (3, "pass"), (0, "hold")))
    assert error.detail == "the bidding is not finished: seat 1 has still to call"


def test_all_pass_redeal():
    assert auction(calls((1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))) is None


def test_all_pass_dealer_stuck_must_take_the_lowest_bid():
    sequence = calls((1, "pass"), (2, "pass"), (3, "pass"), (0, "15"))
    assert auction(sequence, rules=RULES_AUCTION) == (0, 15)
    error = refused(calls((1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")), rules=RULES_AUCTION)
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/3/call")
    assert error.detail == (
        "the dealer (seat 0) passed after everyone else passed, but with all_pass dealer_stuck "
        "the dealer must bid 15"
    )
    error = refused(calls((1, "pass"), (2, "pass"), (3, "pass"), (0, "20")), rules=RULES_AUCTION)
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/3/call")


def test_stuck_dealer_on_100_takes_20():
    sides = (0, 1, 0, 1)
    sequence = calls((1, "pass"), (2, "pass"), (3, "pass"), (0, "20"))
    assert auction(sequence, rules=RULES_AUCTION, totals=(100, 0), side_of_seat=sides) == (0, 20)


def test_min_bid_at_100_applies_to_the_side_on_100():
    sides = (0, 1, 0, 1)
    sequence = calls((1, "15"), (2, "15"), (3, "pass"), (0, "pass"))
    error = refused(sequence, rules=RULES_AUCTION, totals=(100, 0), side_of_seat=sides)
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/1/call")
    sequence = calls((1, "15"), (2, "20"), (3, "pass"), (0, "pass"))
    assert auction(sequence, rules=RULES_AUCTION, totals=(100, 0), side_of_seat=sides) == (2, 20)


def test_holding_under_the_minimum_at_100_is_refused():
    sides = (0, 1, 0, 1)
    sequence = calls((1, "15"), (2, "pass"), (3, "pass"), (0, "hold"))
    error = refused(sequence, rules=RULES_AUCTION, totals=(100, 0), side_of_seat=sides)
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/3/call")


def test_minimum_bid():
    assert minimum_bid(RULES_AUCTION, 99) == 15
    assert minimum_bid(RULES_AUCTION, 100) == 20
    assert minimum_bid(RULES_110, 150) == 10


@pytest.mark.parametrize(
    ("sequence", "code", "pointer"),
    [
        ("15", "invalid_record", "/bidding"),
        ([["1", "15"]], "invalid_record", "/bidding/0"),
        ([{"seat": 1}], "invalid_record", "/bidding/0"),
        ([{"seat": 1, "call": "15", "by": "me"}], "invalid_record", "/bidding/0/by"),
        ([{"seat": 1, "call": "double"}], "invalid_record", "/bidding/0/call"),
        ([{"seat": 9, "call": "15"}], "invalid_seat", "/bidding/0/seat"),
    ],
)
def test_malformed_calls(sequence, code, pointer):
    error = refused(sequence)
    assert (error.code, error.pointer) == (code, pointer)


def test_check_bid_of_a_trick_winner_entry():
    kwargs = {"seat_count": 4, "rules": RULES_110, "totals": (0,) * 4, "side_of_seat": (0, 1, 2, 3)}
    assert check_bid({"seat": 2, "amount": 25}, **kwargs) == (2, 25)
    for bid, code, pointer in [
        ({"seat": 2}, "invalid_record", "/bid"),
        ({"seat": 2, "amount": "25"}, "invalid_record", "/bid/amount"),
        ({"seat": 4, "amount": 25}, "invalid_seat", "/bid/seat"),
        ({"seat": 2, "amount": 30}, "illegal_bid", "/bid/amount"),
        (25, "invalid_record", "/bid"),
    ]:
        with pytest.raises(RulesError) as caught:
            check_bid(bid, **kwargs)
        assert (caught.value.code, caught.value.pointer) == (code, pointer)


def test_a_call_of_thousands_of_digits_is_an_invalid_record_not_a_crash():
    error = refused(calls((1, "9" * 5000), (2, "pass"), (3, "pass"), (0, "pass")))
    assert (error.code, error.pointer) == ("invalid_record", "/bidding/0/call")
    # The value is shown cut to 40 characters: a quote, 36 nines and "...".
    shown = "'" + "9" * 36 + "..."
    assert error.detail == f'a call is a bid such as "15", "pass" or "hold"; got {shown}'


def test_a_six_digit_call_is_read_as_a_bid_and_refused_as_one():
    error = refused(calls((1, "100000"), (2, "pass"), (3, "pass"), (0, "pass")))
    assert (error.code, error.pointer) == ("illegal_bid", "/bidding/0/call")

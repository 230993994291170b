"""Each house-rule variant played out on hand-worked hands: what the override changes in a game.

The validation of the keys is in test_house_rules.py, the follow-rule variants (renege_privilege,
ace_of_hearts_follows_hearts) in test_follow_rules.py and test_records_card_by_card.py, the
auction variants (dealer_may_hold, all_pass, min_bid_at_100 in the auction) in test_bidding.py,
renege_penalty and renege_deduction in test_game_irregularities.py, jink_doubles_stake in
test_game_25.py. This module covers the other keys, each against its default.

Hands (worked by hand; examples A, J, K, R are in fixtures/examples.py):

Example R unrobbed: game 25 or 45, 3 seats alone, dealer 0, the turn-up AC makes clubs trumps and
nobody holds a club. The dealer does not rob: seat 1 leads its diamonds 2D 3D 4D 6D 7D, seat 2
throws spades, the dealer hearts; no trump is played and seat 1 takes all five tricks (25).

Example S (small kitty): game 110, 3 seats alone, dealer 0, kitty of 3. Seat 1 bids 20, the others
pass; it takes the kitty AD KD QD, discards 8S 9S 10S, names diamonds and holds 5D JD AD KD QD.
  - first lead left of the dealer (seat 1): it leads its five trumps and takes every trick.
  - first lead left of the bidder (seat 2): seat 2 leads 2H, the dealer (no hearts) throws 2C,
    seat 1 trumps with 5D and then leads its trumps: seat 1 takes all five again.
  Either way 25 for the tricks + 5 for the best trump (5D) = 30, the bid of 20 made.
"""

import copy

import pytest

from rules_engine import BidResult, new_game
from tests.helpers import error_of
from tests.rules_engine.fixtures.examples import EXAMPLE_R_DEAL, example_a, example_j, example_r

PAIRS = [[0, 2], [1, 3]]


def winners_entry(winners, best=None, dealer=0, trump="S", bid=None):
    record = {"dealer": dealer, "trump": trump, "trick_winners": winners}
    if best is not None:
        record["best_trump"] = None if best == "none" else {"seat": best[0], "trick": best[1]}
    if bid is not None:
        record["bid"] = {"seat": bid[0], "amount": bid[1]}
    return record


# --- dealer_robs_ace ----------------------------------------------------------------------------


def example_r_unrobbed() -> dict:
    return {
        "dealer": 0,
        "turn_up": "AC",
        "deal": copy.deepcopy(EXAMPLE_R_DEAL),
        "tricks": [
            ["2D", "2S", "2H"],
            ["3D", "3S", "3H"],
            ["4D", "4S", "4H"],
            ["6D", "6S", "6H"],
            ["7D", "7S", "7H"],
        ],
    }


def test_dealer_may_leave_a_turned_up_ace_in_25():
    result, after = new_game("25", 3).record(example_r_unrobbed())
    assert result.rob_seat is None
    assert result.trick_winners == (1, 1, 1, 1, 1)
    assert result.best_trump is None
    assert result.points == (0, 25, 0)
    assert (after.winner, after.double_stake) == (1, True)
    # ...and may rob it.
    result, _ = new_game("25", 3).record(example_r())
    assert (result.rob_seat, result.points) == (0, (25, 0, 0))


def test_dealer_robs_ace_must_in_25():
    state = new_game("25", 3, rules={"dealer_robs_ace": "must"})
    error = error_of(state.record, example_r_unrobbed())
    assert (error.code, error.pointer) == ("illegal_rob", "/rob")
    assert error.detail == (
        "the turn-up is AC: the dealer (seat 0) must rob it (dealer_robs_ace is must), but no "
        "rob was recorded"
    )


def test_dealer_robs_ace_may_in_45():
    error = error_of(new_game("45", 3).record, example_r_unrobbed())
    assert (error.code, error.pointer) == ("illegal_rob", "/rob")
    result, _ = new_game("45", 3, rules={"dealer_robs_ace": "may"}).record(example_r_unrobbed())
    # No trump was played: 25 for the hand, no bonus.
    assert result.points == (0, 25, 0)
    assert result.best_trump is None


# --- target, trick_points, best_trump_bonus ------------------------------------------------------


def test_target():
    # Example J: seat 1 takes all five tricks, 25 from zero.
    _, after = new_game("25", 4).record(example_j())
    assert (after.finished, after.winner) == (True, 1)
    _, after = new_game("25", 4, rules={"target": 31}).record(example_j())
    assert after.totals == (0, 25, 0, 0)
    assert (after.finished, after.winner, after.double_stake) == (False, None, False)


def test_trick_points():
    # Example A in 45, 2 v 2: side 0 takes four tricks and the best trump, side 1 one trick.
    result, after = new_game("45", 4, sides=PAIRS).record(example_a())
    assert result.points == (25, 5)
    result, after = new_game("45", 4, sides=PAIRS, rules={"trick_points": 10}).record(example_a())
    assert result.points == (45, 10)
    assert result.reached == (4, None)
    assert (after.finished, after.winner) == (True, 0)


def test_best_trump_bonus_in_25():
    # Seats alone, example A: the best trump (5S) is seat 2's, in trick 5 (index 4).
    result, _ = new_game("25", 4).record(example_a())
    assert result.points == (10, 5, 10, 0)
    state = new_game("25", 4, rules={"best_trump_bonus": 5})
    result, _ = state.record(example_a())
    assert result.points == (10, 5, 15, 0)
    # A trick-winner entry must then say who played the best trump.
    error = error_of(state.record, winners_entry([2, 1, 0, 0, 2]))
    assert (error.code, error.pointer) == ("invalid_record", "/best_trump")
    result, _ = state.record(winners_entry([2, 1, 0, 0, 2], best=(2, 4)))
    assert result.points == (10, 5, 15, 0)


def test_best_trump_bonus_zero_in_45():
    state = new_game("45", 4, sides=PAIRS, rules={"best_trump_bonus": 0})
    result, _ = state.record(example_a())
    assert result.points == (20, 5)
    # Nothing scores for it, so a trick-winner entry may leave it out.
    result, _ = state.record(winners_entry([2, 1, 0, 0, 2]))
    assert result.points == (20, 5)
    assert result.best_trump is None


# --- game_end --------------------------------------------------------------------------------


def test_game_end_at_hand_end_in_25():
    # Side 0 (seats 0, 2) on 10 and side 1 on 20; example A gives them 20 and 5. At the trick
    # (default) side 1 reaches 25 in trick 2, wins, and the hand stops there; at the hand's end
    # all five tricks are played, both sides pass 25 and the higher total wins.
    state = new_game("25", 4, sides=PAIRS, totals=[10, 20], rules={"game_end": "at_hand_end"})
    result, after = state.record(example_a())
    assert result.points == (20, 5)
    assert after.totals == (30, 25)
    assert (after.finished, after.winner) == (True, 0)
    short = example_a()
    short["tricks"] = short["tricks"][:4]
    error = error_of(state.record, short)
    assert (error.code, error.pointer) == ("wrong_trick_count", "/tricks")
    default = new_game("25", 4, sides=PAIRS, totals=[10, 20])
    assert error_of(default.record, example_a()).code == "wrong_trick_count"
    two_tricks = example_a()
    two_tricks["tricks"] = two_tricks["tricks"][:2]
    result, after = default.record(two_tricks)
    assert result.reached == (None, 1)
    assert after.totals == (15, 25)
    assert (after.finished, after.winner) == (True, 1)


def test_game_end_at_trick_in_45():
    # Side 0 on 35. Trick 1: side 0 (40); trick 2: side 1 with the best trump (10); trick 3:
    # side 0, 45: the game ends there.
    state = new_game("45", 4, sides=PAIRS, totals=[35, 0], rules={"game_end": "at_trick"})
    record = winners_entry([2, 1, 0], best=(1, 1))
    result, after = state.record(record)
    assert result.points == (10, 10)
    assert result.reached == (2, None)
    assert (after.finished, after.winner) == (True, 0)
    error = error_of(state.record, winners_entry([2, 1, 0, 3, 1], best=(1, 1)))
    assert (error.code, error.pointer) == ("wrong_trick_count", "/trick_winners")
    assert error.detail == (
        "side 0 reached 45 in trick 3, where the game ends, but 5 tricks are recorded"
    )
    # The default counts at the end of the hand: five tricks.
    default = new_game("45", 4, sides=PAIRS, totals=[35, 0])
    assert error_of(default.record, record).code == "wrong_trick_count"
    _, after = default.record(winners_entry([2, 1, 0, 3, 1], best=(1, 1)))
    assert after.totals == (45, 20)
    assert after.winner == 0


# --- simultaneous_finish -----------------------------------------------------------------------


def test_simultaneous_finish_in_45():
    # Both sides on 40. Side 0 reaches 45 in trick 1, side 1 in trick 2 (its trick holds the
    # best trump) and ends higher, 60 to 50.
    record = winners_entry([0, 1, 1, 1, 0], best=(1, 1))
    outcomes = {}
    for mode in ("higher_total", "first_to_reach", "bidder_first"):
        state = new_game("45", 4, sides=PAIRS, totals=[40, 40], rules={"simultaneous_finish": mode})
        result, after = state.record(record)
        assert after.totals == (50, 60)
        assert result.reached == (0, 1)
        outcomes[mode] = after.winner
    # 45 has no bidder: bidder_first falls back on the higher total.
    assert outcomes == {"higher_total": 1, "first_to_reach": 0, "bidder_first": 1}


@pytest.mark.parametrize(
    ("mode", "finished", "winner"),
    [("bidder_first", True, 1), ("first_to_reach", True, 0), ("higher_total", False, None)],
)
def test_simultaneous_finish_in_auction_45(mode, finished, winner):
    # Side 0 on 110, side 1 on 100. Seat 1 bids 20 (the least a side on 100 may bid). Side 0
    # takes tricks 1 and 2: 120 after trick 2. Side 1 takes tricks 3 to 5 and the best trump
    # (trick 5): 20, the bid made, 120 after trick 5. Both on 120.
    state = new_game(
        "auction45", 4, sides=PAIRS, totals=[110, 100], rules={"simultaneous_finish": mode}
    )
    result, after = state.record(winners_entry([0, 2, 1, 3, 1], best=(1, 4), bid=(1, 20)))
    assert result.points == (10, 20)
    assert result.bid == BidResult(seat=1, amount=20, made=True)
    assert result.reached == (1, 4)
    assert after.totals == (120, 120)
    assert (after.finished, after.winner) == (finished, winner)


def test_simultaneous_finish_in_110():
    # All three on 100 but seat 2 (0), whose bid of 10 fails. Seat 0 reaches 110 in trick 3,
    # seat 1 in trick 4 and ends higher (120).
    record = winners_entry([1, 0, 0, 1, 1], best=(1, 4), trump="H", bid=(2, 10))
    winners = {}
    for mode in ("first_to_reach", "higher_total", "bidder_first"):
        state = new_game("110", 3, totals=[100, 100, 0], rules={"simultaneous_finish": mode})
        _, after = state.record(record)
        assert after.totals == (110, 120, -10)
        winners[mode] = after.winner
    # The bidder failed, so bidder_first falls back on the higher total.
    assert winners == {"first_to_reach": 0, "higher_total": 1, "bidder_first": 1}


# --- bids, jink_bid, made_thirty_scores, min_bid_at_100 ----------------------------------------


def test_made_thirty_scores():
    # Auction 45: side 1 bids 30 and takes all five tricks with the best trump: 30 points.
    record = winners_entry([1, 3, 1, 3, 1], best=(3, 1), bid=(1, 30))
    result, _ = new_game("auction45", 4, sides=PAIRS).record(record)
    assert result.points == (0, 60)
    state = new_game("auction45", 4, sides=PAIRS, rules={"made_thirty_scores": None})
    result, _ = state.record(record)
    assert result.points == (0, 30)
    state = new_game("auction45", 4, sides=PAIRS, rules={"made_thirty_scores": 45})
    assert state.record(record)[0].points == (0, 45)


def test_jink_bid_and_bids():
    # 55 with the bids 10 to 30 and no jink: 30 is an ordinary bid, made with 30 points.
    rules = {"bids": [10, 15, 20, 25, 30], "jink_bid": None}
    result, _ = new_game("55", 3, rules=rules).record(
        winners_entry([1] * 5, best=(1, 0), trump="H", bid=(1, 30))
    )
    assert result.points == (0, 30, 0)
    assert result.bid.made is True
    # By default 30 is not a bid of 55, and 60 is the jink.
    error = error_of(new_game("55", 3).record, winners_entry([1] * 5, best=(1, 0), bid=(1, 30)))
    assert (error.code, error.pointer) == ("illegal_bid", "/bid/amount")
    result, _ = new_game("55", 3).record(winners_entry([1] * 5, best=(1, 0), bid=(1, 60)))
    assert result.points == (0, 60, 0)
    # A jink of 40 instead: all five tricks score 40, fewer lose it.
    rules = {"bids": [10, 15, 20, 25, 40], "jink_bid": 40}
    state = new_game("55", 3, rules=rules)
    assert state.record(winners_entry([1] * 5, best=(1, 0), bid=(1, 40)))[0].points == (0, 40, 0)
    result, _ = state.record(winners_entry([1, 1, 1, 1, 0], best=(1, 0), bid=(1, 40)))
    assert result.points == (5, -40, 0)


def test_min_bid_at_100_in_110():
    # Default null: a side on 100 may bid 10. With 15, it may not.
    record = winners_entry([0, 1, 2, 0, 0], best=(0, 0), trump="H", bid=(0, 10))
    result, _ = new_game("110", 3, totals=[100, 0, 0]).record(record)
    assert result.points == (20, 5, 5)
    state = new_game("110", 3, totals=[100, 0, 0], rules={"min_bid_at_100": 15})
    error = error_of(state.record, record)
    assert (error.code, error.pointer) == ("illegal_bid", "/bid/amount")
    # A side below 100 still may.
    record["bid"] = {"seat": 1, "amount": 10}
    assert state.record(record)[0].points == (20, -10, 5)


# --- kitty and first_lead ----------------------------------------------------------------------


def example_s(*, first_lead_left_of_bidder: bool = False, deal: bool = True) -> dict:
    if first_lead_left_of_bidder:
        tricks = [
            ["2H", "2C", "5D"],
            ["JD", "3H", "3C"],
            ["AD", "4H", "4C"],
            ["KD", "6H", "6C"],
            ["QD", "7H", "7C"],
        ]
    else:
        tricks = [
            ["5D", "2H", "2C"],
            ["JD", "3H", "3C"],
            ["AD", "4H", "4C"],
            ["KD", "6H", "6C"],
            ["QD", "7H", "7C"],
        ]
    record = {
        "dealer": 0,
        "bidding": [
            {"seat": 1, "call": "20"},
            {"seat": 2, "call": "pass"},
            {"seat": 0, "call": "pass"},
        ],
        "kitty": ["AD", "KD", "QD"],
        "discard": ["8S", "9S", "10S"],
        "trump": "D",
        "tricks": tricks,
    }
    if deal:
        record["deal"] = [
            ["2C", "3C", "4C", "6C", "7C"],
            ["5D", "JD", "8S", "9S", "10S"],
            ["2H", "3H", "4H", "6H", "7H"],
        ]
    return record


@pytest.mark.parametrize("deal", [True, False])
def test_kitty_of_three_in_110(deal):
    state = new_game("110", 3, rules={"kitty": 3})
    result, _ = state.record(example_s(deal=deal))
    assert result.trick_winners == (1, 1, 1, 1, 1)
    assert result.bid == BidResult(seat=1, amount=20, made=True)
    assert result.points == (0, 30, 0)
    # The default kitty is five cards, and so are the discards.
    error = error_of(new_game("110", 3).record, example_s(deal=deal))
    assert (error.code, error.pointer) == ("wrong_card_count", "/kitty")


@pytest.mark.parametrize("deal", [True, False])
def test_first_lead_left_of_the_bidder_in_110(deal):
    rules = {"kitty": 3, "first_lead": "left_of_bidder"}
    record = example_s(first_lead_left_of_bidder=True, deal=deal)
    result, _ = new_game("110", 3, rules=rules).record(record)
    assert result.trick_winners == (1, 1, 1, 1, 1)
    assert result.points == (0, 30, 0)
    # Left of the dealer (the default), seat 1 leads trick 1: with the deal, 2H is seat 2's;
    # without it, the plays shift round and the dealer plays AD, a kitty card the bidder took.
    error = error_of(new_game("110", 3, rules={"kitty": 3}).record, record)
    assert error.code == "duplicate_card"
    if deal:
        assert error.pointer == "/tricks/0/0"
        assert error.detail == (
            "seat 1 played 2H to trick 1, but 2H belongs to seat 2 (at /deal/2/0)"
        )
    else:
        assert error.pointer == "/tricks/2/0"
        assert error.detail == (
            "seat 0 played AD to trick 3, but it was in the kitty, which the bidder (seat 1) took"
        )

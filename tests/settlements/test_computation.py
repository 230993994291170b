"""settlements.computation without a database: prizes by place (ties, remainder), nets, and the
difference to settle, with a bounded Hypothesis property that every amount is kept and the
transfers clear exactly what is owed."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from settlements.computation import (
    CLUB,
    nets_of,
    prize_shares,
    settle_difference,
    settled_by,
    split_among,
)


def test_prizes_follow_the_places():
    assert prize_shares(1000, [50, 30, 20], {11: 1, 12: 2, 13: 3, 14: 4}) == {
        11: 500,
        12: 300,
        13: 200,
    }


def test_a_tie_shares_the_places_it_occupies_and_the_remainder_goes_from_the_top():
    # 1001 pot: places 500, 300, 200 (1 unit left by the floors). 12 and 13 tie second: they
    # share 300 + 200 = 500, 250 each. The left unit goes to the first prize winner.
    assert prize_shares(1001, [50, 30, 20], {11: 1, 12: 2, 13: 2, 14: 4}) == {
        11: 501,
        12: 250,
        13: 250,
    }
    # Three tie first on 100 at [60, 40]: 100 shared by three is 33 each, 1 left: lowest id.
    assert prize_shares(100, [60, 40], {5: 1, 6: 1, 7: 1}) == {5: 34, 6: 33, 7: 33}


def test_places_nobody_occupies_and_the_rest_to_100_stay_with_the_club():
    shares = prize_shares(1000, [50, 30, 20], {11: 1, 12: 2})
    assert shares == {11: 500, 12: 300}
    assert nets_of(stakes={}, fees={11: 500, 12: 500}, prizes=shares) == {
        11: 0,
        12: -200,
        CLUB: 200,
    }


def test_a_team_prize_is_split_evenly_extra_units_to_the_lowest_ids():
    assert split_among(101, [9, 3]) == {3: 51, 9: 50}


def test_the_difference_after_a_correction_moves_only_what_changed():
    first = {1: 40, 2: -40}
    _, transfers = settle_difference(first, {})
    assert transfers == [(2, 1, 40)]
    corrected = {1: -40, 2: 40}  # the winner changed
    difference, transfers = settle_difference(corrected, settled_by(transfers))
    assert difference == {1: -80, 2: 80}
    assert transfers == [(1, 2, 80)]


amounts = st.integers(min_value=-5000, max_value=5000)


@settings(max_examples=150, deadline=None)
@given(
    stakes=st.lists(amounts, min_size=0, max_size=9),
    fee=st.integers(min_value=0, max_value=2000),
    split=st.lists(st.integers(min_value=1, max_value=40), max_size=4).filter(
        lambda split: sum(split) <= 100
    ),
    ranks=st.lists(st.integers(min_value=1, max_value=6), min_size=10, max_size=10),
    correction=st.lists(amounts, min_size=10, max_size=10),
)
def test_nets_sum_to_zero_and_transfers_clear_them_in_whole_units(
    stakes, fee, split, ranks, correction
):
    players = list(range(1, 11))
    # Stakes sum to zero, as a ledger's do: the last player takes the opposite of the rest.
    stake_of = dict(zip(players, stakes, strict=False))
    stake_of[10] = stake_of.get(10, 0) - sum(stake_of.values())
    fees = {player: fee for player in players if fee}
    prizes = prize_shares(sum(fees.values()), split, dict(zip(players, ranks, strict=True)))
    assert sum(prizes.values()) <= sum(fees.values())
    nets = nets_of(stakes=stake_of, fees=fees, prizes=prizes)
    assert sum(nets.values()) == 0
    difference, transfers = settle_difference(nets, {})
    assert all(isinstance(amount, int) and amount > 0 for _, _, amount in transfers)
    assert settled_by(transfers) == {party: net for party, net in difference.items()}
    assert len(transfers) <= max(0, len(difference) - 1)
    # A correction moves the stakes: the new version settles only the difference, and the two
    # versions' transfers together clear the corrected nets.
    changed = defaultdict(int, stake_of)
    for player, delta in zip(players, correction, strict=True):
        changed[player] += delta
    changed[10] -= sum(correction)
    corrected = nets_of(stakes=dict(changed), fees=fees, prizes=prizes)
    _, more = settle_difference(corrected, settled_by(transfers))
    together = settled_by(transfers + more)
    assert {party: amount for party, amount in together.items() if amount} == {
        party: amount for party, amount in corrected.items() if amount
    }

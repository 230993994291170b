"""``games.ledger.fewest_transfers``: the fewest transfers that clear a set of balances, without a
database.

Worked examples with exact transfer lists (among them balances where paying the largest debt to
the largest credit, the old greedy, needs more transfers), the heuristic used beyond
``EXACT_SETTLEMENT_LIMIT``, and properties: every answer clears the balances exactly with at
most n - 1 transfers, and for small inputs its count is the minimum found by brute force over
every partition of the players.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ledger import (
    EXACT_SETTLEMENT_LIMIT,
    _settle_group,
    fewest_transfers,
    zero_sum_groups,
)


def largest_debtor_pays_largest_creditor(balances: dict[int, int]) -> list[tuple[int, int, int]]:
    """The old greedy over all balances at once (one group), for comparison."""
    return _settle_group(sorted(balances.items()))


def remaining_after(balances: dict[int, int], transfers) -> dict[int, int]:
    remaining = dict(balances)
    for payer, payee, amount in transfers:
        remaining[payer] += amount
        remaining[payee] -= amount
    return remaining


# Worked examples --------------------------------------------------------------------------------


def test_nobody_owes_anybody():
    assert fewest_transfers({}) == []
    assert fewest_transfers({1: 0, 2: 0}) == []


def test_exact_opposites_pay_each_other():
    assert fewest_transfers({1: -5, 2: -3, 3: 3, 4: 5}) == [(1, 4, 5), (2, 3, 3)]


def test_a_pair_hidden_from_the_greedy_saves_a_transfer():
    # Ann -5, Bill -4, Cait +4, Dan +3, Eve +2: Bill pays Cait, Ann pays Dan and Eve.
    balances = {1: -5, 2: -4, 3: 4, 4: 3, 5: 2}

    assert fewest_transfers(balances) == [(2, 3, 4), (1, 4, 3), (1, 5, 2)]
    assert largest_debtor_pays_largest_creditor(balances) == [
        (1, 3, 4),
        (1, 4, 1),
        (2, 4, 2),
        (2, 5, 2),
    ]


def test_two_triples_without_any_opposites_take_four_transfers_where_the_greedy_takes_five():
    balances = {1: -9, 2: -9, 3: 4, 4: 4, 5: 5, 6: 5}

    assert fewest_transfers(balances) == [(1, 5, 5), (2, 6, 5), (1, 3, 4), (2, 4, 4)]
    assert largest_debtor_pays_largest_creditor(balances) == [
        (1, 5, 5),
        (1, 6, 4),
        (2, 6, 1),
        (2, 3, 4),
        (2, 4, 4),
    ]


def test_one_group_is_settled_largest_debt_first():
    assert fewest_transfers({1: -30, 2: 10, 3: 20, 4: 0}) == [(1, 3, 20), (1, 2, 10)]
    assert fewest_transfers({1: -10, 2: -10, 3: 20}) == [(1, 3, 10), (2, 3, 10)]


def test_the_answer_does_not_depend_on_the_order_of_the_balances():
    balances = {6: 5, 3: 4, 1: -9, 5: 5, 2: -9, 4: 4}

    assert fewest_transfers(balances) == fewest_transfers(dict(sorted(balances.items())))
    assert fewest_transfers(balances) == [(1, 5, 5), (2, 6, 5), (1, 3, 4), (2, 4, 4)]


def test_ties_between_equal_amounts_go_to_the_lowest_ids():
    assert fewest_transfers({4: -5, 3: -5, 2: 5, 1: 5}) == [(3, 1, 5), (4, 2, 5)]


def test_balances_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(ValueError, match="balances must sum to zero to be settled; they sum to 2"):
        fewest_transfers({1: -3, 2: 5})


def test_the_heuristic_misses_groups_of_four_that_the_exact_partition_finds():
    # {8, -5, -5, 2} and {2, -12, -1, 11} sum to zero; no three balances do.
    balances = [(1, 8), (2, -5), (3, 2), (4, 2), (5, -5), (6, -12), (7, -1), (8, 11)]

    assert zero_sum_groups(balances) == [
        [(1, 8), (2, -5), (3, 2), (5, -5)],
        [(4, 2), (6, -12), (7, -1), (8, 11)],
    ]
    assert zero_sum_groups(balances, exact_limit=0) == [balances]


def test_the_heuristic_takes_triples_in_id_order_then_settles_the_rest_as_one_group():
    balances = [(1, -9), (2, 4), (3, 5), (4, -7), (5, 3), (6, 4), (7, -2), (8, -1), (9, 3)]

    assert zero_sum_groups(balances, exact_limit=0) == [
        [(1, -9), (2, 4), (3, 5)],
        [(4, -7), (5, 3), (6, 4)],
        [(7, -2), (8, -1), (9, 3)],
    ]


def test_opposites_are_paired_before_the_limit_is_counted():
    # 24 balances: 8 pairs of opposites, and the 8 balances above that need the exact partition.
    balances = {100 + index: 100 * index for index in range(1, 9)}
    balances.update({200 + index: -100 * index for index in range(1, 9)})
    balances.update({1: 8, 2: -5, 3: 2, 4: 2, 5: -5, 6: -12, 7: -1, 8: 11})
    assert len(balances) > EXACT_SETTLEMENT_LIMIT

    assert fewest_transfers(balances) == [
        *[(200 + index, 100 + index, 100 * index) for index in range(8, 0, -1)],
        (6, 8, 11),
        (2, 1, 5),
        (5, 1, 3),
        (5, 3, 2),
        (6, 4, 1),
        (7, 4, 1),
    ]


# Properties -------------------------------------------------------------------------------------


SMALL_AMOUNTS = st.integers(min_value=-60, max_value=60)


def zero_sum_balances(*, max_size: int, amounts=SMALL_AMOUNTS):
    """Player ids 1..n with balances summing to zero (the last one makes up the difference)."""

    def close(values: list[int]) -> dict[int, int]:
        balances = {index + 1: value for index, value in enumerate(values)}
        balances[len(values) + 1] = -sum(values)
        return balances

    return st.lists(amounts, min_size=0, max_size=max_size - 1).map(close)


def check_clears(balances: dict[int, int], transfers) -> None:
    nonzero = [player for player, net in balances.items() if net]
    assert all(amount > 0 for _, _, amount in transfers)
    # Debtors only pay and creditors only receive.
    assert all(balances[payer] < 0 < balances[payee] for payer, payee, _ in transfers)
    assert set(remaining_after(balances, transfers).values()) <= {0}
    assert len(transfers) <= max(len(nonzero) - 1, 0)


def most_zero_sum_groups(amounts: tuple[int, ...]) -> int:
    """Brute force: the most blocks of any partition of ``amounts`` into zero-sum blocks."""
    if not amounts:
        return 0
    first, others = amounts[0], amounts[1:]
    best = 0
    for choice in range(1 << len(others)):
        block = [first] + [others[i] for i in range(len(others)) if choice >> i & 1]
        if sum(block) == 0:
            rest = tuple(others[i] for i in range(len(others)) if not choice >> i & 1)
            best = max(best, 1 + most_zero_sum_groups(rest))
    return best


@settings(max_examples=300)
@given(zero_sum_balances(max_size=8, amounts=st.integers(min_value=-6, max_value=6)))
def test_small_settlements_take_the_fewest_transfers_there_are(balances):
    transfers = fewest_transfers(balances)

    check_clears(balances, transfers)
    amounts = tuple(net for net in balances.values() if net)
    assert len(transfers) == len(amounts) - most_zero_sum_groups(amounts)


@settings(max_examples=150, deadline=None)
@given(zero_sum_balances(max_size=24))
def test_every_settlement_clears_the_balances_in_at_most_n_minus_one_transfers(balances):
    check_clears(balances, fewest_transfers(balances))


@settings(max_examples=150)
@given(zero_sum_balances(max_size=40, amounts=st.integers(min_value=-(10**9), max_value=10**9)))
def test_the_heuristic_groups_are_a_partition_into_zero_sum_groups(balances):
    nonzero = sorted((player, net) for player, net in balances.items() if net)

    groups = zero_sum_groups(nonzero, exact_limit=0)

    assert sorted(balance for group in groups for balance in group) == nonzero
    assert all(group and sum(net for _, net in group) == 0 for group in groups)
    transfers = [transfer for group in groups for transfer in _settle_group(group)]
    check_clears(balances, transfers)

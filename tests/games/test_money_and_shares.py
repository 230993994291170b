"""Money strings and stake shares, without a database."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ledger import fewest_transfers, stake_shares
from games.money import InvalidAmount, decimal_string_to_minor, minor_to_decimal_string


@pytest.mark.parametrize(
    ("amount", "exponent", "text"),
    [
        (20, 2, "0.20"),
        (-5, 2, "-0.05"),
        (1234, 2, "12.34"),
        (0, 2, "0.00"),
        (300, 0, "300"),
        (7, 3, "0.007"),
    ],
)
def test_minor_units_as_text_and_back(amount, exponent, text):
    assert minor_to_decimal_string(amount, exponent) == text
    assert decimal_string_to_minor(text, exponent, allow_negative=True) == amount


@pytest.mark.parametrize(
    ("text", "exponent", "message"),
    [
        ("0.205", 2, "more than 2 decimal place(s)"),
        ("1.5", 0, "more than 0 decimal place(s)"),
        ("-0.20", 2, "may not be negative"),
        ("abc", 2, "not a decimal amount"),
        ("NaN", 2, "not a decimal amount"),
        ("Infinity", 2, "not a decimal amount"),
        (0.2, 2, "decimal string"),
        # One rule for typed amounts (games.money): plain digits only. Python's Decimal reads
        # all of these; none of them is an amount a person means.
        ("1e5", 2, "not a decimal amount"),
        ("1E+2", 2, "not a decimal amount"),
        ("1_000", 2, "not a decimal amount"),
        ("1,000", 2, "not a decimal amount"),
        ("+1", 2, "not a decimal amount"),
        (".5", 2, "not a decimal amount"),
        ("1.", 2, "not a decimal amount"),
        ("\u0661", 2, "not a decimal amount"),  # an Arabic-Indic digit one
        ("1e999999999", 2, "not a decimal amount"),
        ("1" * 65, 2, "not a decimal amount"),
        ("10000000000", 2, "too large"),
        ("0.001", 2, "more than 2 decimal place(s)"),
        # More digits than the default decimal precision: not rounded into a whole amount.
        ("1.000000000000000000000000000001", 2, "more than 2 decimal place(s)"),
    ],
)
def test_amounts_that_are_not_money_are_refused(text, exponent, message):
    with pytest.raises(InvalidAmount, match=message.replace("(", r"\(").replace(")", r"\)")):
        decimal_string_to_minor(text, exponent)


def test_whole_amounts_and_trailing_zeros_are_accepted():
    assert decimal_string_to_minor("2", 2) == 200
    assert decimal_string_to_minor(" 0.200 ", 2) == 20
    assert decimal_string_to_minor("0.2000000000000000000000000000000000", 2) == 20
    assert decimal_string_to_minor("-0", 2) == 0
    assert decimal_string_to_minor("9999999999.99", 2) == 999_999_999_999
    assert decimal_string_to_minor("1000", 2) == 100_000


def seats(*sides):
    """(seat, player id, side) triples: player id = 100 + seat."""
    return [(seat, 100 + seat, side) for seat, side in enumerate(sides)]


def test_every_loser_pays_the_stake_and_the_winners_share_it():
    assert stake_shares(
        seats=seats(0, 1, 0, 1), winner_side=1, stake_minor=20, double_stake=False
    ) == {100: -20, 101: 20, 102: -20, 103: 20}


def test_double_stakes_double_what_each_loser_pays():
    # 2 v 2 v 2, side 0 wins with double stakes: four losers pay 2 each, two winners get 4.
    shares = stake_shares(
        seats=seats(0, 1, 2, 0, 1, 2), winner_side=0, stake_minor=1, double_stake=True
    )
    assert shares == {100: 4, 101: -2, 102: -2, 103: 4, 104: -2, 105: -2}


def test_an_indivisible_minor_unit_stays_with_the_first_winner_in_seat_order():
    # Equal sides always divide the pot evenly ((sides - 1) x size x stake over size winners),
    # so the rule is checked on uneven sides: three losers pay 1 each, four winners share 3.
    shares = stake_shares(
        seats=seats(1, 0, 1, 0, 1, 0, 1), winner_side=1, stake_minor=1, double_stake=False
    )
    assert shares == {100: 3, 101: -1, 102: 0, 103: -1, 104: 0, 105: -1, 106: 0}
    # Seat order decides, not player ids.
    shares = stake_shares(
        seats=[(1, 7, 0), (0, 9, 0), (2, 8, 1)], winner_side=0, stake_minor=3, double_stake=False
    )
    assert shares == {9: 2, 7: 1, 8: -3}


@pytest.mark.parametrize(
    ("sides", "winner", "stake", "double", "expected"),
    [
        # 3 losers x 0.25 among 2 winners: 0.75 does not halve; the odd cent goes to seat 1,
        # the first winner in seat order.
        ((0, 1, 0, 1, 0), 1, 25, False, {100: -25, 101: 38, 102: -25, 103: 37, 104: -25}),
        # 3 losers x 0.10 among 2 winners: 0.30 halves exactly.
        ((1, 0, 1, 0, 1), 0, 10, False, {100: -10, 101: 15, 102: -10, 103: 15, 104: -10}),
        # 1 loser x 0.10 among 3 winners: 0.04, 0.03, 0.03.
        ((0, 0, 1, 0), 0, 10, False, {100: 4, 101: 3, 102: -10, 103: 3}),
        # The same, doubled: the loser pays 0.20; both odd cents go to the first winner.
        ((0, 0, 1, 0), 0, 10, True, {100: 8, 101: 6, 102: -20, 103: 6}),
        # 2 losers x 0.01 among 3 winners: two cents cannot be shared, both go to seat 2.
        ((1, 1, 0, 0, 0), 0, 1, False, {100: -1, 101: -1, 102: 2, 103: 0, 104: 0}),
    ],
)
def test_indivisible_pots_exactly(sides, winner, stake, double, expected):
    shares = stake_shares(
        seats=seats(*sides), winner_side=winner, stake_minor=stake, double_stake=double
    )
    assert shares == expected
    assert sum(shares.values()) == 0


def test_nothing_is_due_without_a_stake_or_a_winner():
    assert (
        stake_shares(seats=seats(0, 1), winner_side=None, stake_minor=20, double_stake=False) == {}
    )
    assert (
        stake_shares(seats=seats(0, 1), winner_side=0, stake_minor=None, double_stake=False) == {}
    )
    assert stake_shares(seats=seats(0, 1), winner_side=0, stake_minor=0, double_stake=False) == {}


@given(
    sides=st.lists(st.integers(min_value=0, max_value=4), min_size=2, max_size=10),
    winner=st.integers(min_value=0, max_value=4),
    stake=st.integers(min_value=1, max_value=10_000),
    double=st.booleans(),
)
def test_shares_always_sum_to_zero_and_losers_pay_the_stake(sides, winner, stake, double):
    shares = stake_shares(
        seats=seats(*sides), winner_side=winner, stake_minor=stake, double_stake=double
    )
    assert sum(shares.values()) == 0
    winners = [100 + seat for seat, side in enumerate(sides) if side == winner]
    losers = [100 + seat for seat, side in enumerate(sides) if side != winner]
    if not winners or not losers:
        assert shares == {}
        return
    due = stake * (2 if double else 1)
    assert all(shares[player] == -due for player in losers)
    share, remainder = divmod(due * len(losers), len(winners))
    assert [shares[player] for player in winners] == [share + remainder] + [share] * (
        len(winners) - 1
    )


def test_fewest_transfers_pays_the_largest_debts_first():
    assert fewest_transfers({1: -30, 2: 10, 3: 20, 4: 0}) == [(1, 3, 20), (1, 2, 10)]
    assert fewest_transfers({1: -10, 2: -10, 3: 20}) == [(1, 3, 10), (2, 3, 10)]
    assert fewest_transfers({}) == []


@settings(deadline=None)  # an exact property, not a timing: a loaded machine must not fail it
@given(st.lists(st.integers(min_value=-500, max_value=500), min_size=1, max_size=12))
def test_fewest_transfers_clears_every_balance(amounts):
    balances = {player: amount for player, amount in enumerate(amounts)}
    balances[len(amounts)] = -sum(amounts)
    remaining = dict(balances)
    for payer, payee, amount in fewest_transfers(balances):
        assert amount > 0
        remaining[payer] += amount
        remaining[payee] -= amount
    assert set(remaining.values()) <= {0}
    assert len(fewest_transfers(balances)) <= max(len([a for a in balances.values() if a]) - 1, 0)

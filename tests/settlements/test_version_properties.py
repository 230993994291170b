"""Properties of settle-up versions over random nights and events, without a database.

A night here is random stakes between players (games won and lost), entry fees paid at the door
(cash, card) or owed, a prize split over places with ties, under either club rule (the pot at
the door, or everything between players). Then any sequence of corrections (new results, fees
marked paid later, another prize split) and paid marks on open transfers. Each correction stores
a version as ``settlements.settle_up.settle_event`` does: the targets of
``computation.targets_of``, the open transfers of ``computation.plan_transfers`` counting every
transfer already paid, the earlier open transfers superseded, the paid ones kept.

Properties, after every version:
- it balances to zero: the transfers paid and the version's open ones move exactly the targets,
  and the targets sum to zero;
- paid transfers never change (none is superseded, dropped or altered);
- no two open transfers join the same two parties, in either direction;
- no entry fee or prize goes from player to player under the pot at the door (the club is a
  party to every ``pot`` transfer and to no ``stakes`` one);
and at the end, once every open transfer is paid, what each party paid and received over all
versions equals its final net (stakes + prize - fee, plus the fee it paid at the door).
"""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from settlements.computation import (
    ALL,
    CLUB,
    POT,
    STAKES,
    nets_of,
    plan_transfers,
    prize_groups,
    prize_shares,
    settled_by,
    targets_of,
)

PLAYERS = st.integers(min_value=2, max_value=6)


@st.composite
def night_states(draw, players: int):
    """One state of a night: stakes, fees with how they were taken, places, prize split."""
    ids = list(range(1, players + 1))
    stakes: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = dict.fromkeys(ids, 0)
    for _ in range(draw(st.integers(min_value=0, max_value=6))):
        winner, loser = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=2, unique=True))
        amount = draw(st.sampled_from([20, 40, 50, 100]))
        stakes[winner] += amount
        stakes[loser] -= amount
        wins[winner] += 1
    fee = draw(st.sampled_from([0, 250, 500]))
    fees = {player: fee for player in ids if fee}
    statuses = {player: draw(st.sampled_from(["cash", "card", "owed"])) for player in fees}
    # Players level on games won share a place (as a night's places are made).
    places = {
        player: 1 + sum(1 for other in wins.values() if other > count)
        for player, count in wins.items()
    }
    split = draw(
        st.lists(st.integers(min_value=1, max_value=60), max_size=3).filter(
            lambda percentages: sum(percentages) <= 100
        )
    )
    return {
        "stakes": dict(stakes),
        "fees": fees,
        "statuses": statuses,
        "places": places,
        "split": split,
    }


def _targets(state: dict, between_players: bool) -> dict:
    pot = sum(state["fees"].values())
    prizes = prize_shares(pot, state["split"], state["places"])
    paid_at_door = (
        {}
        if between_players
        else {
            player: fee
            for player, fee in state["fees"].items()
            if state["statuses"][player] in ("cash", "card")
        }
    )
    return (
        targets_of(
            stakes=state["stakes"],
            fees=state["fees"],
            paid_at_door=paid_at_door,
            prizes=prizes,
            between_players=between_players,
        ),
        prizes,
        paid_at_door,
    )


def _totals(targets: dict) -> dict[int, int]:
    totals: dict[int, int] = defaultdict(int)
    for amounts in targets.values():
        for party, amount in amounts.items():
            totals[party] += amount
    return {party: amount for party, amount in totals.items() if amount}


def _nonzero(amounts: dict[int, int]) -> dict[int, int]:
    return {party: amount for party, amount in amounts.items() if amount}


@settings(max_examples=150, deadline=None)
@given(data=st.data(), players=PLAYERS, between_players=st.booleans())
def test_versions_balance_keep_paid_transfers_and_never_join_a_pair_twice(
    data, players, between_players
):
    state = data.draw(night_states(players))
    # Every transfer ever stored: [payer, payee, amount, kind, paid, superseded].
    stored: list[list] = []
    final = None
    for _step in range(data.draw(st.integers(min_value=1, max_value=5))):
        targets, prizes, paid_at_door = _targets(state, between_players)
        paid_before = [tuple(transfer) for transfer in stored if transfer[4]]
        paid = [(payer, payee, amount) for payer, payee, amount, *_ in paid_before]
        planned = plan_transfers(targets, paid)
        for transfer in stored:  # the new version supersedes every transfer still open
            if not transfer[4]:
                transfer[5] = True
        stored.extend(
            [payer, payee, amount, kind, False, False] for payer, payee, amount, kind in planned
        )

        # Paid transfers never change.
        assert [tuple(transfer) for transfer in stored if transfer[4]] == paid_before
        assert not any(transfer[4] and transfer[5] for transfer in stored)
        # The version balances: paid + open move exactly the targets, which sum to zero.
        open_now = [transfer for transfer in stored if not transfer[4] and not transfer[5]]
        moved = settled_by(paid + [(payer, payee, amount) for payer, payee, amount, *_ in open_now])
        assert _nonzero(moved) == _totals(targets)
        assert sum(_totals(targets).values()) == 0
        # Never two open transfers between the same two parties, nor one each way.
        pairs = [frozenset((payer, payee)) for payer, payee, *_ in open_now]
        assert len(pairs) == len(set(pairs))
        assert all(amount > 0 and payer != payee for payer, payee, amount, *_ in open_now)
        # Under the pot at the door, fees and prizes go only between a player and the club.
        for payer, payee, _amount, kind, *_ in open_now:
            if between_players:
                assert kind == ALL
            else:
                assert kind == (POT if CLUB in (payer, payee) else STAKES)
                assert (CLUB in (payer, payee)) == (kind == POT)
        final = (state, prizes, paid_at_door)

        # Then: some open transfers paid, and a correction (new results, fees paid later, ...).
        for transfer in open_now:
            if data.draw(st.booleans()):
                transfer[4] = True
        corrected = data.draw(night_states(players))
        corrected["statuses"] = {
            player: (
                state["statuses"].get(player, status)
                if state["statuses"].get(player) in ("cash", "card")
                else status
            )
            for player, status in corrected["statuses"].items()
        }
        state = corrected if data.draw(st.booleans()) else state

    # Everything still open is paid: each party's paid and received over all versions is its
    # final net (and, for a player, plus the fee they paid at the door; the club less it).
    last_state, prizes, paid_at_door = final
    for transfer in stored:
        if not transfer[4] and not transfer[5]:
            transfer[4] = True
    received = settled_by(
        [(payer, payee, amount) for payer, payee, amount, _kind, paid, _ in stored if paid]
    )
    nets = nets_of(stakes=last_state["stakes"], fees=last_state["fees"], prizes=prizes)
    expected = {player: net + paid_at_door.get(player, 0) for player, net in nets.items()}
    expected[CLUB] = nets.get(CLUB, 0) - sum(paid_at_door.values())
    assert _nonzero(received) == _nonzero(expected)


@settings(max_examples=200, deadline=None)
@given(
    pot=st.integers(min_value=0, max_value=100_000),
    split=st.lists(st.integers(min_value=1, max_value=100), max_size=5).filter(
        lambda percentages: sum(percentages) <= 100
    ),
    places=st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=8),
)
def test_players_level_share_the_places_they_span(pot, split, places):
    by_key = {index + 1: place for index, place in enumerate(places)}
    groups = prize_groups(pot, split, by_key)
    spanned = [place for group in groups for place in range(group["first"], group["last"] + 1)]
    assert spanned == list(range(1, len(spanned) + 1))  # places in order, none twice
    for group in groups:
        assert group["percent"] == sum(split[group["first"] - 1 : group["last"]])
        amounts = list(group["shares"].values())
        assert max(amounts) - min(amounts) <= 1  # level players share evenly (a unit at most)
    occupied = sum(group["percent"] for group in groups)
    assert sum(prize_shares(pot, split, by_key).values()) == pot * occupied // 100


def test_mary_and_tom_share_first_and_second():
    # 16 players at €5: an €80 pot at 50/30/20; Mary (1) and Tom (2) level on top.
    groups = prize_groups(8000, [50, 30, 20], {1: 1, 2: 1, 3: 3, 4: 4})
    assert groups == [
        {"first": 1, "last": 2, "percent": 80, "keys": [1, 2], "shares": {1: 3200, 2: 3200}},
        {"first": 3, "last": 3, "percent": 20, "keys": [3], "shares": {3: 1600}},
    ]

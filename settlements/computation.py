"""What an event's settle-up comes to: prizes by place, nets, and the difference to settle.

What it does (pure functions, no database): ``prize_shares`` splits a prize pool by place
(percentages per place, ties sharing evenly), ``nets_of`` adds each party's stakes, prize and
entry fee into one net, and ``settle_difference`` turns what is still owed (the nets minus what
earlier versions' transfers already move) into the fewest transfers (``games.ledger.settle``).

What it does not do: read rows (``settlements.services`` gathers the stakes, fees and places) or
round anything away: every minor unit of every input is in some output.

Terms:
- *place*: 1 = best. Entrants are taken in rank order; ``k`` entrants tied on one rank occupy
  the next ``k`` places and share the amounts of those places evenly.
- *remainder rule*: each place's amount is ``pot * percentage // 100``; a tied group's amount is
  divided by its size, rounded down. The minor units these two roundings leave over go one at a
  time to the prize winners in order of place, then of id, from the top, so the prizes always sum
  to ``pot * (percentages of the places occupied) // 100``. Percentages of places nobody occupies
  (fewer entrants than places), and the rest up to 100 %, stay with the club.
- *the club*: the party with key ``CLUB`` (0; player ids start at 1): it receives entry fees it
  keeps and pays out nothing else.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from games.ledger import EXACT_SETTLEMENT_LIMIT, settle

CLUB = 0


def prize_shares(
    pot: int, percentages: list[int], ranks: dict[int, int]
) -> dict[int, int]:
    """Entrant key -> prize in minor units; ``ranks``: entrant key -> rank (1 = best)."""
    if pot <= 0 or not percentages or not ranks:
        return {}
    place_amounts = [pot * percentage // 100 for percentage in percentages]
    by_rank: dict[int, list[int]] = defaultdict(list)
    for key, rank in ranks.items():
        by_rank[rank].append(key)
    shares: dict[int, int] = {}
    order: list[tuple[int, int]] = []  # (place, key) of every prize winner
    occupied_percent = 0
    next_place = 0  # 0-based: a tied group occupies the next len(group) places, whatever its rank
    for rank in sorted(by_rank):
        keys = sorted(by_rank[rank])
        places = range(next_place, min(next_place + len(keys), len(percentages)))
        next_place += len(keys)
        if not places:
            continue
        occupied_percent += sum(percentages[index] for index in places)
        amount = sum(place_amounts[index] for index in places)
        for key in keys:
            shares[key] = amount // len(keys)
            order.append((rank, key))
    target = pot * occupied_percent // 100
    leftover = target - sum(shares.values())
    order.sort()
    index = 0
    while leftover > 0 and order:
        shares[order[index % len(order)][1]] += 1
        leftover -= 1
        index += 1
    return {key: amount for key, amount in shares.items() if amount}


def split_among(amount: int, members: list[int]) -> dict[int, int]:
    """A team's prize shared by its members (player ids): evenly, extra units to the lowest ids."""
    members = sorted(members)
    if not members:
        return {}
    share, extra = divmod(amount, len(members))
    return {member: share + (1 if index < extra else 0) for index, member in enumerate(members)}


def nets_of(
    *, stakes: dict[int, int], fees: dict[int, int], prizes: dict[int, int]
) -> dict[int, int]:
    """Party -> net (+ receives): stakes + prize - fee; the club gets the fees nobody won."""
    nets: dict[int, int] = defaultdict(int)
    for player, amount in stakes.items():
        nets[player] += amount
    for player, amount in prizes.items():
        nets[player] += amount
    for player, amount in fees.items():
        nets[player] -= amount
    kept = sum(fees.values()) - sum(prizes.values())
    if kept:
        nets[CLUB] += kept
    return dict(nets)


def settled_by(transfers: list[tuple[int, int, int]]) -> dict[int, int]:
    """What ``(payer, payee, amount)`` transfers already move: party -> net received."""
    moved: dict[int, int] = defaultdict(int)
    for payer, payee, amount in transfers:
        moved[payer] -= amount
        moved[payee] += amount
    return dict(moved)


def settle_difference(
    nets: dict[int, int], settled: dict[int, int]
) -> tuple[dict[int, int], list[tuple[int, int, int]]]:
    """``(difference, transfers)``: what is still owed per party, and the fewest transfers
    clearing it (exact up to ``EXACT_SETTLEMENT_LIMIT`` balances, see ``games.ledger``)."""
    parties = set(nets) | set(settled)
    difference = {
        party: nets.get(party, 0) - settled.get(party, 0) for party in sorted(parties)
    }
    difference = {party: amount for party, amount in difference.items() if amount}
    return difference, settle(difference)


def fingerprint_of(nets: dict[int, int]) -> str:
    body = sorted((party, amount) for party, amount in nets.items() if amount)
    return hashlib.sha256(json.dumps(body).encode()).hexdigest()


EXACTNESS = (
    f"fewest transfers exactly when at most {EXACT_SETTLEMENT_LIMIT} balances remain once exact "
    "opposites are paired; beyond, disjoint zero-sum triples then a greedy pass (never more than "
    "n - 1 transfers for n balances)"
)

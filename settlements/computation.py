"""What an event's settle-up comes to: prizes by place, nets, and the transfers still to make.

What it does (pure functions, no database): ``prize_groups`` / ``prize_shares`` split a prize
pool by place (percentages per place, entrants sharing a place sharing the amounts of the places
they span), ``nets_of`` adds each party's stakes, prize and entry fee into one net,
``targets_of`` says what each party is still to receive through transfers (the pot at the door,
or everything between players), and ``plan_transfers`` turns those targets, minus what the
transfers already *paid* move (``settled_by``), into the fewest transfers
(``games.ledger.fewest_transfers``): the open transfers of a new version, which replace every open
transfer before it. ``fingerprint_of`` digests the targets (``settle_up.settle_event`` stores
no version when it equals the latest version's), and ``EXACTNESS`` is the sentence each version
stores to say how exact its transfers are.

What it does not do: read rows (``settlements.settle_up`` gathers the stakes, fees and places) or
round anything away: every minor unit of every input is in some output.

Terms:
- *place*: 1 = best. Entrants are taken in rank order; ``k`` entrants tied on one rank occupy
  the next ``k`` places and share the amounts of those places evenly.
- *remainder rule*: each place's amount is ``pot * percentage // 100``; a tied group's amount is
  divided by its size, rounded down. The minor units these two roundings leave over go one at a
  time to the prize winners in order of place, then of id, from the top, so the prizes always sum
  to ``pot * (percentages of the places occupied) // 100``. Percentages of places nobody occupies
  (fewer entrants than places), and the rest up to 100 %, stay with the club.
- *the club*: the party with key ``CLUB`` (0; player ids start at 1).
- *the pot at the door* (the default): entry fees are paid to the club, at the door (cash or
  card) or later (*owed*: a transfer to the club); the club pays the prizes out of the pot. So a
  player's transfers with the club settle their *pot part* (prize - fee still owed), and only
  stakes are settled between players (kind ``stakes``). Entry fees are never player-to-player.
- *everything between players* (a club's setting, for games without a pot): fees, prizes and
  stakes make one net per party, settled in the fewest transfers of any parties (kind ``all``);
  the club receives the part of the fees nobody won.
- *target*: per kind of transfer, what each party is to receive (+) or pay (-) through transfers
  over the event; a version's open transfers plus the paid ones move exactly the targets.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from games.ledger import EXACT_SETTLEMENT_LIMIT, fewest_transfers

CLUB = 0
POT = "pot"  # a transfer between a player and the club: prize and entry fee
STAKES = "stakes"  # a transfer between two players: stakes
ALL = "all"  # everything between players (the club's setting), any two parties


def prize_groups(pot: int, percentages: list[int], places: dict[int, int]) -> list[dict]:
    """The prize of each group of entrants sharing a place, best first.

    ``places``: entrant key -> place (1 = best; entrants level share one). Each group is
    ``{"first": 1, "last": 2, "percent": 80, "keys": [..], "shares": {key: amount}}``: ``first``
    to ``last`` are the places it spans (as many as its entrants, cut at the last place paid),
    its amount the sum of those places' ``pot * percentage // 100``, shared evenly, rounded down;
    the units these roundings leave go one at a time to the prize winners in order of place,
    then key. Groups beyond the places paid are left out.
    """
    if pot <= 0 or not percentages or not places:
        return []
    place_amounts = [pot * percentage // 100 for percentage in percentages]
    by_place: dict[int, list[int]] = defaultdict(list)
    for key, place in places.items():
        by_place[place].append(key)
    groups: list[dict] = []
    order: list[tuple[int, int, dict]] = []  # (place, key, group) of every prize winner
    occupied_percent = 0
    next_place = 0  # 0-based: a group occupies the next len(group) places, whatever its number
    for place in sorted(by_place):
        keys = sorted(by_place[place])
        spanned = range(next_place, min(next_place + len(keys), len(percentages)))
        next_place += len(keys)
        if not spanned:
            continue
        percent = sum(percentages[index] for index in spanned)
        occupied_percent += percent
        amount = sum(place_amounts[index] for index in spanned)
        group = {
            "first": spanned[0] + 1,
            "last": spanned[-1] + 1,
            "percent": percent,
            "keys": keys,
            "shares": {key: amount // len(keys) for key in keys},
        }
        groups.append(group)
        order.extend((place, key, group) for key in keys)
    leftover = pot * occupied_percent // 100 - sum(
        sum(group["shares"].values()) for group in groups
    )
    order.sort(key=lambda item: item[:2])
    index = 0
    while leftover > 0 and order:
        _, key, group = order[index % len(order)]
        group["shares"][key] += 1
        leftover -= 1
        index += 1
    return groups


def prize_shares(pot: int, percentages: list[int], places: dict[int, int]) -> dict[int, int]:
    """Entrant key -> prize in minor units; ``places``: entrant key -> place (1 = best)."""
    return {
        key: amount
        for group in prize_groups(pot, percentages, places)
        for key, amount in group["shares"].items()
        if amount
    }


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


def targets_of(
    *,
    stakes: dict[int, int],
    fees: dict[int, int],
    paid_at_door: dict[int, int],
    prizes: dict[int, int],
    between_players: bool,
) -> dict[str, dict[int, int]]:
    """Kind -> party -> what the party is to receive (+) or pay (-) through transfers.

    The pot at the door: ``{POT: {player: prize - fee still owed, CLUB: the opposite sum},
    STAKES: stakes}``; a fee paid at the door (``paid_at_door``: player -> amount) is with the
    club already. Everything between players: ``{ALL: nets_of(...)}`` (nothing is paid at the
    door then). Zero amounts are left out; each kind sums to zero.
    """
    if between_players:
        return {ALL: _nonzero(nets_of(stakes=stakes, fees=fees, prizes=prizes))}
    pot: dict[int, int] = defaultdict(int)
    for player, amount in prizes.items():
        pot[player] += amount
    for player, amount in fees.items():
        pot[player] -= amount - paid_at_door.get(player, 0)
    club = -sum(pot.values())
    if club:
        pot[CLUB] += club
    return {POT: _nonzero(pot), STAKES: _nonzero(stakes)}


def _nonzero(amounts: dict[int, int]) -> dict[int, int]:
    return {party: amount for party, amount in sorted(amounts.items()) if amount}


def kind_of(payer: int, payee: int, between_players: bool) -> str:
    """The kind a transfer between these parties settles."""
    if between_players:
        return ALL
    return POT if CLUB in (payer, payee) else STAKES


def plan_transfers(
    targets: dict[str, dict[int, int]],
    paid: list[tuple[int, int, int]],
) -> list[tuple[int, int, int, str]]:
    """The open transfers ``(payer, payee, amount, kind)`` of a new version: for each kind, the
    fewest transfers moving what its targets still ask once the ``paid`` transfers ``(payer,
    payee, amount)`` are counted (a paid transfer counts for the kind its parties make; paid
    transfers of a kind no longer used count for the ones used, so nobody pays twice).

    The pot at the door is settled party by party with the club (one transfer per player whose
    pot part is still open: "the club pays Mary Byrne 40.00"); stakes and ``ALL`` by
    ``games.ledger.fewest_transfers``. So no two open transfers join the same two parties.
    """
    between_players = ALL in targets
    moved: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for payer, payee, amount in paid:
        moved[kind_of(payer, payee, between_players)].append((payer, payee, amount))
    planned: list[tuple[int, int, int, str]] = []
    for kind in (POT, STAKES, ALL):
        if kind not in targets:
            continue
        still = settled_by(moved[kind])
        remaining = {
            party: targets[kind].get(party, 0) - still.get(party, 0)
            for party in set(targets[kind]) | set(still)
        }
        remaining = _nonzero(remaining)
        if kind == POT:
            for party, amount in remaining.items():
                if party == CLUB:
                    continue
                planned.append(
                    (CLUB, party, amount, POT) if amount > 0 else (party, CLUB, -amount, POT)
                )
        else:
            planned.extend(
                (payer, payee, amount, kind) for payer, payee, amount in fewest_transfers(remaining)
            )
    return planned


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
    difference = {party: nets.get(party, 0) - settled.get(party, 0) for party in sorted(parties)}
    difference = {party: amount for party, amount in difference.items() if amount}
    return difference, fewest_transfers(difference)


def fingerprint_of(targets: dict) -> str:
    """SHA-256 of what the transfers are to move (kinds, parties, amounts)."""
    body = sorted(
        (kind, party, amount)
        for kind, amounts in targets.items()
        for party, amount in amounts.items()
        if amount
    )
    return hashlib.sha256(json.dumps(body).encode()).hexdigest()


EXACTNESS = (
    f"fewest transfers exactly when at most {EXACT_SETTLEMENT_LIMIT} balances remain once exact "
    "opposites are paired; beyond, disjoint zero-sum triples then a greedy pass (never more than "
    "n - 1 transfers for n balances)"
)

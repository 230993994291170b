"""The stakes ledger: who pays whom when a game finishes, and rebooking when a result changes.

What it does: ``stake_shares`` computes, for a finished game with a stake, each player's amount in
integer minor units: every player of a losing side pays the stake (twice when the game was won
with double stakes); the winning side's players share the pot equally, any indivisible minor
unit staying with the first winner in seat order. ``sync_ledger`` makes a game's ledger match
its current result: when they differ it books reversing entries for everything booked so far and
then the new shares, as one new *booking*. Entries are never edited or deleted, so a game's
entries always sum to zero and its history stays readable. ``fewest_transfers`` proposes who pays
whom in the fewest transfers (pure: used by the club balances, a tournament's running balances and
the settle-up): exactly for up to ``EXACT_SETTLEMENT_LIMIT`` balances left once exact opposites are
paired, by a documented heuristic beyond (``zero_sum_groups``).

What it does not do: lock the game (callers hold the game row lock), convert money to strings
(``games.money``) or decide results (the engine).

Terms: *booking* — one change of a game's ledger (1, 2, ...); *net* — a player's sum of entries;
*zero-sum group* — players whose nets sum to zero, so they can settle among themselves.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Max, Sum

from games.models import Game, GameStatus, LedgerEntry, LedgerReason


def stake_shares(
    *,
    seats: Iterable[tuple[int, int, int]],
    winner_side: int | None,
    stake_minor: int | None,
    double_stake: bool,
) -> dict[int, int]:
    """Player id -> amount (+ receives, - pays) for one finished game; {} when nothing is due.

    ``seats`` are ``(seat index, player id, side index)`` triples.
    """
    if winner_side is None or not stake_minor:
        return {}
    stake = stake_minor * (2 if double_stake else 1)
    ordered = sorted(seats)
    winners = [player for _, player, side in ordered if side == winner_side]
    losers = [player for _, player, side in ordered if side != winner_side]
    if not winners or not losers:
        return {}
    shares = {player: -stake for player in losers}
    pot = stake * len(losers)
    share, remainder = divmod(pot, len(winners))
    for player in winners:
        shares[player] = share
    shares[winners[0]] += remainder
    return shares


def game_shares(game: Game) -> dict[int, int]:
    """What the game's ledger should hold now, given its status and result."""
    if game.status != GameStatus.FINISHED:
        return {}
    return stake_shares(
        seats=[(seat.seat, seat.player_id, seat.side) for seat in game.seats.all()],
        winner_side=game.winner_side,
        stake_minor=game.stake_minor,
        double_stake=game.double_stake,
    )


def sync_ledger(*, game: Game, user) -> bool:
    """Book whatever makes the game's ledger equal its current shares; True when it booked.

    The caller holds the game's row lock, so two bookings of one game never interleave.
    """
    desired = {player: amount for player, amount in game_shares(game).items() if amount}
    rows = (
        LedgerEntry.objects.filter(game=game)
        .values("player_id")
        .annotate(net=Sum("amount_minor"), last_booking=Max("booking"))
    )
    current: dict[int, int] = {}
    last_booking = 0
    for row in rows:
        last_booking = max(last_booking, row["last_booking"])
        if row["net"]:
            current[row["player_id"]] = row["net"]
    if current == desired:
        return False
    changes = [
        *((LedgerReason.REVERSAL, player, -amount) for player, amount in sorted(current.items())),
        *((LedgerReason.STAKE, player, amount) for player, amount in sorted(desired.items())),
    ]
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            club_id=game.club_id,
            game=game,
            player_id=player,
            amount_minor=amount,
            reason=reason,
            booking=last_booking + 1,
            created_by=user,
        )
        for reason, player, amount in changes
    )
    return True


# The exact partition costs about n * 2**n steps: 16 balances take a fraction of a second, and
# every further balance doubles it. Only balances left after pairing opposites count.
EXACT_SETTLEMENT_LIMIT = 16


def fewest_transfers(balances: dict[int, int]) -> list[tuple[int, int, int]]:
    """The fewest ``(payer, payee, amount)`` transfers that clear ``balances`` (player id -> net).

    Contract: the balances sum to zero (``ValueError`` otherwise); players with a zero balance
    take no part. The answer has the fewest transfers possible whenever, after exact opposites
    are paired, no more than ``EXACT_SETTLEMENT_LIMIT`` balances remain (else see
    ``zero_sum_groups``), and never more than n - 1 for n non-zero balances. Transfers are
    listed largest first, then by payer and payee id; the same balances always give the same
    answer whatever the order of the dict.
    """
    nonzero = sorted((player, net) for player, net in balances.items() if net)
    total = sum(net for _, net in nonzero)
    if total:
        raise ValueError(f"balances must sum to zero to be settled; they sum to {total}")
    transfers = []
    for group in zero_sum_groups(nonzero):
        transfers += _settle_group(group)
    return sorted(transfers, key=lambda transfer: (-transfer[2], transfer[0], transfer[1]))


def zero_sum_groups(
    balances: list[tuple[int, int]], *, exact_limit: int = EXACT_SETTLEMENT_LIMIT
) -> list[list[tuple[int, int]]]:
    """Split non-zero ``(player, net)`` balances summing to zero into zero-sum groups.

    Settling a zero-sum group of k players takes k - 1 transfers, and no fewer when no smaller
    group inside it sums to zero, so n balances in g groups take n - g transfers: the fewest
    transfers come from the most groups.

    1. Exact opposites (-x and +x) are paired first. This never costs a group: in a best
       partition, two opposites in different groups A and B can be replaced by {-x, +x} and the
       rest of A and B (still zero-sum, non-empty), and two opposites in one larger group can be
       split off it (one group more).
    2. What remains is partitioned exactly (``_most_groups_exactly``, a dynamic programme over
       subsets) when it has at most ``exact_limit`` balances.
    3. Beyond that, a heuristic: disjoint zero-sum triples are taken greedily (players in id
       order), and the rest is one group settled greedily (``_settle_group``). It may find
       fewer groups than the best — groups of four or more are not looked for, and a triple
       taken may break up two better ones — but never needs more than n - 1 transfers.

    Each group comes back sorted by player id, the groups by their first player: the same
    balances always give the same groups.
    """
    ordered = sorted(balances)
    pairs, rest = _opposite_pairs(ordered)
    if len(rest) <= exact_limit:
        groups = _most_groups_exactly(rest)
    else:
        groups = _triples_then_the_rest(rest)
    return sorted(sorted(group) for group in pairs + groups)


def _opposite_pairs(
    balances: list[tuple[int, int]],
) -> tuple[list[list[tuple[int, int]]], list[tuple[int, int]]]:
    """Pair -x with +x, lowest player ids first; returns the pairs and the unpaired balances."""
    creditors_by_amount: dict[int, list[tuple[int, int]]] = {}
    for player, net in balances:
        if net > 0:
            creditors_by_amount.setdefault(net, []).append((player, net))
    paired: set[int] = set()
    pairs = []
    for player, net in balances:
        creditors = creditors_by_amount.get(-net) if net < 0 else None
        if creditors:
            creditor = creditors.pop(0)
            pairs.append([(player, net), creditor])
            paired.update((player, creditor[0]))
    rest = [(player, net) for player, net in balances if player not in paired]
    return pairs, rest


def _most_groups_exactly(balances: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The partition of ``balances`` (summing to zero) into the most zero-sum groups.

    ``most[mask]`` is the most zero-sum prefixes an ordering of the balances in ``mask`` (a bit
    per balance) can have: the best over which balance comes last, plus one when the whole mask
    sums to zero. The groups of the full mask are the stretches between its zero-sum prefixes.
    Ties keep the lowest bit, so the answer is deterministic.
    """
    count = len(balances)
    if count == 0:
        return []
    amounts = [net for _, net in balances]
    size = 1 << count
    sums = [0] * size
    most = [0] * size
    last = [0] * size  # the bit of the balance that comes last in the best ordering of mask
    for mask in range(1, size):
        lowest = mask & -mask
        sums[mask] = sums[mask ^ lowest] + amounts[lowest.bit_length() - 1]
        best, best_bit, remaining = -1, 0, mask
        while remaining:
            bit = remaining & -remaining
            remaining ^= bit
            if most[mask ^ bit] > best:
                best, best_bit = most[mask ^ bit], bit
        most[mask] = best + (sums[mask] == 0)
        last[mask] = best_bit
    # Walk back from the full set: each mask whose sum is zero closes a group.
    groups: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    mask = size - 1
    while mask:
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        bit = last[mask]
        current.append(balances[bit.bit_length() - 1])
        mask ^= bit
    groups.append(current)
    return groups


def _triples_then_the_rest(balances: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Greedy disjoint zero-sum triples in player id order, then everything else as one group.

    For each unused pair (i, j) in order, the unused balance equal to -(i + j) with the lowest
    id completes a triple. About n**2 / 2 lookups.
    """
    count = len(balances)
    unused_by_amount: dict[int, list[int]] = {}
    for index, (_, net) in enumerate(balances):
        unused_by_amount.setdefault(net, []).append(index)
    used = [False] * count
    groups = []
    for first in range(count):
        if used[first]:
            continue
        for second in range(first + 1, count):
            if used[second]:
                continue
            wanted = -(balances[first][1] + balances[second][1])
            candidates = unused_by_amount.get(wanted, [])
            third = next((i for i in candidates if i not in (first, second)), None)
            if third is None:
                continue
            for index in (first, second, third):
                used[index] = True
                unused_by_amount[balances[index][1]].remove(index)
            groups.append([balances[index] for index in (first, second, third)])
            break
    rest = [balance for index, balance in enumerate(balances) if not used[index]]
    if rest:
        groups.append(rest)
    return groups


def _settle_group(group: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Settle one zero-sum group: the largest debtor pays the largest creditor, repeatedly.

    Each transfer clears at least one of the two (the last clears both), so k balances take at
    most k - 1 transfers. Ties go to the lower player id.
    """
    debtors = sorted(
        ([-net, player] for player, net in group if net < 0),
        key=lambda debtor: (-debtor[0], debtor[1]),
    )
    creditors = sorted(
        ([net, player] for player, net in group if net > 0),
        key=lambda creditor: (-creditor[0], creditor[1]),
    )
    transfers = []
    debtor_index = creditor_index = 0
    while debtor_index < len(debtors) and creditor_index < len(creditors):
        debt, payer = debtors[debtor_index]
        credit, payee = creditors[creditor_index]
        amount = min(debt, credit)
        transfers.append((payer, payee, amount))
        debtors[debtor_index][0] -= amount
        creditors[creditor_index][0] -= amount
        if debtors[debtor_index][0] == 0:
            debtor_index += 1
        if creditors[creditor_index][0] == 0:
            creditor_index += 1
    return transfers

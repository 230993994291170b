"""The stakes ledger: who pays whom when a game finishes, and rebooking when a result changes.

What it does: ``stake_shares`` computes, for a finished game with a stake, each player's amount in
integer minor units: every player of a losing side pays the stake (twice when the game was won
with double stakes); the winning side's players share the pot equally, any indivisible minor
unit staying with the first winner in seat order. ``sync_ledger`` makes a game's ledger match
its current result: when they differ it books reversing entries for everything booked so far and
then the new shares, as one new *booking*. Entries are never edited or deleted, so a game's
entries always sum to zero and its history stays readable. ``club_balances`` nets a club's
ledger per player and ``settle`` proposes who pays whom.

What it does not do: lock the game (callers hold the game row lock), convert money to strings
(``games.money``) or decide results (the engine).

Terms: *booking* — one change of a game's ledger (1, 2, ...); *net* — a player's sum of entries.
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
    booking = last_booking + 1
    entries = [
        LedgerEntry(
            club_id=game.club_id,
            game=game,
            player_id=player,
            amount_minor=-amount,
            reason=LedgerReason.REVERSAL,
            booking=booking,
            created_by=user,
        )
        for player, amount in sorted(current.items())
    ]
    entries += [
        LedgerEntry(
            club_id=game.club_id,
            game=game,
            player_id=player,
            amount_minor=amount,
            reason=LedgerReason.STAKE,
            booking=booking,
            created_by=user,
        )
        for player, amount in sorted(desired.items())
    ]
    LedgerEntry.objects.bulk_create(entries)
    return True


def settle(balances: dict[int, int]) -> list[tuple[int, int, int]]:
    """``(payer, payee, amount)`` transfers that clear ``balances`` (player id -> net).

    Greedy: the largest debtor pays the largest creditor, repeatedly. At most n - 1 transfers;
    ties are broken by player id so the answer is stable.
    """
    debtors = sorted(
        ([-net, player] for player, net in balances.items() if net < 0),
        key=lambda debtor: (-debtor[0], debtor[1]),
    )
    creditors = sorted(
        ([net, player] for player, net in balances.items() if net > 0),
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

"""Hand records for the API tests, in both entry shapes, built from one plan per hand.

What it does: a ``HandPlan`` says who deals, who takes each trick, in which tricks the winner
trumps (never as the leader) and, for bidding games, the auction. ``trick_winner_record`` turns a
plan into a trick-winner entry; ``card_record`` into a card-by-card entry whose cards make exactly
those seats win (so both entries of one plan must give the same points). The card orders are
copied from rules.md here, independently of the engine, so a test that sends a card-by-card
record checks the engine's idea of who won each trick against this module's.

How the cards are chosen: every trick is played in a plain suit (hearts, diamonds, or the black
suit that is not trumps); everybody follows suit, which is always legal, and the winner holds the
highest card of the trick — or, in a trump trick, the winner (not the leader) trumps with the
highest trump still unused, so the first trump trick holds the best trump. Leaders follow the
rules: left of the dealer (or of the bidder, with ``first_lead == "left_of_bidder"``) for trick 1,
then the previous trick's winner.

What it does not do: check anything (the engine does), or plan irregularities.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# rules.md "Card order": plain suits, highest first ("highest in red, lowest in black"); the
# ace of hearts is always a trump and never appears here.
PLAIN_ORDER = {
    "H": ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"],
    "D": ["KD", "QD", "JD", "10D", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "2D", "AD"],
    "C": ["KC", "QC", "JC", "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"],
    "S": ["KS", "QS", "JS", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"],
}
# Trumps, highest first, without the ace of hearts and the ace of trumps (a player dealt the ace
# of trumps may rob, which these plans do not do) and without the lowest, kept for the turn-up.
TRUMP_ORDER = {
    "S": ["5S", "JS", "KS", "QS", "2S", "3S", "4S", "6S", "7S", "8S", "9S"],
    "C": ["5C", "JC", "KC", "QC", "2C", "3C", "4C", "6C", "7C", "8C", "9C"],
}
TURN_UP = {"S": "10S", "C": "10C"}
OTHER_BLACK = {"S": "C", "C": "S"}


@dataclass
class HandPlan:
    dealer: int
    winners: list[int]
    trump_tricks: set[int] = field(default_factory=set)
    trump: str = "S"
    bid: tuple[int, int] | None = None  # (seat, amount) of the winning bid
    bidding: list[tuple[int, str]] | None = None  # the auction's calls, (seat, call)


def best_trump_of(plan: HandPlan) -> dict | None:
    """Who played the best trump, and in which trick: the first trump trick's winner."""
    if not plan.trump_tricks:
        return None
    trick = min(plan.trump_tricks)
    return {"seat": plan.winners[trick], "trick": trick}


def trick_winner_record(plan: HandPlan, *, has_best_trump: bool, is_bidding: bool) -> dict:
    record: dict = {"dealer": plan.dealer, "trump": plan.trump, "trick_winners": plan.winners}
    if has_best_trump:
        record["best_trump"] = best_trump_of(plan)
    if is_bidding:
        record["bid"] = {"seat": plan.bid[0], "amount": plan.bid[1]}
    return record


def _first_leader(plan: HandPlan, seat_count: int, first_lead: str) -> int:
    if first_lead == "left_of_bidder":
        return (plan.bid[0] + 1) % seat_count
    return (plan.dealer + 1) % seat_count


def card_record(
    plan: HandPlan,
    *,
    seat_count: int,
    is_bidding: bool,
    kitty: int = 0,
    first_lead: str = "left_of_dealer",
    with_deal: bool = False,
) -> dict:
    """A card-by-card record of ``plan`` (see the module docstring)."""
    suits = ["H", "D", OTHER_BLACK[plan.trump]]
    pools = {suit: list(PLAIN_ORDER[suit]) for suit in suits}
    trumps = list(TRUMP_ORDER[plan.trump])
    held: list[list[str]] = [[] for _ in range(seat_count)]
    tricks = []
    leader = _first_leader(plan, seat_count, first_lead)
    suit_turn = 0
    for index, winner in enumerate(plan.winners):
        while len(pools[suits[suit_turn % len(suits)]]) < seat_count:
            suit_turn += 1
        suit = suits[suit_turn % len(suits)]
        suit_turn += 1
        order = [(leader + offset) % seat_count for offset in range(seat_count)]
        cards: dict[int, str] = {}
        if index in plan.trump_tricks:
            assert winner != leader, "a trump trick's winner must not lead it"
            cards[winner] = trumps.pop(0)
            for seat in order:
                if seat != winner:
                    cards[seat] = pools[suit].pop(0)
        else:
            cards[winner] = pools[suit].pop(0)
            for seat in order:
                if seat != winner:
                    cards[seat] = pools[suit].pop(0)
        for seat in order:
            held[seat].append(cards[seat])
        tricks.append([cards[seat] for seat in order])
        leader = winner

    spare = [card for suit in suits for card in pools[suit]]
    record: dict = {"dealer": plan.dealer}
    if is_bidding:
        kitty_cards = [spare.pop() for _ in range(kitty)]
        record["bidding"] = [{"seat": seat, "call": call} for seat, call in plan.bidding]
        record["kitty"] = kitty_cards
        record["discard"] = list(kitty_cards)
        record["trump"] = plan.trump
    else:
        record["turn_up"] = TURN_UP[plan.trump]
    if with_deal or len(plan.winners) < 5:
        for hand in held:
            while len(hand) < 5:
                hand.append(spare.pop())
        record["deal"] = held
    record["tricks"] = tricks
    return record

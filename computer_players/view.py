"""What one seat may see of a hand: ``SeatView``, the only input of a computer player.

What it does: holds the seat's own cards and the public facts of the hand (the turn-up, who
robbed, the calls of the auction, the bid, the tricks so far and the trick being played, the
totals, the house rules) plus the moves open to it now (legal cards, legal calls, the cards it may
discard to rob). It is built by ``HandInProgress.view(seat)``.

What it does not do: hold another seat's cards, the rest of the pack, the kitty (before the
bidder takes it, when it is in the bidder's own hand) or a robber's or bidder's discards: no field
can carry them (``tests/computer_players`` checks the fields and every card a view holds).

Terms: see ``hand.py``; *side*: ``side_of_seat[seat]``; *totals*: per side, before this hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.cards import Card
from rules_engine.house_rules import HouseRules


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    """A finished trick: who led, the cards in play order (leader first), who took it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge at one moment (see the module docstring)."""

    seat: int
    seat_count: int
    side_of_seat: tuple[int, ...]
    rules: HouseRules
    dealer: int
    phase: str
    hand: tuple[Card, ...]
    turn_up: Card | None
    trump: str | None
    robbed_by: int | None
    calls: tuple[tuple[int, str | int], ...]
    bid: tuple[int, int] | None
    tricks: tuple[PlayedTrick, ...]
    trick_leader: int
    trick: tuple[Card, ...]
    totals: tuple[int, ...]
    legal_cards: tuple[Card, ...]
    legal_calls: tuple[str | int, ...]
    rob_discards: tuple[Card, ...]
    must_rob: bool

    @property
    def side(self) -> int:
        return self.side_of_seat[self.seat]

    def played_cards(self) -> list[Card]:
        """Every card played so far in the hand, this trick included."""
        return [card for trick in self.tricks for card in trick.cards] + list(self.trick)

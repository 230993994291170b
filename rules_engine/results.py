"""What recording a hand produces: ``HandResult`` and its parts, with their JSON forms.

What it does: holds the outcome of one hand (kind, dealer, trumps, trick winners, points per side,
best trump, bid, the moment each side reached the target) as frozen values, and turns them into
the dicts of api.md's 201 response (``to_dict``).

What it does not do: compute anything (``scoring.py``, ``game.py`` do).

Terms:
- *kind*: "played"; "renege" (played, with a recorded renege and its penalty); "misdeal" (no
  score, the same dealer deals again); "redeal" (everybody passed: no score, the next dealer);
  "paper" (the game's final score from a paper sheet, ``paper.py``).
- Per-side values are tuples indexed by side; their JSON form is an object keyed by the side
  number as text ({"0": 5, "1": 10}), as api.md shows.
- Trick indexes are 0-based, as in the records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules_engine.cards import Card


def per_side(values: tuple) -> dict[str, Any]:
    """``(5, 10)`` -> ``{"0": 5, "1": 10}``, the JSON form of per-side values."""
    return {str(side): value for side, value in enumerate(values)}


@dataclass(frozen=True, slots=True)
class BestTrump:
    """The highest trump played in the hand: who played it, the card (None when a trick-winner
    entry does not name it) and the trick (0-based) it was played to."""

    seat: int
    card: Card | None
    trick: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "card": None if self.card is None else str(self.card),
            "trick": self.trick,
        }


@dataclass(frozen=True, slots=True)
class BidResult:
    """The winning bid and whether it was made (None when a void hand left it unsettled)."""

    seat: int
    amount: int
    made: bool | None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "amount": self.amount, "made": self.made}


@dataclass(frozen=True, slots=True)
class Renege:
    """A recorded renege: the offending seat and the trick (0-based)."""

    seat: int
    trick: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "trick": self.trick}


@dataclass(frozen=True, slots=True)
class HandResult:
    """One recorded hand. ``points`` and ``reached`` are per side; ``trick_winners`` are seats.

    ``reached[side]`` is the 0-based trick after which the side's running total first stood at the
    target (trick by trick in play order), or None when its total after the hand is below it.
    """

    number: int
    kind: str
    dealer: int
    trump: str | None
    trick_winners: tuple[int, ...]
    points: tuple[int, ...]
    best_trump: BestTrump | None
    bid: BidResult | None
    reached: tuple[int | None, ...]
    renege: Renege | None = None
    rob_seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The hand fields of api.md's 201 response, plus kind, reached, renege and rob."""
        return {
            "number": self.number,
            "kind": self.kind,
            "dealer": self.dealer,
            "trump": self.trump,
            "trick_winners": list(self.trick_winners),
            "points": per_side(self.points),
            "best_trump": None if self.best_trump is None else self.best_trump.to_dict(),
            "bid": None if self.bid is None else self.bid.to_dict(),
            "reached": per_side(self.reached),
            "renege": None if self.renege is None else self.renege.to_dict(),
            "rob": None if self.rob_seat is None else {"seat": self.rob_seat},
        }

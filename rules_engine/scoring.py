"""Points of a hand and the end of a game (rules.md "Scoring and game end", "Irregularities").

What it does: ``score_hand`` turns who took each trick, where the best trump fell, the bid and a
renege into each side's points for the hand, whether the bid was made, and the moment (trick)
each side reached the target. ``decide_winner`` says, from those moments and the new totals,
whether the game is over and which side won; ``expected_trick_count`` says how many tricks a hand
may have when the game ends the moment a side reaches the target (25).

What it does not do: check the record (``records.py``, ``play.py``), or keep the game's state
(``game.py``).

Terms:
- *taken*: a side's trick points for the hand, ``trick_points`` per trick plus
  ``best_trump_bonus`` for the trick holding the best trump played in the hand (the highest
  trump always wins its trick, so the bonus goes to that trick's winner).
- *reached*: per side, the 0-based index of the trick after which the side's running total first
  stood at or above the target, counting trick by trick in play order; None when its total after
  the hand is below the target. A bidder's points count only when the bid is made; what a made
  jink (or a made 30 in Auction 45) scores beyond the tricks counts at the last trick.
- *offender*: the side of the seat recorded as reneging.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_engine.house_rules import HouseRules

HAND_TRICKS = 5
THIRTY = 30
"""The bid ``made_thirty_scores`` rewards (Auction 45's top bid)."""


def score_hand(
    rules: HouseRules,
    side_of_seat: Sequence[int],
    side_count: int,
    trick_winners: Sequence[int],
    best_trump_trick: int | None,
    bid: tuple[int, int] | None,
    renege: tuple[int, int] | None,
    start_totals: Sequence[int],
) -> tuple[tuple[int, ...], bool | None, tuple[int | None, ...]]:
    """``(points per side, bid made or None, reached per side)`` for one played hand.

    ``trick_winners`` are seats; ``best_trump_trick`` is the index of the trick holding the best
    trump (None when no trump was played or it is unknown); ``bid`` is ``(seat, amount)``;
    ``renege`` is ``(seat, trick)``.
    """
    trick_points = rules.trick_points
    taken = [0] * side_count
    for seat in trick_winners:
        taken[side_of_seat[seat]] += trick_points
    if best_trump_trick is not None:
        taken[side_of_seat[trick_winners[best_trump_trick]]] += rules.best_trump_bonus

    points = taken[:]
    counts = [True] * side_count
    made: bool | None = None
    bidder_side = -1
    amount = 0
    if bid is not None:
        bidder_seat, amount = bid
        bidder_side = side_of_seat[bidder_seat]
        if amount == rules.jink_bid:
            made = len(trick_winners) == HAND_TRICKS and all(
                side_of_seat[seat] == bidder_side for seat in trick_winners
            )
            points[bidder_side] = amount if made else -amount
        else:
            made = taken[bidder_side] >= amount
            if not made:
                points[bidder_side] = -amount
            elif amount == THIRTY and rules.made_thirty_scores is not None:
                points[bidder_side] = rules.made_thirty_scores
        counts[bidder_side] = made

    if renege is not None:
        offender = side_of_seat[renege[0]]
        penalty = rules.renege_penalty
        if penalty == "void_hand":
            points = [0] * side_count
            counts = [False] * side_count
            made = None
        else:
            counts[offender] = False
            if offender == bidder_side:
                made = False
                points[offender] = -amount
            else:
                points[offender] = 0
            if penalty == "deduct":
                points[offender] -= rules.renege_deduction

    target = rules.target
    for side in range(side_count):
        if start_totals[side] + points[side] >= target or start_totals[side] >= target:
            break
    else:
        # Nobody is at the target after the hand (the usual case): no need to replay it.
        return tuple(points), made, (None,) * side_count
    reached = _reached(
        rules, side_of_seat, trick_winners, best_trump_trick, counts, points, start_totals
    )
    return tuple(points), made, reached


def _reached(
    rules: HouseRules,
    side_of_seat: Sequence[int],
    trick_winners: Sequence[int],
    best_trump_trick: int | None,
    counts: list[bool],
    points: list[int],
    start_totals: Sequence[int],
) -> tuple[int | None, ...]:
    target = rules.target
    running = list(start_totals)
    reached: list[int | None] = [0 if total >= target else None for total in running]
    for trick, seat in enumerate(trick_winners):
        side = side_of_seat[seat]
        if counts[side]:
            running[side] += rules.trick_points
            if trick == best_trump_trick:
                running[side] += rules.best_trump_bonus
            if reached[side] is None and running[side] >= target:
                reached[side] = trick
    last = len(trick_winners) - 1 if trick_winners else 0
    for side, total in enumerate(start_totals):
        final = total + points[side]
        if final < target:
            reached[side] = None
        elif reached[side] is None:
            # Points beyond the tricks (a made jink or 30) count at the last trick.
            reached[side] = last
    return tuple(reached)


def expected_trick_count(reached: Sequence[int | None]) -> int:
    """Tricks a hand has when the game ends the moment a side reaches the target."""
    moments = [moment for moment in reached if moment is not None]
    return min(moments) + 1 if moments else HAND_TRICKS


def decide_winner(
    rules: HouseRules,
    totals: Sequence[int],
    reached: Sequence[int | None],
    bidder_side: int | None,
) -> int | None:
    """The winning side after a hand, or None when the game goes on.

    Several sides at the target: with ``game_end == "at_trick"`` or ``first_to_reach`` the first
    to get there (then the higher total); ``bidder_first`` the bidding side if it is one of them
    (else the higher total); otherwise (``higher_total``) the higher total. An exact tie plays on.
    """
    candidates = [side for side, moment in enumerate(reached) if moment is not None]
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    mode = rules.simultaneous_finish
    if rules.game_end == "at_trick" or mode == "first_to_reach":
        earliest = min(reached[side] for side in candidates)
        candidates = [side for side in candidates if reached[side] == earliest]
    elif mode == "bidder_first" and bidder_side in candidates:
        return bidder_side
    return _highest(candidates, totals)


def _highest(candidates: list[int], totals: Sequence[int]) -> int | None:
    best = max(totals[side] for side in candidates)
    leaders = [side for side in candidates if totals[side] == best]
    return leaders[0] if len(leaders) == 1 else None

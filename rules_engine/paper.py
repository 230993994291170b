"""A game's final score from a paper score sheet: ``check_paper_score`` and the "paper" hand.

What it does: a table that kept score on paper gives the game's final score per side; the record
``{"dealer": 1, "paper_score": [45, 30]}`` (optionally ``"winner": 0``) is one "paper" hand that
ends the game. ``check_paper_score`` checks those scores against the game's frozen house rules
(rules.md "Scoring and game end") and says who won and whether the stake is doubled; it is pure
and is what ``GameState.record`` uses for such a record.

What it checks (each refusal a ``RulesError`` with a pointer into the record):
- one whole number per side, each a multiple of the game's *unit* (the greatest common divisor
  of every value a hand can score: trick points, best-trump bonus, bids, a made jink or 30, a
  renege deduction; 5 with every default);
- a side at or over the target: exactly one when the game ends the moment a side reaches it
  (25); several only in games checked at the end of a hand, where the higher total wins (an
  exact tie is refused: another hand is played) or, with first_to_reach/bidder_first, the record
  names the ``winner`` (a paper total cannot tell who got there first);
- no impossible value: no score below zero or below what the side already had in a game where
  points only go up (no bidding, no renege deduction); no total beyond what one hand can add to
  the highest score under the target.

Terms: *double stake* — with ``jink_doubles_stake`` (25), the winner had no score before this
record, gained exactly five tricks' worth and no other side's score moved: it took all five tricks
of one hand from zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import gcd

from rules_engine.errors import RulesError
from rules_engine.house_rules import MAX_POINTS, HouseRules

HAND_TRICKS = 5
PAPER = "paper"
_PAPER_FIELDS = frozenset({"dealer", "paper_score", "winner"})


@dataclass(frozen=True, slots=True)
class PaperScore:
    """A checked paper score: the final scores per side, the winning side, the double stake."""

    scores: tuple[int, ...]
    winner: int
    double_stake: bool


def unit_of(rules: HouseRules) -> int:
    """The step every score of this game moves by (gcd of what a hand can score; 1 if none)."""
    values = [rules.trick_points, rules.best_trump_bonus, *(rules.bids or ())]
    for value in (rules.jink_bid, rules.made_thirty_scores):
        if value is not None:
            values.append(value)
    if rules.renege_penalty == "deduct":
        values.append(rules.renege_deduction)
    unit = 0
    for value in values:
        unit = gcd(unit, value)
    return unit or 1


def _best_hand(rules: HouseRules) -> int:
    """The most one hand can add to a side's score."""
    best = HAND_TRICKS * rules.trick_points + rules.best_trump_bonus
    for value in (rules.jink_bid, rules.made_thirty_scores):
        if value is not None:
            best = max(best, value)
    return best


def _may_go_down(rules: HouseRules) -> bool:
    return rules.is_bidding or (rules.renege_penalty == "deduct" and rules.renege_deduction > 0)


def check_paper_score(
    rules: HouseRules,
    scores: object,
    *,
    totals_before: Sequence[int],
    has_scored: Sequence[bool] | None = None,
    winner: object = None,
) -> PaperScore:
    """Check ``scores`` (the final score per side) against ``rules``; the winner and stake.

    ``totals_before``: each side's score before this record (its length is the number of sides);
    ``has_scored``: whether each side had any score before (default: its total is not zero);
    ``winner``: the winning side, needed only when several sides passed the target and the rules
    cannot tell from the totals who won. Pointers: "/paper_score/<side>", "/winner".
    """
    side_count = len(totals_before)
    if not isinstance(scores, Sequence) or isinstance(scores, str) or len(scores) != side_count:
        raise RulesError(
            "invalid_record",
            f"paper_score must list one final score per side ({side_count} sides)",
            "/paper_score",
        )
    unit = unit_of(rules)
    target = rules.target
    below = (target - 1) // unit * unit  # the highest score a side can have under the target
    highest = below + (
        rules.trick_points + rules.best_trump_bonus
        if rules.game_end == "at_trick" and not rules.is_bidding
        else _best_hand(rules)
    )
    rises_only = not _may_go_down(rules)
    errors: list[RulesError] = []
    for side, score in enumerate(scores):
        pointer = f"/paper_score/{side}"
        if type(score) is not int:
            errors.append(
                RulesError(
                    "invalid_record",
                    f"side {side}'s score must be a whole number, got {score!r}",
                    pointer,
                )
            )
        elif score % unit:
            errors.append(
                RulesError(
                    "invalid_record",
                    f"side {side}'s score {score} is not a multiple of {unit}: every score in this "
                    f"game of {rules.game} moves by {unit}",
                    pointer,
                )
            )
        elif score > highest:
            errors.append(
                RulesError(
                    "invalid_record",
                    f"side {side}'s score {score} is impossible: the most a side can end on is "
                    f"{highest} (under {target}, then one hand)",
                    pointer,
                )
            )
        elif rises_only and score < totals_before[side]:
            errors.append(
                RulesError(
                    "invalid_record",
                    f"side {side}'s score {score} is below the {totals_before[side]} "
                    f"it already had; "
                    f"in this game of {rules.game} scores never go down",
                    pointer,
                )
            )
        elif score < -MAX_POINTS:
            errors.append(
                RulesError(
                    "invalid_record", f"side {side}'s score {score} is out of range", pointer
                )
            )
    if errors:
        raise RulesError.combine(errors)
    finals = tuple(scores)
    chosen = _winner(rules, finals, winner)
    double = False
    if rules.jink_doubles_stake and rules.trick_points > 0:
        scored = (
            tuple(has_scored)
            if has_scored is not None
            else tuple(total != 0 for total in totals_before)
        )
        gain = finals[chosen] - totals_before[chosen]
        others_still = all(
            finals[side] == totals_before[side] for side in range(side_count) if side != chosen
        )
        double = (
            not scored[chosen]
            and others_still
            and gain == HAND_TRICKS * rules.trick_points + rules.best_trump_bonus
        )
    return PaperScore(finals, chosen, double)


def _winner(rules: HouseRules, finals: tuple[int, ...], named: object) -> int:
    target = rules.target
    over = [side for side, score in enumerate(finals) if score >= target]
    if named is not None and (type(named) is not int or not 0 <= named < len(finals)):
        raise RulesError(
            "invalid_seat", f"winner {named!r}: sides are 0 to {len(finals) - 1}", "/winner"
        )
    if not over:
        raise RulesError(
            "invalid_record",
            f"no side reached {target}: a paper score records a finished game (one side at "
            f"{target} or more)",
            "/paper_score",
        )
    if len(over) == 1:
        winner = over[0]
    elif rules.game_end == "at_trick" and not rules.is_bidding:
        raise RulesError(
            "invalid_record",
            f"sides {', '.join(map(str, over))} are all at {target} or more, but the game ends "
            f"the moment one side reaches {target}: only the winner can be there",
            f"/paper_score/{over[1]}",
        )
    elif rules.simultaneous_finish == "higher_total":
        top = max(finals[side] for side in over)
        leaders = [side for side in over if finals[side] == top]
        if len(leaders) > 1:
            raise RulesError(
                "invalid_record",
                f"sides {', '.join(map(str, leaders))} are tied on {top}: an exact tie plays "
                "another hand, so the game is not over",
                f"/paper_score/{leaders[1]}",
            )
        winner = leaders[0]
    else:
        if named is None:
            raise RulesError(
                "invalid_record",
                f"sides {', '.join(map(str, over))} all passed {target}; with "
                f"simultaneous_finish {rules.simultaneous_finish} the totals do not say who won: "
                "give winner",
                "/winner",
            )
        winner = named
    if named is not None and named != winner:
        raise RulesError(
            "invalid_record",
            f"winner is side {named}, but the scores make side {winner} the winner",
            "/winner",
        )
    if named is not None and named not in over:
        raise RulesError(
            "invalid_record", f"side {named} is under {target} and cannot have won", "/winner"
        )
    return winner


def read_paper_fields(record: Mapping) -> None:
    """Refuse fields a paper record does not have."""
    extra = sorted(str(key) for key in record.keys() - _PAPER_FIELDS)
    if extra:
        raise RulesError(
            "invalid_record",
            f"a paper_score record has only dealer, paper_score and winner; unexpected field "
            f"{extra[0]}",
            f"/{extra[0]}",
        )

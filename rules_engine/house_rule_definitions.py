"""What each house rule means and which values it takes: the definitions forms are built from.

What it does: ``definitions_for(game)`` lists every house-rule key (``house_rules.ALL_KEYS``, in
rules.md's order) with its meaning in plain words, its kind of value (``number``, ``choice``,
``yes_no``, ``number_or_none``, ``subset``, ``numbers``), the allowed choices (the engine's own
tuples, e.g. ``GAME_END_VALUES``), the game's default, and whether it applies to the game at all.
A page or a form generated from these needs no second copy of the rules table.

What it does not do: validate (``HouseRules`` does, on construction) or store anything.

Terms: see ``rules_engine.house_rules``; *applies*: the key is not marked "—" for the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules_engine.errors import N_
from rules_engine.house_rules import (
    ACE_OF_HEARTS_LEAD_VALUES,
    ALL_KEYS,
    ALL_PASS_VALUES,
    DEALER_ROBS_ACE_VALUES,
    DEFAULTS,
    FIRST_LEAD_VALUES,
    GAME_END_VALUES,
    NOT_APPLICABLE,
    RENEGE_PENALTY_VALUES,
    ROB_DISCARD_VALUES,
    SIMULTANEOUS_FINISH_VALUES,
)
from rules_engine.order import PRIVILEGE_KEYS

# key -> (meaning, kind, choices). The meanings are rules.md's "meaning" column, marked with N_
# so that the console shows them translated (``gettext(definition.meaning)``).
_DEFINITIONS: dict[str, tuple[str, str, tuple]] = {
    "target": (N_("Score that wins the game"), "number", ()),
    "trick_points": (N_("Points for each trick"), "number", ()),
    "best_trump_bonus": (N_("Extra points for the best trump played in a hand"), "number", ()),
    "game_end": (N_("When the target is checked"), "choice", GAME_END_VALUES),
    "simultaneous_finish": (
        N_("Who wins when several sides reach the target in one hand"),
        "choice",
        SIMULTANEOUS_FINISH_VALUES,
    ),
    "renege_privilege": (N_("Top trumps that may be withheld (reneged)"), "subset", PRIVILEGE_KEYS),
    "ace_of_hearts_follows_hearts": (
        N_("Local variant: the ace of hearts counts as a heart for following suit"),
        "yes_no",
        (),
    ),
    "ace_of_hearts_lead": (
        N_(
            "When the ace of hearts is led and hearts are not trumps: a trump lead, or a trump "
            "then a heart must be played"
        ),
        "choice",
        ACE_OF_HEARTS_LEAD_VALUES,
    ),
    "dealer_robs_ace": (N_("The dealer and a turned-up ace"), "choice", DEALER_ROBS_ACE_VALUES),
    "rob_discard": (
        N_(
            "What a player robbing with the ace of trumps may discard: any card, or not the ace "
            "itself"
        ),
        "choice",
        ROB_DISCARD_VALUES,
    ),
    "jink_doubles_stake": (N_("Taking all five tricks from zero pays double"), "yes_no", ()),
    "bids": (N_("Allowed bids"), "numbers", ()),
    "jink_bid": (N_("The bid that means all five tricks (empty: none)"), "number_or_none", ()),
    "made_thirty_scores": (N_("What a made bid of 30 scores (empty: 30)"), "number_or_none", ()),
    "min_bid_at_100": (
        N_("Minimum bid for a side on 100 or more (empty: none)"),
        "number_or_none",
        (),
    ),
    "dealer_may_hold": (N_("The dealer may take the bid at equal value"), "yes_no", ()),
    "all_pass": (N_("When everybody passes"), "choice", ALL_PASS_VALUES),
    "kitty": (N_("Cards in the kitty (0 to 5)"), "number", ()),
    "first_lead": (N_("Who leads the first trick"), "choice", FIRST_LEAD_VALUES),
    "renege_penalty": (N_("What a recorded renege costs"), "choice", RENEGE_PENALTY_VALUES),
    "renege_deduction": (N_("Points taken off when the penalty is to deduct"), "number", ()),
}
assert set(_DEFINITIONS) == set(ALL_KEYS), "every house rule needs a definition"


@dataclass(frozen=True)
class HouseRuleDefinition:
    key: str
    meaning: str
    kind: str
    choices: tuple
    default: Any
    applies: bool


def definitions_for(game: str) -> list[HouseRuleDefinition]:
    """Every house rule for ``game`` (one of ``GAMES``), in rules.md's order."""
    defaults = DEFAULTS[game]
    not_applicable = NOT_APPLICABLE[game]
    return [
        HouseRuleDefinition(
            key=key,
            meaning=meaning,
            kind=kind,
            choices=tuple(choices),
            default=defaults[key],
            applies=key not in not_applicable,
        )
        for key in ALL_KEYS
        for meaning, kind, choices in [_DEFINITIONS[key]]
    ]

"""Presets: named sets of house rules, each with the table size it is meant for.

What it does: ``PRESETS`` holds every preset by name, in the order a form offers them;
``preset(name)`` returns one, and ``Preset.rules()`` its validated ``HouseRules`` (the game's
defaults with the preset's ``overrides``).

What it does not do: validate rules itself (``rules_engine.house_rules.HouseRules`` does, on
construction), translate (``title`` and ``description`` are English marked with ``N_``; the
pages translate them) or store a club's choice (the console stores the rules, not the preset).

Terms:
- *preset*: a named set of overrides with its table size: ``classic_45`` (the classic Forty-Five
  phone game), ``irish_25``, ``nova_scotia_45`` and ``auction_45`` (the standard games of
  rules.md, each its game's defaults).

Errors: ``RulesError("invalid_house_rule", detail, "/preset")`` for an unknown name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules_engine.errors import N_, RulesError
from rules_engine.house_rules import HouseRules, shown


@dataclass(frozen=True)
class Preset:
    """A named set of house rules with the table size it is meant for (``PRESETS``).

    ``rules()`` gives the validated ``HouseRules``; ``overrides`` are the keys the preset sets on
    top of the game's defaults (so a form can show what the preset changes). ``title`` and
    ``description`` are English words marked with ``N_`` (the pages translate them)."""

    name: str
    game: str
    seat_count: int
    overrides: Mapping[str, Any]
    description: str
    title: str = ""

    def rules(self) -> HouseRules:
        return HouseRules.for_game(self.game, **self.overrides)


PRESETS: dict[str, Preset] = {
    "classic_45": Preset(
        name="classic_45",
        game="45",
        seat_count=3,
        overrides={
            "target": 45,
            "best_trump_bonus": 5,
            "ace_of_hearts_lead": "trump_then_hearts",
            "rob_discard": "not_the_ace",
        },
        title=N_("The classic Forty-Five app"),
        description=N_(
            "The classic Forty-Five phone game: three players each for themselves, to 45; the "
            "trick with the best trump is worth 10; the ace of hearts led calls for a trump, "
            "else a heart; a player robbing with the ace of trumps keeps the ace."
        ),
    ),
    # The standard games of rules.md, each its game's defaults: a club that picks one stores
    # no override, and the form shows each rule's value to adjust.
    "irish_25": Preset(
        name="irish_25",
        game="25",
        seat_count=4,
        overrides={},
        title=N_("Irish Twenty-Five"),
        description=N_(
            "Standard Twenty-Five: to 25, checked at every trick (a game usually ends inside a "
            "hand); 5 a trick; all five tricks from no score pays double stakes; the holder of "
            "the ace of trumps may rob, and the dealer may rob a turned-up ace."
        ),
    ),
    "nova_scotia_45": Preset(
        name="nova_scotia_45",
        game="45",
        seat_count=4,
        overrides={},
        title=N_("Nova Scotia Forty-Fives"),
        description=N_(
            "Forty-Fives as Atlantic Canada's clubs play it, two against two or three against "
            "three: to 45, counted at the end of a hand; the trick with the best trump is "
            "worth 10; the dealer must rob a turned-up ace; several past 45 in one hand: the "
            "higher total wins."
        ),
    ),
    "auction_45": Preset(
        name="auction_45",
        game="auction45",
        seat_count=4,
        overrides={},
        title=N_("Auction Forty-Fives"),
        description=N_(
            "Auction Forty-Fives (“120”), two against two or three against three: bids 15, "
            "20, 25 and 30, the dealer may hold; a three-card kitty; a made 30 scores 60; a side "
            "on 100 or more bids at least 20; the player left of the bidder leads; to 120, and "
            "when both sides pass 120 in one hand the bidding side wins."
        ),
    ),
}
"""Named presets, by name."""


def preset(name: str) -> Preset:
    """The preset called ``name``; an unknown name is ``invalid_house_rule`` at "/preset"."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(
            "invalid_house_rule",
            N_("preset: unknown preset %(show_name)s; known presets: %(value)s"),
            "/preset",
            params={"show_name": shown(name), "value": ", ".join(PRESETS)},
        ) from None

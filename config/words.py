"""Cards and house rules in a player's words, in the reader's language: the one place naming them.

What it does: ``card_name("9S")`` is "the nine of spades" ("le neuf de pique"), a card named in a
sentence with its article; ``rule_label(game, key)`` is a house rule's own label (its meaning in
``rules_engine.house_rule_definitions``, translated: "Score that wins the game");
``rule_value(value)`` is a rule's value in words ("trump then hearts", "yes", "the five of
trumps, the jack of trumps"); ``rule_in_words(game, key, value)`` joins the two ("Score that wins
the game: 45"). Pages, forms and refusals use these rather than card codes ("9S") or setting keys
("ace_of_hearts_lead is trump_then_hearts").

What it does not do: decide anything about the rules (the engine does) or name people, seats or
sides (a page knows its players' names; numbers shown to people are 1-based).

Terms: *privileged trump* — one of ``rules_engine.order.PRIVILEGE_KEYS`` ("5", "J", "AH", "A"),
the top trumps a house rule lets a player withhold.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, gettext_noop, pgettext_lazy

from config.problems import localized_text
from rules_engine.cards import SUIT_NAMES, parse_card
from rules_engine.house_rule_definitions import definitions_for

# Each rank with its article, as a card is named in a sentence ("the nine", "la dame").
THE_RANKS = {
    "2": pgettext_lazy("card", "the two"),
    "3": pgettext_lazy("card", "the three"),
    "4": pgettext_lazy("card", "the four"),
    "5": pgettext_lazy("card", "the five"),
    "6": pgettext_lazy("card", "the six"),
    "7": pgettext_lazy("card", "the seven"),
    "8": pgettext_lazy("card", "the eight"),
    "9": pgettext_lazy("card", "the nine"),
    "10": pgettext_lazy("card", "the ten"),
    "J": pgettext_lazy("card", "the jack"),
    "Q": pgettext_lazy("card", "the queen"),
    "K": pgettext_lazy("card", "the king"),
    "A": pgettext_lazy("card", "the ace"),
}

# The top trumps a house rule may let a player withhold (``renege_privilege``), in words.
PRIVILEGED_TRUMPS = {
    "5": gettext_lazy("the five of trumps"),
    "J": gettext_lazy("the jack of trumps"),
    "AH": gettext_lazy("the ace of hearts"),
    "A": gettext_lazy("the ace of trumps"),
}

# The house rules' values that are words (``rules_engine.house_rule_definitions``' choices), shown
# with spaces for underscores and translated.
RULE_VALUE_WORDS = (
    gettext_noop("yes"),
    gettext_noop("no"),
    gettext_noop("none"),
    gettext_noop("at trick"),
    gettext_noop("at hand end"),
    gettext_noop("higher total"),
    gettext_noop("first to reach"),
    gettext_noop("bidder first"),
    gettext_noop("may"),
    gettext_noop("must"),
    gettext_noop("trump lead"),
    gettext_noop("trump then hearts"),
    gettext_noop("any card"),
    gettext_noop("not the ace"),
    gettext_noop("redeal"),
    gettext_noop("dealer stuck"),
    gettext_noop("left of dealer"),
    gettext_noop("left of bidder"),
    gettext_noop("offender scores zero"),
    gettext_noop("void hand"),
    gettext_noop("deduct"),
)


def card_name(card) -> str:
    """ "the nine of spades" ("le neuf de pique"): a card (a ``Card`` or its code) in a sentence."""
    card = parse_card(card) if isinstance(card, str) else card
    return gettext("%(rank)s of %(suit)s") % {
        "rank": THE_RANKS[card.rank],
        "suit": localized_text(SUIT_NAMES[card.suit]),
    }


def rule_label(game: str, key: str) -> str:
    """The house rule ``key``'s own label for ``game`` (its meaning, translated)."""
    definition = next(item for item in definitions_for(game) if item.key == key)
    return gettext(definition.meaning)


def rule_value(value: Any, key: str | None = None) -> str:
    """A house rule's value in words: yes/no, none, a choice with spaces ("trump then hearts"),
    a list joined by commas; for ``renege_privilege`` the trumps by name."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None:
        return gettext("none")
    if isinstance(value, (list, tuple, frozenset, set)):
        if key == "renege_privilege":
            names = [str(PRIVILEGED_TRUMPS[item]) for item in PRIVILEGED_TRUMPS if item in value]
            return ", ".join(names) or gettext("none")
        items = value if isinstance(value, (list, tuple)) else sorted(value, key=str)
        return ", ".join(str(item) for item in items) or gettext("none")
    if isinstance(value, str):
        return gettext(value.replace("_", " "))
    return str(value)


def rule_in_words(game: str, key: str, value: Any) -> str:
    """ "Score that wins the game: 45": a house rule's label and its value in words."""
    return gettext("%(rule)s: %(value)s") % {
        "rule": rule_label(game, key),
        "value": rule_value(value, key),
    }

"""Why a card may not be played, in a player's words, at the practice table.

What it does: ``reason_words(reason, rules)`` turns the rules engine's phrase (``why_illegal``:
"hearts were led and the hand held QH: follow suit or trump") into a sentence for the person
holding the cards, in their language: "hearts were led and you hold the queen of hearts: follow
suit or play a trump". Cards are named in words with their article ("the nine of spades",
``card_name``), and a house rule by its own label and value, as the console shows them ("When
the ace of hearts is led …: trump then hearts"), never by its setting's key. A phrase it does not
know keeps the engine's words, translated (``config.problems.localized_text``).

What it does not do: decide whether a card may be played (the engine did) or phrase the
engine's other refusals (a bid, a rob: their own words, translated).

Terms: *phrase* — a ``rules_engine.errors.Phrase``: the English text with its template and
params kept, so that it can be worded again here.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from config.problems import localized_text
from rules_engine.cards import SUIT_NAMES, parse_card
from rules_engine.house_rule_definitions import definitions_for
from rules_engine.order import FOLLOW_SUIT, HEARTS_AFTER_TRUMPS, NOT_HELD, NOT_WITHHELD, TRUMP_LED

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

PLAYER_WORDS = {
    NOT_HELD: gettext_lazy("you do not hold %(card)s"),
    HEARTS_AFTER_TRUMPS: gettext_lazy(
        "%(led)s was led, and by this table's house rule (“%(rule)s”: %(value)s) it calls for a "
        "trump, or else a heart: you hold no trump you must play, and you hold %(card)s — play a "
        "heart or a trump"
    ),
    NOT_WITHHELD: gettext_lazy(
        "a trump was led and you hold %(card)s, which you may not keep back when %(led)s is "
        "led: play a trump"
    ),
    TRUMP_LED: gettext_lazy("a trump was led and you hold %(card)s: play a trump"),
    FOLLOW_SUIT: gettext_lazy("%(suit)s were led and you hold %(card)s: follow suit or play a "
                              "trump"),
}


def card_name(card) -> str:
    """"the nine of spades" ("le neuf de pique"): a card named in a sentence."""
    card = parse_card(card) if isinstance(card, str) else card
    return gettext("%(rank)s of %(suit)s") % {
        "rank": THE_RANKS[card.rank], "suit": localized_text(SUIT_NAMES[card.suit]),
    }


def _rule_label(rules, key: str) -> tuple[str, str]:
    """A house rule's own label and its value in words, as the console shows them."""
    definition = next(item for item in definitions_for(rules.game) if item.key == key)
    value = getattr(rules, key)
    return gettext(definition.meaning), gettext(str(value).replace("_", " "))


def reason_words(reason, rules) -> str:
    """The engine's reason for refusing a card, as a sentence for the player (see above)."""
    template = getattr(reason, "template", None)
    words = PLAYER_WORDS.get(template)
    if words is None:
        return str(localized_text(reason))
    values = {}
    for name, value in reason.params.items():
        if name in ("card", "led"):
            values[name] = card_name(value)
        else:
            values[name] = str(localized_text(value))
    if template == HEARTS_AFTER_TRUMPS:
        values["rule"], values["value"] = _rule_label(rules, "ace_of_hearts_lead")
    return str(words) % values

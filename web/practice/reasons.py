"""Why a card may not be played, in a player's words, at the practice table.

What it does: ``reason_words(reason, rules)`` turns the rules engine's phrase (``why_illegal``:
"hearts were led and the hand held QH: follow suit or trump") into a sentence for the person
holding the cards, in their language: "hearts were led and you hold the queen of hearts: follow
suit or play a trump". Cards are named in words with their article ("the nine of spades",
``config.words.card_name``), and a house rule by its own label and value, as the console shows
them ("When the ace of hearts is led …: trump then hearts"), never by its setting's key. A
phrase it does not know keeps the engine's words, translated (``config.problems.localized_text``).

What it does not do: decide whether a card may be played (the engine did) or phrase the
engine's other refusals (a bid, a rob: their own words, translated).

Terms: *phrase* — a ``rules_engine.errors.Phrase``: the English text with its template and
params kept, so that it can be worded again here.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from config.problems import localized_text
from config.words import card_name, rule_label, rule_value
from rules_engine.order import FOLLOW_SUIT, HEARTS_AFTER_TRUMPS, NOT_HELD, NOT_WITHHELD, TRUMP_LED

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


def _rule_label(rules, key: str) -> tuple[str, str]:
    """A house rule's own label and its value in words, as the console shows them."""
    return rule_label(rules.game, key), rule_value(getattr(rules, key), key)


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

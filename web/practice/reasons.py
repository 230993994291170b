"""Why a card, a rob or a call may not be made, in a player's words, at the practice table.

What it does: ``reason_words(reason, rules)`` turns the rules engine's phrase (``why_illegal``:
"hearts were led and the hand held QH: follow suit or trump") into a sentence for the person
holding the cards, in their language: "hearts were led and you hold the queen of hearts: follow
suit or play a trump". Cards are named in words with their article ("the nine of spades",
``config.words.card_name``), and a house rule by its own label and value, as the console shows
them ("When the ace of hearts is led …: trump then hearts"), never by its setting's key. A
phrase it does not know keeps the engine's words, translated (``config.problems.localized_text``).

The same for the hand's refusals of a rob or a call (``computer_players.hand``'s phrases): the
dealer who must rob a turned-up ace, the robber who keeps the ace of trumps (each by its house
rule's label), a call the auction does not allow ("you may call 20, 25 or pass" — calls in
words), a card not held.

What it does not do: decide whether a move may be made (the engine and the hand did).

Terms: *phrase* — a ``rules_engine.errors.Phrase``: the English text with its template and
params kept, so that it can be worded again here.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

from computer_players.hand import CALL_NOT_ALLOWED, DISCARD_COUNT, KEEPS_THE_ACE, MUST_ROB
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
    FOLLOW_SUIT: gettext_lazy(
        "%(suit)s were led and you hold %(card)s: follow suit or play a trump"
    ),
    MUST_ROB: gettext_lazy(
        "the turn-up is %(card)s, and by this table's house rule (“%(rule)s”: %(value)s) you "
        "must rob it: pick the card to discard"
    ),
    KEEPS_THE_ACE: gettext_lazy(
        "by this table's house rule (“%(rule)s”: %(value)s) you keep the ace of trumps: discard "
        "one of your other cards"
    ),
    CALL_NOT_ALLOWED: gettext_lazy("you may call %(allowed)s, not %(call)s"),
    DISCARD_COUNT: gettext_lazy("lay down %(count)s different cards"),
}

# The house rule a phrase is about, named by its own label and value in the player's words.
RULE_OF = {
    HEARTS_AFTER_TRUMPS: "ace_of_hearts_lead",
    MUST_ROB: "dealer_robs_ace",
    KEEPS_THE_ACE: "rob_discard",
}

# The auction's calls that are words ("pass", "hold"); a bid is its number.
CALL_WORDS = {"pass": pgettext_lazy("call", "pass"), "hold": pgettext_lazy("call", "hold")}


def _call(call) -> str:
    return str(CALL_WORDS.get(call, call))


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
    if template == CALL_NOT_ALLOWED:
        values["allowed"] = ", ".join(_call(call) for call in reason.params["calls"])
        values["call"] = _call(reason.params["call"])
    if template in RULE_OF:
        values["rule"], values["value"] = _rule_label(rules, RULE_OF[template])
    return str(words) % values

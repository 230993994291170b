"""The practice table's reasons in a player's words: every phrase of ``why_illegal``, cards named
with their article, the ace of hearts' house rule by its own label and value, in both languages."""

from __future__ import annotations

import pytest
from django.utils import translation

from config.words import card_name
from rules_engine import HouseRules, why_illegal
from web.practice.reasons import reason_words

CLASSIC = HouseRules.for_game("45", ace_of_hearts_lead="trump_then_hearts")
PLAIN = HouseRules.for_game("45")


def words(hand: str, trick: str, card: str, trump: str, rules=PLAIN) -> str:
    reason = why_illegal(hand.split(), trick.split(), card, trump, rules)
    return reason_words(reason, rules)


@pytest.fixture(autouse=True)
def english():
    """English unless a test says otherwise: a page test run before may leave French active."""
    with translation.override("en"):
        yield


def test_each_refusal_in_a_players_words():
    assert words("7D 8H", "KD", "8H", "S") == (
        "diamonds were led and you hold the seven of diamonds: follow suit or play a trump"
    )
    assert words("2S 8H", "KS", "8H", "S") == (
        "a trump was led and you hold the two of spades: play a trump"
    )
    # The jack of trumps may not be kept back when the five (a higher privileged trump) is led.
    assert words("JS 8H", "5S", "8H", "S") == (
        "a trump was led and you hold the jack of spades, which you may not keep back when the "
        "five of spades is led: play a trump"
    )
    assert words("7D 8H", "KD", "QC", "S") == "you do not hold the queen of clubs"
    assert words("2H 3C", "AH", "3C", "S", CLASSIC) == (
        "the ace of hearts was led, and by this table's house rule (“When the ace of hearts is "
        "led and hearts are not trumps: a trump lead, or a trump then a heart must be played”: "
        "trump then hearts) it calls for a trump, or else a heart: you hold no trump you must "
        "play, and you hold the two of hearts — play a heart or a trump"
    )


def test_cards_and_reasons_in_french():
    with translation.override("fr"):
        assert [card_name(card) for card in ("AH", "QS", "10D", "JC")] == [
            "l'as de cœur", "la dame de pique", "le dix de carreau", "le valet de trèfle",
        ]
        assert words("7D 8H", "KD", "8H", "S") == (
            "la couleur entamée est carreau et vous avez le sept de carreau : fournissez ou coupez"
        )

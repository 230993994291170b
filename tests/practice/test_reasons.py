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
            "l'as de cœur",
            "la dame de pique",
            "le dix de carreau",
            "le valet de trèfle",
        ]
        assert words("7D 8H", "KD", "8H", "S") == (
            "la couleur entamée est carreau et vous avez le sept de carreau : fournissez ou coupez"
        )


def test_a_rob_and_a_call_refused_in_a_players_words():
    from computer_players.hand import CALL_NOT_ALLOWED, DISCARD_COUNT, KEEPS_THE_ACE, MUST_ROB
    from rules_engine.errors import Phrase
    from rules_engine.order import NOT_HELD

    classic = HouseRules.for_game("45", rob_discard="not_the_ace")
    assert reason_words(Phrase(MUST_ROB, {"card": "AS"}), classic) == (
        "the turn-up is the ace of spades, and by this table's house rule (“The dealer and a "
        "turned-up ace”: must) you must rob it: pick the card to discard"
    )
    assert reason_words(Phrase(KEEPS_THE_ACE), classic) == (
        "by this table's house rule (“What a player robbing with the ace of trumps may discard: "
        "any card, or not the ace itself”: not the ace) you keep the ace of trumps: discard one "
        "of your other cards"
    )
    assert reason_words(Phrase(NOT_HELD, {"card": "9S"}), classic) == (
        "you do not hold the nine of spades"
    )
    auction = HouseRules.for_game("auction45")
    call = Phrase(
        CALL_NOT_ALLOWED,
        {"seat": 1, "allowed": "20, 25, pass", "call": 15, "calls": (20, 25, "pass")},
    )
    assert reason_words(call, auction) == "you may call 20, 25, pass, not 15"
    assert reason_words(Phrase(DISCARD_COUNT, {"count": 3}), auction) == (
        "lay down 3 different cards"
    )
    with translation.override("fr"):
        assert reason_words(Phrase(NOT_HELD, {"card": "9S"}), classic) == (
            "vous n'avez pas le neuf de pique"
        )
        assert reason_words(call, auction) == "vous pouvez annoncer 20, 25, passe, pas 15"

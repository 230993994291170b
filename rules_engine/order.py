"""Card order, trick winners and the follow rules of the Spoil Five family (rules.md).

What it does: answers, for a given trump suit, whether a card is a trump, how strong it is, which
card of a trick wins, and which cards a hand may legally play to a trick (and if not, why not).
All orders are precomputed at import into dictionaries keyed by ``(card, trump)``, so the
functions here do lookups and short loops over the hand, never sorting.

What it does not do: deal, rob, bid, score or check whole hand records (``game.py`` and friends),
nor validate house rules (``house_rules.py``); it only reads ``rules.renege_privilege`` and
``rules.ace_of_hearts_follows_hearts`` from the rules value it is given.

Terms:
- *trump*: the trump suit, "S"/"H"/"D"/"C" (any ``parse_suit`` spelling is accepted). The ace of
  hearts (AH) is always a trump, whatever suit is trumps, and never counts as a heart.
- *trump rank*: position in the trump order, 0 = highest (the 5 of trumps).
- *strength*: one integer per ``(card, trump)`` such that every trump beats every plain card and,
  within a suit, a higher card has a higher strength. Only trumps and the suit led can win.
- *follow suit* of a card: ``TRUMP`` for trumps, else its own suit. A trick's *led suit* is the
  follow suit of its first card, so AH led is a trump lead.
- *privileged trumps* (``renege_privilege``): keys "5" (5 of trumps), "J" (jack of trumps), "AH"
  (ace of hearts), "A" (ace of trumps; with hearts trumps that is AH itself). A privileged trump may
  be withheld ("reneged") when the card **led** is a lower trump than it; a higher trump played
  later to the same trick changes nothing. If every trump a hand holds may be withheld, it may play
  anything.

Variant ``ace_of_hearts_follows_hearts`` (decided here): when hearts are led as a plain suit, AH
counts as a heart *for following*. A player whose only "heart" is AH therefore holds hearts and
must follow with AH or play a trump (AH is both); a player holding AH and other hearts may play AH
to follow, as always. AH stays a trump in every other respect: it wins as a trump, it counts as a
trump when trumps are led, and AH led is a trump lead. With hearts trumps the variant changes
nothing (AH is simply a trump of hearts).

Variant ``ace_of_hearts_lead`` (decided here), when AH is led and hearts are not trumps:
``trump_lead`` (default) treats it as any trump lead. ``trump_then_hearts`` (the classic Forty-Five
app) adds one step: a hand with a trump it must play plays a trump, as always; a hand without one
(no trump, or only trumps it may withhold) must play a heart if it holds one (or a trump, which is
always allowed); only a hand with neither may play anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rules_engine.cards import (
    ACE_OF_HEARTS,
    FULL_PACK,
    SUIT_NAMES,
    SUITS,
    Card,
    card_list,
    parse_card,
)
from rules_engine.cards import parse_suit as _parse_suit
from rules_engine.errors import N_, Phrase, RulesError

TRUMP = "trump"
"""The follow suit of every trump (AH included)."""

PRIVILEGE_KEYS: tuple[str, ...] = ("5", "J", "AH", "A")
DEFAULT_RENEGE_PRIVILEGE: frozenset[str] = frozenset({"5", "J", "AH"})

CardLike = Card | str


class FollowRules(Protocol):
    """The two house rules this module reads (``HouseRules`` satisfies it)."""

    renege_privilege: frozenset[str]
    ace_of_hearts_follows_hearts: bool
    # Read with getattr (default "trump_lead"), so a value without it still satisfies this.
    # ace_of_hearts_lead: str


# The tables of rules.md, written out as printed there (highest first), so the code and the rules
# can be compared by eye.
_TRUMP_ORDER_TEXT = {
    "H": "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H",
    "D": "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D",
    "C": "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C",
    "S": "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S",
}
_PLAIN_ORDER_TEXT = {
    "H": "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "D": "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD",
    "C": "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C 10C",
    "S": "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
}

TRUMP_ORDERS: dict[str, tuple[Card, ...]] = {
    suit: tuple(parse_card(text) for text in order.split())
    for suit, order in _TRUMP_ORDER_TEXT.items()
}
"""Trumps highest first, per trump suit."""

PLAIN_ORDERS: dict[str, tuple[Card, ...]] = {
    suit: tuple(parse_card(text) for text in order.split())
    for suit, order in _PLAIN_ORDER_TEXT.items()
}
"""Each suit highest first when it is not trumps (hearts without AH)."""

_TRUMP_RANK: dict[tuple[Card, str], int] = {}
_PLAIN_RANK: dict[tuple[Card, str], int] = {}
_STRENGTH: dict[tuple[Card, str], int] = {}
_FOLLOW_SUIT: dict[tuple[Card, str], str] = {}
# (card, trump) -> the privilege keys naming that card, for the trumps a key can name.
_PRIVILEGE_NAMES: dict[tuple[Card, str], frozenset[str]] = {}

for _trump in SUITS:
    for _rank, _card in enumerate(TRUMP_ORDERS[_trump]):
        _TRUMP_RANK[(_card, _trump)] = _rank
        _STRENGTH[(_card, _trump)] = 200 - _rank
        _FOLLOW_SUIT[(_card, _trump)] = TRUMP
    for _suit in SUITS:
        if _suit == _trump:
            continue
        for _rank, _card in enumerate(PLAIN_ORDERS[_suit]):
            _PLAIN_RANK[(_card, _trump)] = _rank
            _STRENGTH[(_card, _trump)] = 100 - _rank
            _FOLLOW_SUIT[(_card, _trump)] = _suit
    for _key, _card in (
        ("5", parse_card("5" + _trump)),
        ("J", parse_card("J" + _trump)),
        ("AH", ACE_OF_HEARTS),
        ("A", parse_card("A" + _trump)),
    ):
        # With hearts trumps, "AH" and "A" both name the ace of hearts.
        _names = _PRIVILEGE_NAMES.get((_card, _trump), frozenset())
        _PRIVILEGE_NAMES[(_card, _trump)] = _names | {_key}
del _trump, _rank, _card, _suit, _key, _names
assert len(_STRENGTH) == len(FULL_PACK) * len(SUITS)


# The same tables seen per trump suit (trump -> card -> value), for the loops below: one lookup
# of the trump per call, then plain card lookups.
_TRUMP_RANK_IN: dict[str, dict[Card, int]] = {trump: {} for trump in SUITS}
_STRENGTH_IN: dict[str, dict[Card, int]] = {trump: {} for trump in SUITS}
_FOLLOW_SUIT_IN: dict[str, dict[Card, str]] = {trump: {} for trump in SUITS}
for (_card, _trump), _value in _TRUMP_RANK.items():
    _TRUMP_RANK_IN[_trump][_card] = _value
for (_card, _trump), _value in _STRENGTH.items():
    _STRENGTH_IN[_trump][_card] = _value
for (_card, _trump), _value in _FOLLOW_SUIT.items():
    _FOLLOW_SUIT_IN[_trump][_card] = _value
del _card, _trump, _value


def _privileged_cards(privilege: frozenset[str], trump: str) -> frozenset[Card]:
    return frozenset(
        card
        for (card, suit), names in _PRIVILEGE_NAMES.items()
        if suit == trump and names & privilege
    )


# Every subset of the privilege keys, for every trump suit: 16 x 4 small sets, built once. The
# subsets are kept as canonical objects (see ``canonical_privilege``) so that a lookup with them
# matches by identity instead of comparing sets.
_CANONICAL_PRIVILEGE: dict[frozenset[str], frozenset[str]] = {}
_PRIVILEGED: dict[tuple[frozenset[str], str], frozenset[Card]] = {}
for _mask in range(1 << len(PRIVILEGE_KEYS)):
    _subset = frozenset(key for bit, key in enumerate(PRIVILEGE_KEYS) if _mask >> bit & 1)
    _CANONICAL_PRIVILEGE[_subset] = _subset
    for _trump in SUITS:
        _PRIVILEGED[(_subset, _trump)] = _privileged_cards(_subset, _trump)
del _mask, _subset, _trump
DEFAULT_RENEGE_PRIVILEGE = _CANONICAL_PRIVILEGE[DEFAULT_RENEGE_PRIVILEGE]
_DEFAULT_PRIVILEGED: dict[str, frozenset[Card]] = {
    trump: _PRIVILEGED[(DEFAULT_RENEGE_PRIVILEGE, trump)] for trump in SUITS
}


def canonical_privilege(keys: frozenset[str]) -> frozenset[str]:
    """The shared frozenset equal to ``keys`` (a subset of ``PRIVILEGE_KEYS``), for fast lookups.

    Raises ``KeyError`` when ``keys`` holds anything but "5", "J", "AH", "A".
    """
    return _CANONICAL_PRIVILEGE[keys]


def _as_trump(trump: str) -> str:
    return trump if trump in SUIT_NAMES else _parse_suit(trump)


def _follow_rules(rules: FollowRules | None, trump: str) -> tuple[frozenset[Card], bool]:
    """(the privileged trump cards, whether AH follows hearts) for ``rules`` (None = defaults)."""
    if rules is None:
        return _DEFAULT_PRIVILEGED[trump], False
    privilege = rules.renege_privilege
    try:
        cards = _PRIVILEGED[(privilege, trump)]
    except (KeyError, TypeError):
        unknown = sorted(str(key) for key in privilege if key not in PRIVILEGE_KEYS)
        if unknown:
            raise RulesError(
                "invalid_house_rule",
                N_("renege_privilege: unknown key(s) %(value)s; allowed: 5, J, AH, A"),
                "/renege_privilege",
                params={"value": ", ".join(unknown)},
            ) from None
        cards = _PRIVILEGED[(frozenset(privilege), trump)]
    return cards, bool(rules.ace_of_hearts_follows_hearts)


def is_trump(card: CardLike, trump: str) -> bool:
    """Whether ``card`` is a trump when ``trump`` is trumps (AH always is)."""
    return _FOLLOW_SUIT[(parse_card(card), _as_trump(trump))] is TRUMP


def trump_rank(card: CardLike, trump: str) -> int | None:
    """Position of ``card`` in the trump order, 0 = highest; None for a plain card."""
    return _TRUMP_RANK.get((parse_card(card), _as_trump(trump)))


def plain_rank(card: CardLike, trump: str) -> int | None:
    """Position of ``card`` in its plain suit's order, 0 = highest; None for a trump."""
    return _PLAIN_RANK.get((parse_card(card), _as_trump(trump)))


def follow_suit(card: CardLike, trump: str) -> str:
    """``TRUMP`` for a trump, else the card's suit letter: what the card counts as when led."""
    return _FOLLOW_SUIT[(parse_card(card), _as_trump(trump))]


def trick_winner(cards: Sequence[CardLike], trump: str, rules: FollowRules | None = None) -> int:
    """Index in ``cards`` (play order, leader first) of the card that takes the trick.

    The highest trump wins; with no trump, the highest card of the suit led; a third suit never
    wins. ``rules`` is accepted for symmetry with ``legal_plays``: no house rule changes the order.
    """
    if not cards:
        raise RulesError("invalid_record", N_("a trick needs at least one card"))
    trump = _as_trump(trump)
    follow = _FOLLOW_SUIT_IN[trump]
    strength = _STRENGTH_IN[trump]
    played = card_list(cards)
    led_suit = follow[played[0]]
    winner = 0
    best = -1
    for index, card in enumerate(played):
        suit = follow[card]
        if (suit is TRUMP or suit == led_suit) and strength[card] > best:
            best = strength[card]
            winner = index
    return winner


def best_trump_index(cards: Sequence[CardLike], trump: str) -> int | None:
    """Index of the highest trump in ``cards`` (any sequence, e.g. all cards played in a hand)."""
    ranks = _TRUMP_RANK_IN[_as_trump(trump)]
    best_index = None
    best_rank = len(FULL_PACK)
    for index, card in enumerate(card_list(cards)):
        rank = ranks.get(card)
        if rank is not None and rank < best_rank:
            best_rank = rank
            best_index = index
    return best_index


def _obligation(
    hand: list[Card], led: Card, trump: str, rules: FollowRules | None
) -> tuple[str, list[Card]]:
    """What the lead obliges this hand to do.

    Returns (led suit, the held cards that create the obligation). The obligation is: if the led
    suit is ``TRUMP`` and that list is non-empty, play a trump; if it is a plain suit and the list
    is non-empty, follow suit or trump; an empty list means the hand may play anything.
    """
    privileged, aces_follow = _follow_rules(rules, trump)
    follow = _FOLLOW_SUIT_IN[trump]
    led_suit = follow[led]
    if led_suit is TRUMP:
        ranks = _TRUMP_RANK_IN[trump]
        led_rank = ranks[led]
        # A privileged trump may be withheld only if it outranks the card led (a lower rank).
        forcing = [
            card
            for card in hand
            if card in ranks and not (card in privileged and ranks[card] < led_rank)
        ]
        if not forcing and _hearts_after_trumps(led, trump, rules):
            hearts = [card for card in hand if follow[card] == "H"]
            if hearts:
                return "H", hearts
        return led_suit, forcing
    holding = [card for card in hand if follow[card] == led_suit]
    if not holding and aces_follow and led_suit == "H" and ACE_OF_HEARTS in hand:
        holding = [ACE_OF_HEARTS]
    return led_suit, holding


def _hearts_after_trumps(led: Card, trump: str, rules: FollowRules | None) -> bool:
    """Whether AH led calls for hearts from a hand without a trump to play
    (``ace_of_hearts_lead`` is ``trump_then_hearts`` and hearts are not trumps)."""
    return (
        led is ACE_OF_HEARTS
        and trump != "H"
        and rules is not None
        and getattr(rules, "ace_of_hearts_lead", "trump_lead") == "trump_then_hearts"
    )


def legal_plays(
    hand: Sequence[CardLike],
    trick: Sequence[CardLike],
    trump: str,
    rules: FollowRules | None = None,
) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (cards so far, leader first).

    Hand order is kept. An empty trick means this hand leads: everything is legal.
    """
    cards = card_list(hand)
    # Checked even when leading, so a bad trump is refused whatever the trick.
    trump = _as_trump(trump)
    if not trick:
        return cards
    led_suit, obliging = _obligation(cards, parse_card(trick[0]), trump, rules)
    if not obliging:
        return cards
    # Following suit or trumping; when trumps are led led_suit is TRUMP, so this is "trumps only".
    follow = _FOLLOW_SUIT_IN[trump]
    return [card for card in cards if (suit := follow[card]) is TRUMP or suit == led_suit]


# The phrases ``why_illegal`` answers with (their templates, named so that a page can word them
# for a player in its own way): a card not held, the ace of hearts calling for hearts
# (``ace_of_hearts_lead`` is ``trump_then_hearts``), a top trump that may not be withheld, a trump
# lead, a suit to follow.
NOT_HELD = N_("the hand did not hold %(card)s")
HEARTS_AFTER_TRUMPS = N_(
    "%(led)s was led (ace_of_hearts_lead is trump_then_hearts), the hand held no "
    "trump it had to play, and it held %(card)s: play a heart or a trump"
)
NOT_WITHHELD = N_(
    "a trump was led and the hand held %(card)s, which may not be withheld when %(led)s is led"
)
TRUMP_LED = N_("a trump was led and the hand held %(card)s")
FOLLOW_SUIT = N_("%(suit)s were led and the hand held %(card)s: follow suit or trump")


def why_illegal(
    hand: Sequence[CardLike],
    trick: Sequence[CardLike],
    card: CardLike,
    trump: str,
    rules: FollowRules | None = None,
) -> Phrase | None:
    """None when ``card`` from ``hand`` may be played to ``trick``; else a short rule phrase.

    The phrase names the rule and a card the hand held that made the play illegal, worded to end
    a sentence the caller starts ("seat 2 played 8H to trick 3, but " + phrase). A card the hand
    does not hold is illegal too ("the hand did not hold 8H"). The phrase is a ``Phrase``: the
    English text, with its template kept for translation (``rules_engine.errors``).
    """
    cards = card_list(hand)
    played = parse_card(card)
    trump = _as_trump(trump)
    if played not in cards:
        return Phrase(NOT_HELD, {"card": played})
    if not trick:
        return None
    follow = _FOLLOW_SUIT_IN[trump]
    led = parse_card(trick[0])
    led_suit = follow[led]
    played_suit = follow[played]
    # A trump, or a card of the suit led, is always legal: only a third-suit card needs a look
    # at the rest of the hand.
    if played_suit is TRUMP or played_suit == led_suit:
        return None
    led_suit, obliging = _obligation(cards, led, trump, rules)
    if not obliging or played_suit == led_suit:
        return None
    held = obliging[0]
    if led is ACE_OF_HEARTS and led_suit == "H":
        return Phrase(HEARTS_AFTER_TRUMPS, {"led": ACE_OF_HEARTS, "card": held})
    if led_suit is TRUMP:
        privileged, _ = _follow_rules(rules, trump)
        if held in privileged:
            return Phrase(NOT_WITHHELD, {"card": held, "led": led})
        return Phrase(TRUMP_LED, {"card": held})
    return Phrase(FOLLOW_SUIT, {"suit": SUIT_NAMES[led_suit], "card": held})

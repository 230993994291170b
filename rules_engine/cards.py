"""Cards of the 52-card pack and parsing of their written forms.

What it does: defines ``Card`` (rank + suit), the full pack, and ``parse_card`` / ``parse_suit``,
which turn the spellings rules.md allows into canonical values. Every card is *interned*: the 52
``Card`` objects are built once at import and ``parse_card`` returns the same object for every
spelling of a card, through one dictionary lookup. That keeps parsing and the order tables of
``order.py`` (keyed by card) fast.

What it does not do: order cards or decide which plays are legal (``order.py``), or check hands
for duplicates (the record validation does that).

Terms and notation:
- *rank*: one of ``RANKS`` ("A", "2" .. "10", "J", "Q", "K"); *suit*: one of ``SUITS``
  ("S" spades, "H" hearts, "D" diamonds, "C" clubs).
- Canonical text is rank then suit: "10D", "AS", "5H". Input may also be lower case, use "T" for
  ten, and the suit symbols ♠ ♥ ♦ ♣ (the emoji form with the U+FE0F variation selector, which phone
  keyboards send, is accepted too). Nothing else is: no spaces, no "1" for ace, no suit first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_engine.errors import N_, Phrase, RulesError

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# Each name is a ``Phrase`` (a str): English as it is, translated where it is a problem's param.
SUIT_NAMES: dict[str, str] = {
    "S": Phrase(N_("spades")),
    "H": Phrase(N_("hearts")),
    "D": Phrase(N_("diamonds")),
    "C": Phrase(N_("clubs")),
}

_SUIT_SPELLINGS: dict[str, tuple[str, ...]] = {
    "S": ("S", "s", "♠", "♠\ufe0f"),
    "H": ("H", "h", "♥", "♥\ufe0f"),
    "D": ("D", "d", "♦", "♦\ufe0f"),
    "C": ("C", "c", "♣", "♣\ufe0f"),
}
_RANK_SPELLINGS: dict[str, tuple[str, ...]] = {rank: (rank, rank.lower()) for rank in RANKS}
_RANK_SPELLINGS["10"] = ("10", "T", "t")


# (rank, suit) -> the one Card object for it. Filled as FULL_PACK is built below.
_INTERNED: dict[tuple[str, str], Card] = {}


# Why eq=False: every Card is interned (``Card.__new__`` hands back the existing object), so
# identity *is* value equality, and the inherited identity hash is computed in C. The generated
# value hash would be a Python-level call (~170 ns) on every lookup in the order tables.
@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card; there is exactly one object per card, so ``==`` and ``is`` agree.

    ``Card("10", "D")`` returns the interned card; an unknown rank or suit raises
    ``RulesError("invalid_card")``. Prefer ``parse_card`` for text.
    """

    rank: str
    suit: str

    def __new__(cls, rank: str, suit: str) -> Card:
        try:
            return _INTERNED[(rank, suit)]
        except (KeyError, TypeError):
            pass
        if not (
            isinstance(rank, str)
            and isinstance(suit, str)
            and rank in _RANK_SPELLINGS
            and suit in _SUIT_SPELLINGS
        ):
            raise RulesError(
                "invalid_card",
                N_(
                    "not a card: rank %(rank)r, suit %(suit)r; ranks are %(value)s and suits "
                    "%(value2)s"
                ),
                params={
                    "rank": rank,
                    "suit": suit,
                    "value": " ".join(RANKS),
                    "value2": " ".join(SUITS),
                },
            )
        card = object.__new__(cls)
        _INTERNED[(rank, suit)] = card
        return card

    def __reduce__(self) -> tuple:
        # Pickling and copying go through Card(...), so they return the interned object too.
        return (Card, (self.rank, self.suit))

    def __str__(self) -> str:
        return self.rank + self.suit


FULL_PACK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
ACE_OF_HEARTS: Card = Card("A", "H")

# Every accepted spelling -> its interned Card. Built once; 52 cards x 3 or 2 rank spellings x 4
# suit spellings. Keys also include the Card objects themselves, so parse_card(card) is the same
# single lookup.
_CARD_BY_SPELLING: dict[str | Card, Card] = {}
for _card in FULL_PACK:
    _CARD_BY_SPELLING[_card] = _card
    for _rank_text in _RANK_SPELLINGS[_card.rank]:
        for _suit_text in _SUIT_SPELLINGS[_card.suit]:
            _CARD_BY_SPELLING[_rank_text + _suit_text] = _card
del _card, _rank_text, _suit_text

_SUIT_BY_SPELLING: dict[str, str] = {
    spelling: suit for suit, spellings in _SUIT_SPELLINGS.items() for spelling in spellings
}


def parse_card(text: str | Card) -> Card:
    """The interned ``Card`` for ``text`` (any accepted spelling, or a Card).

    Raises ``RulesError("invalid_card")`` with pointer "" for anything else; callers that know
    where the value came from set the pointer (``error.with_pointer(...)``).
    """
    try:
        return _CARD_BY_SPELLING[text]
    except (KeyError, TypeError):
        # TypeError: an unhashable value (a list, a dict) sent where a card was expected.
        detail, params = _describe_bad_card(text)
        raise RulesError("invalid_card", detail, params=params) from None


def parse_cards(texts: object, pointer: str = "") -> tuple[Card, ...]:
    """Parse a sequence of cards; a bad one raises ``invalid_card`` pointing at its index.

    ``pointer`` is where the sequence sits in the record ("/deal/2"); the error points at
    "<pointer>/<index>". Duplicates are not checked here.
    """
    if not isinstance(texts, list | tuple):
        raise RulesError(
            "invalid_record",
            N_("expected a list of cards, got %(name)s"),
            pointer,
            params={"name": type(texts).__name__},
        )
    try:
        # The common case, all good, stays in C: one dict lookup per card, no Python frames.
        return tuple(map(_CARD_BY_SPELLING.__getitem__, texts))
    except (KeyError, TypeError):
        pass
    for index, text in enumerate(texts):
        if not isinstance(text, Card) and (
            not isinstance(text, str) or text not in _CARD_BY_SPELLING
        ):
            detail, params = _describe_bad_card(text)
            raise RulesError("invalid_card", detail, f"{pointer}/{index}", params=params)
    raise AssertionError("unreachable: a lookup failed but every card parsed")


def card_list(texts: Sequence[str | Card]) -> list[Card]:
    """``[parse_card(text) for text in texts]``, done in C when every card is good."""
    try:
        return list(map(_CARD_BY_SPELLING.__getitem__, texts))
    except (KeyError, TypeError):
        return [parse_card(text) for text in texts]


def parse_suit(text: str) -> str:
    """The canonical suit letter for a trump name: "S"/"H"/"D"/"C", lower case, or a symbol.

    Raises ``RulesError("invalid_trump")`` for anything else.
    """
    try:
        return _SUIT_BY_SPELLING[text]
    except (KeyError, TypeError):
        raise RulesError(
            "invalid_trump",
            N_("not a suit: %(text)r; trumps are one of S, H, D, C (or ♠ ♥ ♦ ♣)"),
            params={"text": text},
        ) from None


def _describe_bad_card(text: object) -> tuple[str, dict]:
    """The ``N_`` template and params of an invalid_card detail."""
    if isinstance(text, str):
        return (
            N_(
                "not a card: %(text)r; write the rank (A 2 3 4 5 6 7 8 9 10 J Q K, T for ten) "
                "then the suit (S H D C or ♠ ♥ ♦ ♣), e.g. 10D"
            ),
            {"text": text},
        )
    return (
        N_("not a card: expected text such as 10D, got %(name)s"),
        {"name": type(text).__name__},
    )


# Where a record holds cards (rules.md "Recording a hand"): single cards, lists, lists of lists.
_CARD_KEYS = frozenset({"turn_up"})
_CARD_LIST_KEYS = frozenset({"kitty", "discard"})
_CARD_LIST_LIST_KEYS = frozenset({"deal", "tricks"})


def _canonical_card(value: object) -> object:
    card = _CARD_BY_SPELLING.get(value) if isinstance(value, str) else None
    return str(card) if card is not None else value


def _canonical_cards(value: object) -> object:
    if isinstance(value, list):
        return [_canonical_card(item) for item in value]
    return value


def canonical_record(record: dict) -> dict:
    """A copy of a hand record with every card and trump in its canonical spelling.

    The one rule for spellings (module docstring): lower case, "T" and suit symbols are accepted
    wherever a card or a suit is read, and stored as the canonical text ("qs" -> "QS", "t♥" ->
    "10H"), so stored records compare and display alike. Values that are not cards are left as
    they are: the engine refuses them with their pointer before anything is stored.
    """
    result = dict(record)
    for key, value in record.items():
        if key in _CARD_KEYS:
            result[key] = _canonical_card(value)
        elif key in _CARD_LIST_KEYS:
            result[key] = _canonical_cards(value)
        elif key in _CARD_LIST_LIST_KEYS and isinstance(value, list):
            result[key] = [_canonical_cards(item) for item in value]
        elif key == "trump" and isinstance(value, str):
            result[key] = _SUIT_BY_SPELLING.get(value, value)
        elif key == "rob" and isinstance(value, dict) and "discard" in value:
            result[key] = {**value, "discard": _canonical_card(value["discard"])}
    return result

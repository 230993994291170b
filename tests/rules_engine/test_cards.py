"""Cards: the pack, interning, every accepted spelling of a card and a suit, and rejections."""

import copy
import dataclasses
import pickle

import pytest

from rules_engine.cards import (
    ACE_OF_HEARTS,
    FULL_PACK,
    RANKS,
    SUITS,
    Card,
    card_list,
    parse_card,
    parse_cards,
    parse_suit,
)
from rules_engine.errors import RulesError


def test_full_pack_is_52_distinct_cards_in_suit_then_rank_order():
    assert len(FULL_PACK) == 52
    assert len(set(FULL_PACK)) == 52
    assert [str(card) for card in FULL_PACK[:13]] == [
        "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS",
    ]  # fmt: skip
    assert {card.suit for card in FULL_PACK} == {"S", "H", "D", "C"}
    assert SUITS == ("S", "H", "D", "C")
    assert RANKS == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def test_ace_of_hearts_constant():
    assert ACE_OF_HEARTS.rank == "A"
    assert ACE_OF_HEARTS.suit == "H"
    assert str(ACE_OF_HEARTS) == "AH"
    assert parse_card("AH") is ACE_OF_HEARTS


@pytest.mark.parametrize(
    "text",
    ["10D", "TD", "td", "10d", "tD", "Td", "10♦", "T♦", "t♦", "10♦\ufe0f"],
)
def test_every_spelling_of_ten_of_diamonds_is_the_same_card(text):
    card = parse_card(text)
    assert card is parse_card("10D")
    assert str(card) == "10D"
    assert (card.rank, card.suit) == ("10", "D")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("as", "AS"),
        ("A♠", "AS"),
        ("a♠", "AS"),
        ("5h", "5H"),
        ("5♥", "5H"),
        ("j♣", "JC"),
        ("Jc", "JC"),
        ("qD", "QD"),
        ("k♥", "KH"),
        ("2s", "2S"),
        ("9♣\ufe0f", "9C"),
    ],
)
def test_other_spellings(text, canonical):
    assert str(parse_card(text)) == canonical


def test_every_card_round_trips_through_its_canonical_text():
    for card in FULL_PACK:
        assert parse_card(str(card)) is card
        assert parse_card(str(card).lower()) is card


def test_cards_are_interned():
    assert Card("10", "D") is parse_card("10D")
    assert parse_card(Card("J", "S")) is parse_card("JS")
    assert Card("10", "D") == parse_card("td")
    assert Card("10", "D") != Card("J", "D")
    assert hash(Card("5", "H")) == hash(parse_card("5h"))
    assert copy.copy(parse_card("QC")) is parse_card("QC")
    assert copy.deepcopy(parse_card("QC")) is parse_card("QC")
    assert pickle.loads(pickle.dumps(parse_card("QC"))) is parse_card("QC")
    assert dataclasses.replace(parse_card("QC"), rank="K") is parse_card("KC")


def test_card_is_frozen_and_not_equal_to_its_text():
    card = parse_card("7C")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = "8"  # type: ignore[misc]
    assert card != "7C"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1D",
        "11D",
        "10",
        "D10",
        "♦10",
        "AX",
        "A",
        " AS",
        "AS ",
        "A S",
        "10DD",
        "0D",
        "AH♥",
        "ah.",
    ],
)
def test_bad_spellings_are_invalid_card(text):
    with pytest.raises(RulesError) as caught:
        parse_card(text)
    assert caught.value.code == "invalid_card"
    assert caught.value.pointer == ""
    assert caught.value.detail == (
        f"not a card: {text!r}; write the rank (A 2 3 4 5 6 7 8 9 10 J Q K, T for ten) "
        "then the suit (S H D C or ♠ ♥ ♦ ♣), e.g. 10D"
    )
    assert caught.value.errors == [caught.value]


@pytest.mark.parametrize(
    ("value", "type_name"),
    [(None, "NoneType"), (10, "int"), (["AS"], "list"), ({"rank": "A"}, "dict"), (True, "bool")],
)
def test_non_text_is_invalid_card(value, type_name):
    with pytest.raises(RulesError) as caught:
        parse_card(value)
    assert caught.value.code == "invalid_card"
    assert caught.value.detail == f"not a card: expected text such as 10D, got {type_name}"


@pytest.mark.parametrize(("rank", "suit"), [("1", "D"), ("10", "X"), ("t", "D"), (10, "D")])
def test_constructing_a_card_that_does_not_exist_is_invalid_card(rank, suit):
    with pytest.raises(RulesError) as caught:
        Card(rank, suit)
    assert caught.value.code == "invalid_card"
    assert caught.value.detail == (
        f"not a card: rank {rank!r}, suit {suit!r}; "
        "ranks are A 2 3 4 5 6 7 8 9 10 J Q K and suits S H D C"
    )


@pytest.mark.parametrize(
    ("text", "suit"),
    [("S", "S"), ("s", "S"), ("♠", "S"), ("H", "H"), ("h", "H"), ("♥", "H"), ("♥\ufe0f", "H"),
     ("D", "D"), ("d", "D"), ("♦", "D"), ("C", "C"), ("c", "C"), ("♣", "C")],
)  # fmt: skip
def test_parse_suit(text, suit):
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["", "X", "spades", "SH", " S", None, 1, ["S"]])
def test_bad_suit_is_invalid_trump(text):
    with pytest.raises(RulesError) as caught:
        parse_suit(text)
    assert caught.value.code == "invalid_trump"
    assert caught.value.detail == (
        f"not a suit: {text!r}; trumps are one of S, H, D, C (or ♠ ♥ ♦ ♣)"
    )


def test_parse_cards_returns_interned_tuple():
    cards = parse_cards(["10d", "AH", parse_card("KS")], "/deal/0")
    assert cards == (parse_card("10D"), ACE_OF_HEARTS, parse_card("KS"))
    assert parse_cards([], "/deal/0") == ()


def test_parse_cards_points_at_the_bad_card():
    with pytest.raises(RulesError) as caught:
        parse_cards(["AS", "KS", "1S", "ZZ"], "/deal/2")
    assert caught.value.code == "invalid_card"
    assert caught.value.pointer == "/deal/2/2"
    assert caught.value.detail.startswith("not a card: '1S'")


def test_parse_cards_points_at_an_unhashable_card():
    with pytest.raises(RulesError) as caught:
        parse_cards(["AS", ["KS"]], "/tricks/0")
    assert (caught.value.code, caught.value.pointer) == ("invalid_card", "/tricks/0/1")
    assert caught.value.detail == "not a card: expected text such as 10D, got list"


def test_parse_cards_rejects_a_non_list():
    with pytest.raises(RulesError) as caught:
        parse_cards("AS KS", "/deal/1")
    assert caught.value.as_dict() == {
        "code": "invalid_record",
        "detail": "expected a list of cards, got str",
        "pointer": "/deal/1",
    }


def test_card_list():
    assert card_list(("as", "T♥")) == [parse_card("AS"), parse_card("10H")]
    with pytest.raises(RulesError) as caught:
        card_list(["AS", "XX"])
    assert caught.value.code == "invalid_card"


def test_rules_error_shape_and_combine():
    single = RulesError("invalid_card", "not a card: 'X'", "/deal/0/1")
    assert single.as_dict() == {
        "code": "invalid_card",
        "detail": "not a card: 'X'",
        "pointer": "/deal/0/1",
    }
    assert single.errors == [single]
    assert isinstance(single, ValueError)
    assert str(single) == "not a card: 'X'"
    assert single.with_pointer("/deal/1/1").as_dict()["pointer"] == "/deal/1/1"

    other = RulesError("invalid_card", "not a card: 'Y'", "/deal/0/2")
    combined = RulesError.combine([single, other])
    assert combined.code == "invalid_card"
    assert combined.pointer == ""
    assert combined.detail == "not a card: 'X'; not a card: 'Y'"
    assert combined.as_list() == [single.as_dict(), other.as_dict()]
    assert RulesError.combine([single]) is single

    mixed = RulesError.combine([single, RulesError("illegal_play", "no", "/tricks/0/1")])
    assert mixed.code == "invalid_record"
    assert [error.code for error in mixed.errors] == ["invalid_card", "illegal_play"]

"""Card order: every row of rules.md's two order tables, checked as a full ordering.

The expected orders are copied here from rules.md by hand (not read from the engine), and each is
checked three ways: trump_rank / plain_rank give positions 0, 1, 2, ...; for every pair of cards
in a row the higher one takes the trick whichever was led; and the row holds exactly the cards
the engine treats as trumps / as that plain suit.
"""

import itertools

import pytest

from rules_engine.cards import ACE_OF_HEARTS, FULL_PACK, parse_card
from rules_engine.errors import RulesError
from rules_engine.order import (
    TRUMP,
    best_trump_index,
    follow_suit,
    is_trump,
    plain_rank,
    trick_winner,
    trump_rank,
)

TRUMP_TABLE = {
    "H": "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H",
    "D": "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D",
    "C": "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C",
    "S": "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S",
}
PLAIN_TABLE = {
    "H": "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "D": "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD",
    "C": "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C 10C",
    "S": "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
}


@pytest.mark.parametrize("trump", ["H", "D", "C", "S"])
def test_trump_row_ranks(trump):
    row = TRUMP_TABLE[trump].split()
    assert [trump_rank(card, trump) for card in row] == list(range(len(row)))
    assert len(row) == (13 if trump == "H" else 14)


@pytest.mark.parametrize("trump", ["H", "D", "C", "S"])
def test_trump_row_is_exactly_the_trumps(trump):
    trumps = {str(card) for card in FULL_PACK if is_trump(card, trump)}
    assert trumps == set(TRUMP_TABLE[trump].split())
    non_trumps = [card for card in FULL_PACK if str(card) not in trumps]
    assert all(trump_rank(card, trump) is None for card in non_trumps)
    assert all(follow_suit(card, trump) == card.suit for card in non_trumps)


@pytest.mark.parametrize("trump", ["H", "D", "C", "S"])
def test_trump_row_pairwise_higher_wins_whichever_is_led(trump):
    row = TRUMP_TABLE[trump].split()
    for higher, lower in itertools.combinations(row, 2):
        assert trick_winner([higher, lower], trump) == 0, (higher, lower)
        assert trick_winner([lower, higher], trump) == 1, (lower, higher)


@pytest.mark.parametrize(
    ("suit", "trump"),
    [(suit, trump) for suit in "HDCS" for trump in "HDCS" if suit != trump],
)
def test_plain_row_ranks_and_pairs(suit, trump):
    row = PLAIN_TABLE[suit].split()
    assert [plain_rank(card, trump) for card in row] == list(range(len(row)))
    assert {str(card) for card in FULL_PACK if follow_suit(card, trump) == suit} == set(row)
    for higher, lower in itertools.combinations(row, 2):
        assert trick_winner([higher, lower], trump) == 0, (higher, lower)
        assert trick_winner([lower, higher], trump) == 1, (lower, higher)


def test_plain_rank_is_none_for_trumps():
    assert plain_rank("5S", "S") is None
    assert plain_rank("AH", "C") is None
    assert plain_rank("AD", "D") is None
    assert plain_rank("AD", "S") == 12


def test_exact_positions_of_notable_cards():
    assert trump_rank("5H", "H") == 0
    assert trump_rank("AH", "H") == 2
    assert trump_rank("KH", "H") == 3
    assert trump_rank("AH", "S") == 2
    assert trump_rank("AS", "S") == 3
    assert trump_rank("2S", "S") == 6
    assert trump_rank("10S", "S") == 13
    assert trump_rank("10D", "D") == 6
    assert trump_rank("2D", "D") == 13
    assert plain_rank("AC", "H") == 3
    assert plain_rank("10C", "H") == 12
    assert plain_rank("KH", "S") == 0
    assert plain_rank("2H", "S") == 11


@pytest.mark.parametrize("trump", ["S", "H", "D", "C"])
def test_ace_of_hearts_is_always_a_trump_never_a_heart(trump):
    assert is_trump(ACE_OF_HEARTS, trump) is True
    assert follow_suit("AH", trump) == TRUMP
    assert plain_rank("AH", trump) is None


def test_ace_of_hearts_beats_the_king_of_hearts_led_when_spades_are_trumps():
    assert trick_winner(["KH", "QH", "AH"], "S") == 2


def test_ace_of_hearts_led_is_a_trump_lead_and_loses_to_higher_trumps():
    assert trick_winner(["AH", "KH", "2S"], "S") == 0
    assert trick_winner(["AH", "JS", "2S"], "S") == 1
    assert trick_winner(["AH", "KD", "KC"], "C") == 0


def test_highest_trump_wins_over_any_plain_card():
    assert trick_winner(["KD", "QD", "10S", "JD"], "S") == 2
    assert trick_winner(["KD", "10S", "2S", "9S"], "S") == 2


def test_highest_of_the_suit_led_wins_without_trumps():
    assert trick_winner(["9D", "KD", "3D"], "S") == 1
    assert trick_winner(["2C", "AC", "10C"], "H") == 1


def test_third_suit_never_wins():
    assert trick_winner(["2D", "KC", "AD"], "S") == 0
    assert trick_winner(["AD", "KC", "KH"], "S") == 0
    assert trick_winner(["10C", "KD", "KH", "QD"], "S") == 0


def test_one_card_trick_is_won_by_its_leader():
    assert trick_winner(["3C"], "H") == 0


def test_trump_spellings_are_accepted():
    assert trick_winner(["2S", "3D"], "♦") == 1
    assert trick_winner(["2S", "3D"], "d") == 1
    assert is_trump("td", "♦") is True
    assert trump_rank(parse_card("JD"), "D") == 1


def test_empty_trick_is_an_error():
    with pytest.raises(RulesError) as caught:
        trick_winner([], "S")
    assert caught.value.code == "invalid_record"
    assert caught.value.detail == "a trick needs at least one card"


def test_bad_trump_and_bad_card_are_errors():
    with pytest.raises(RulesError) as caught:
        trick_winner(["2S", "3S"], "X")
    assert caught.value.code == "invalid_trump"
    with pytest.raises(RulesError) as caught:
        trick_winner(["2S", "3Z"], "S")
    assert caught.value.code == "invalid_card"
    with pytest.raises(RulesError) as caught:
        is_trump("11S", "S")
    assert caught.value.code == "invalid_card"


def test_best_trump_index():
    cards = ["KD", "2S", "AH", "QS", "5D", "JS"]
    assert best_trump_index(cards, "S") == 5
    assert best_trump_index(cards, "D") == 4
    assert best_trump_index(cards, "C") == 2
    assert best_trump_index(["KD", "QC", "2H"], "S") is None
    assert best_trump_index([], "S") is None

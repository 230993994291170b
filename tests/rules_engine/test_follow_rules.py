"""Follow rules (rules.md "Follow rules"): hand-worked examples, the house-rule variants that
change them (renege_privilege, ace_of_hearts_follows_hearts), and properties tying
``legal_plays`` to ``why_illegal``.

Spades are trumps unless a test says otherwise.
"""

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine.cards import FULL_PACK, parse_card
from rules_engine.errors import RulesError
from rules_engine.house_rules import HouseRules
from rules_engine.order import TRUMP, follow_suit, legal_plays, why_illegal


def legal(hand, trick, trump="S", rules=None):
    return [str(card) for card in legal_plays(hand.split(), trick.split(), trump, rules)]


def why(hand, trick, card, trump="S", rules=None):
    return why_illegal(hand.split(), trick.split(), card, trump, rules)


def privilege(*keys, aces_follow=False):
    """Any object with the two attributes is accepted; HouseRules is tested separately below."""
    return SimpleNamespace(
        renege_privilege=frozenset(keys), ace_of_hearts_follows_hearts=aces_follow
    )


# --- leading -----------------------------------------------------------------------------------


def test_the_leader_may_lead_anything():
    assert legal("4D KC 9S AH", "") == ["4D", "KC", "9S", "AH"]
    assert why("4D KC 9S AH", "", "KC") is None


# --- a plain suit is led -----------------------------------------------------------------------


def test_holding_the_suit_led_means_follow_or_trump():
    assert legal("4D KC 9S 2H AH", "3D") == ["4D", "9S", "AH"]


def test_third_suit_discard_is_refused_while_holding_the_suit():
    expected = "diamonds were led and the hand held 4D: follow suit or trump"
    assert why("4D KC 9S 2H", "3D", "KC") == expected
    assert why("4D KC 9S 2H", "3D", "2H") == expected
    assert why("KC 2H 9D 4D", "3D KD", "KC") == (
        "diamonds were led and the hand held 9D: follow suit or trump"
    )


def test_trumping_is_allowed_while_holding_the_suit():
    assert why("4D KC 9S 2H", "3D", "9S") is None
    assert why("4D KC 9S 2H", "3D", "4D") is None
    assert why("4D KC AH", "3D", "AH") is None


def test_void_player_may_play_anything_and_is_never_forced_to_trump():
    assert legal("KC 9S 2H", "3D") == ["KC", "9S", "2H"]
    assert why("KC 9S 2H", "3D", "KC") is None
    assert why("KC 9S 2H", "3D 4S", "2H") is None


def test_plain_lead_is_judged_by_the_card_led_not_by_a_trump_played_later():
    # Clubs led, then trumped: a player holding clubs must still follow clubs or trump.
    assert legal("QC 4H 7S", "2C 5S") == ["QC", "7S"]
    assert why("QC 4H 7S", "2C 5S", "4H") == (
        "clubs were led and the hand held QC: follow suit or trump"
    )


def test_ace_of_hearts_is_not_a_heart_when_hearts_are_led():
    # The hand's only "heart" is AH, a trump: it holds no hearts, so anything goes.
    assert legal("AH KC 9D", "KH") == ["AH", "KC", "9D"]
    assert why("AH KC 9D", "KH", "KC") is None


def test_holding_hearts_and_the_ace_of_hearts():
    assert legal("AH 4H KC", "KH") == ["AH", "4H"]
    assert why("AH 4H KC", "KH", "KC") == (
        "hearts were led and the hand held 4H: follow suit or trump"
    )


# --- a trump is led ----------------------------------------------------------------------------


def test_trump_led_forces_a_trump():
    assert legal("10S KD 4H", "KS") == ["10S"]
    assert why("10S KD 4H", "KS", "KD") == "a trump was led and the hand held 10S"


def test_trump_led_with_no_trumps_in_hand_allows_anything():
    assert legal("KD QH 2C", "KS") == ["KD", "QH", "2C"]


def test_ace_of_hearts_led_is_a_trump_lead():
    assert legal("KH 3D 4C", "AH", "D") == ["3D"]
    assert why("KH 3D 4C", "AH", "KH", "D") == "a trump was led and the hand held 3D"
    # ...and hearts held do not count as following it.
    assert legal("KH 2H 4C", "AH", "D") == ["KH", "2H", "4C"]


def test_five_led_forces_even_the_jack():
    assert legal("JS KD", "5S") == ["JS"]
    assert why("JS KD", "5S", "KD") == (
        "a trump was led and the hand held JS, which may not be withheld when 5S is led"
    )
    assert legal("AH KD", "5S") == ["AH"]


def test_jack_led_lets_only_the_five_be_withheld():
    assert legal("5S KD", "JS") == ["5S", "KD"]
    assert legal("AH KD", "JS") == ["AH"]
    assert why("AH KD", "JS", "KD") == (
        "a trump was led and the hand held AH, which may not be withheld when JS is led"
    )


def test_ace_of_hearts_led_lets_the_five_and_jack_be_withheld():
    assert legal("5S JS KD", "AH") == ["5S", "JS", "KD"]
    # The ace of trumps is not privileged by default: it must be played.
    assert legal("AS KD", "AH") == ["AS"]


def test_low_trump_led_lets_all_three_be_withheld():
    assert legal("5S JS AH KD", "2S") == ["5S", "JS", "AH", "KD"]
    assert legal("5S 10S KD", "2S") == ["5S", "10S"]
    assert why("5S 10S KD", "2S", "KD") == "a trump was led and the hand held 10S"


def test_a_higher_trump_played_later_does_not_change_what_may_be_withheld():
    # 2S led, then the 5 played on it: the jack may still be withheld.
    assert legal("JS KD", "2S 5S") == ["JS", "KD"]
    assert why("JS KD", "2S 5S", "KD") is None
    # AH led, then the 5: the jack may still be withheld.
    assert legal("JS KD", "AH 5S") == ["JS", "KD"]
    # 5 led, then a low trump: the jack is still forced.
    assert legal("JS KD", "5S 2S") == ["JS"]


def test_a_hand_of_only_withholdable_trumps_may_play_anything_including_them():
    assert legal("5S JS AH 9D 2C", "KS") == ["5S", "JS", "AH", "9D", "2C"]
    assert why("5S JS AH 9D 2C", "KS", "9D") is None
    assert why("5S JS AH 9D 2C", "KS", "5S") is None


def test_a_privileged_trump_may_still_be_played_when_another_trump_is_forced():
    assert legal("5S 3S KD", "KS") == ["5S", "3S"]


def test_with_hearts_trumps_the_ace_of_hearts_is_simply_a_trump():
    assert legal("AH KC", "4H", "H") == ["AH", "KC"]
    assert legal("AH KC", "JH", "H") == ["AH"]
    assert legal("AH KC", "2S", "H") == ["AH", "KC"]


# --- house rule renege_privilege -----------------------------------------------------------------


def test_no_privilege_means_every_trump_must_follow_a_trump_lead():
    assert legal("5S KD", "2S", rules=privilege()) == ["5S"]
    assert why("5S KD", "2S", "KD", rules=privilege()) == "a trump was led and the hand held 5S"


def test_only_the_five_privileged():
    assert legal("JS KD", "2S", rules=privilege("5")) == ["JS"]
    assert legal("5S KD", "2S", rules=privilege("5")) == ["5S", "KD"]
    assert legal("AH KD", "2S", rules=privilege("5")) == ["AH"]


def test_only_the_ace_of_hearts_privileged():
    assert legal("JS AH KD", "2S", rules=privilege("AH")) == ["JS", "AH"]
    assert legal("AH KD", "2S", rules=privilege("AH")) == ["AH", "KD"]


def test_ace_of_trumps_privileged():
    assert legal("AS KD", "KS", rules=privilege("5", "J", "AH", "A")) == ["AS", "KD"]
    assert legal("AS KD", "KS") == ["AS"]
    # AH outranks the ace of spades, so AH led forces it.
    assert legal("AS KD", "AH", rules=privilege("A")) == ["AS"]
    assert legal("AD KC", "2D", "D", rules=privilege("A")) == ["AD", "KC"]


def test_with_hearts_trumps_key_a_names_the_ace_of_hearts():
    assert legal("AH KD", "KH", "H", rules=privilege("A")) == ["AH", "KD"]
    assert legal("AH KD", "KH", "H", rules=privilege("5")) == ["AH"]


def test_house_rules_value_is_accepted():
    five_only = HouseRules.for_game("45", renege_privilege=["5"])
    assert legal("JS KD", "2S", rules=five_only) == ["JS"]
    assert legal("JS KD", "2S", rules=HouseRules.for_game("45")) == ["JS", "KD"]
    with_ace = HouseRules.for_game("110", renege_privilege=["5", "J", "AH", "A"])
    assert legal("AC 3D", "4C", "C", rules=with_ace) == ["AC", "3D"]


# --- house rule ace_of_hearts_follows_hearts ------------------------------------------------------


def test_ace_of_hearts_follows_hearts_variant():
    aces_follow = privilege("5", "J", "AH", aces_follow=True)
    # Its only "heart" is AH: it must follow with AH (a trump) or another trump.
    assert legal("AH KC 9D", "KH", rules=aces_follow) == ["AH"]
    assert legal("AH KC 9S", "KH", rules=aces_follow) == ["AH", "9S"]
    assert why("AH KC 9D", "KH", "KC", rules=aces_follow) == (
        "hearts were led and the hand held AH: follow suit or trump"
    )
    # With real hearts too, nothing changes: AH is legal either way.
    assert legal("AH 4H KC", "KH", rules=aces_follow) == ["AH", "4H"]
    # Other suits led: AH is just a trump.
    assert legal("AH KC 9D", "2D", rules=aces_follow) == ["AH", "9D"]
    assert legal("AH KC", "2D", rules=aces_follow) == ["AH", "KC"]
    # AH led is still a trump lead, and AH still wins as a trump.
    assert legal("KH 3S 4C", "AH", rules=aces_follow) == ["3S"]
    # With hearts trumps the variant changes nothing.
    assert legal("AH KC", "2S", "H", rules=aces_follow) == ["AH", "KC"]


def test_ace_of_hearts_follows_hearts_from_house_rules():
    rules = HouseRules.for_game("25", ace_of_hearts_follows_hearts=True)
    assert legal("AH KC 9D", "KH", rules=rules) == ["AH"]
    assert legal("AH KC 9D", "KH", rules=HouseRules.for_game("25")) == ["AH", "KC", "9D"]


# --- inputs ------------------------------------------------------------------------------------


def test_card_not_in_hand():
    assert why("4D KC", "3D", "8H") == "the hand did not hold 8H"


@pytest.mark.parametrize("trick", ["", "3D"])
def test_bad_trump_is_refused_even_when_leading(trick):
    with pytest.raises(RulesError) as caught:
        legal("4D KC", trick, trump="X")
    assert caught.value.code == "invalid_trump"
    with pytest.raises(RulesError) as caught:
        why("4D KC", trick, "KC", trump="X")
    assert caught.value.code == "invalid_trump"


def test_hand_order_is_kept_and_spellings_accepted():
    played = legal_plays(["td", "K♣", "2♠", "JD"], ["3♦"], "♠")
    assert played == [parse_card("10D"), parse_card("2S"), parse_card("JD")]
    assert played[0] is parse_card("10D")


# --- properties ----------------------------------------------------------------------------------

cards_strategy = st.lists(st.sampled_from(FULL_PACK), min_size=2, max_size=8, unique=True)
privilege_strategy = st.frozensets(st.sampled_from(["5", "J", "AH", "A"]))


@given(
    cards=cards_strategy,
    trump=st.sampled_from("SHDC"),
    keys=privilege_strategy,
    aces_follow=st.booleans(),
)
def test_legal_plays_and_why_illegal_agree(cards, trump, keys, aces_follow):
    led, hand = cards[0], cards[1:]
    rules = privilege(*keys, aces_follow=aces_follow)
    allowed = legal_plays(hand, [led], trump, rules)
    assert allowed  # some card is always playable
    for card in hand:
        reason = why_illegal(hand, [led], card, trump, rules)
        assert (reason is None) == (card in allowed), (card, reason)
        if reason is not None:
            assert str(card) not in reason


@given(cards=cards_strategy, trump=st.sampled_from("SHDC"))
def test_a_trump_or_the_suit_led_is_always_legal(cards, trump):
    led, hand = cards[0], cards[1:]
    allowed = legal_plays(hand, [led], trump)
    led_suit = follow_suit(led, trump)
    for card in hand:
        if follow_suit(card, trump) in (TRUMP, led_suit) and led_suit != TRUMP:
            assert card in allowed
        if led_suit == TRUMP and follow_suit(card, trump) == TRUMP:
            assert card in allowed

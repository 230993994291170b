"""The classic Forty-Five app's options: ``ace_of_hearts_lead``, ``rob_discard`` and the
``classic_45`` preset, with worked cases from the rule texts (both values of both options)."""

import pytest

from rules_engine import HouseRules, RulesError, legal_plays, new_game, why_illegal
from rules_engine.house_rules import ALL_KEYS
from rules_engine.presets import PRESETS, preset

CLASSIC_LEAD = HouseRules.for_game("45", ace_of_hearts_lead="trump_then_hearts")
PLAIN_LEAD = HouseRules.for_game("45")


def texts(cards):
    return [str(card) for card in cards]


# --- ace_of_hearts_lead: the follow rules -------------------------------------------------------


def test_no_trump_holding_a_heart_trump_lead_plays_anything():
    # "AH led is a trump lead, whatever the trumps": no trump held, so any card.
    assert texts(legal_plays(["7H", "3C", "2D"], ["AH"], "S", PLAIN_LEAD)) == ["7H", "3C", "2D"]


def test_no_trump_holding_a_heart_trump_then_hearts_must_play_the_heart():
    assert texts(legal_plays(["7H", "3C", "2D"], ["AH"], "S", CLASSIC_LEAD)) == ["7H"]
    assert why_illegal(["7H", "3C", "2D"], ["AH"], "3C", "S", CLASSIC_LEAD) == (
        "AH was led (ace_of_hearts_lead is trump_then_hearts), the hand held no trump it had "
        "to play, and it held 7H: play a heart or a trump"
    )
    assert why_illegal(["7H", "3C", "2D"], ["AH"], "3C", "S", PLAIN_LEAD) is None


def test_a_trump_to_play_comes_first_under_both_values():
    for rules in (PLAIN_LEAD, CLASSIC_LEAD):
        assert texts(legal_plays(["4S", "7H", "3C"], ["AH"], "S", rules)) == ["4S"]
    assert why_illegal(["4S", "7H", "3C"], ["AH"], "7H", "S", CLASSIC_LEAD) == (
        "a trump was led and the hand held 4S"
    )


def test_only_a_withheld_trump_then_the_heart_is_called_for():
    # JS may be withheld when AH is led; then trump_then_hearts asks for a heart (or a trump).
    assert texts(legal_plays(["JS", "7H", "3C"], ["AH"], "S", PLAIN_LEAD)) == ["JS", "7H", "3C"]
    assert texts(legal_plays(["JS", "7H", "3C"], ["AH"], "S", CLASSIC_LEAD)) == ["JS", "7H"]


def test_neither_trump_nor_heart_plays_anything_under_both_values():
    for rules in (PLAIN_LEAD, CLASSIC_LEAD):
        assert texts(legal_plays(["3C", "2D"], ["AH"], "S", rules)) == ["3C", "2D"]


def test_with_hearts_trumps_the_option_changes_nothing():
    # AH is then simply a trump of hearts; a hand without trumps has no heart either.
    for rules in (PLAIN_LEAD, CLASSIC_LEAD):
        assert texts(legal_plays(["3C", "2D"], ["AH"], "H", rules)) == ["3C", "2D"]
        assert texts(legal_plays(["4H", "3C"], ["AH"], "H", rules)) == ["4H"]


def test_another_trump_led_is_unchanged():
    assert texts(legal_plays(["7H", "3C"], ["4S"], "S", CLASSIC_LEAD)) == ["7H", "3C"]


# --- ace_of_hearts_lead: whole records (the fast path) -----------------------------------------

# Spades trumps; seat 1 leads AH; seat 2 holds no trump but 7H and plays 3C.
AH_LEAD_HAND = {
    "dealer": 0,
    "turn_up": "2S",
    "deal": [
        ["8H", "9C", "10C", "2D", "3D"],
        ["AH", "KD", "QD", "JD", "10D"],
        ["7H", "3C", "4C", "5C", "6C"],
    ],
    "tricks": [
        ["AH", "3C", "8H"],
        ["KD", "7H", "2D"],
        ["QD", "4C", "3D"],
        ["JD", "5C", "9C"],
        ["10D", "6C", "10C"],
    ],
}


def test_record_trump_lead_accepts_the_club():
    result, _ = new_game("45", 3, rules=PLAIN_LEAD).record(AH_LEAD_HAND)
    assert result.trick_winners == (1, 1, 1, 1, 1)
    assert result.points == (0, 30, 0)


@pytest.mark.parametrize("with_deal", [True, False])
def test_record_trump_then_hearts_refuses_the_club(with_deal):
    hand = (
        dict(AH_LEAD_HAND)
        if with_deal
        else {key: value for key, value in AH_LEAD_HAND.items() if key != "deal"}
    )
    with pytest.raises(RulesError) as caught:
        new_game("45", 3, rules=CLASSIC_LEAD).record(hand)
    assert caught.value.code == "illegal_play"
    assert caught.value.pointer == "/tricks/0/1"
    assert caught.value.detail == (
        "seat 2 played 3C to trick 1, but AH was led (ace_of_hearts_lead is trump_then_hearts), "
        "the hand held no trump it had to play, and it held 7H: play a heart or a trump"
    )


def test_record_trump_then_hearts_accepts_the_heart():
    hand = dict(
        AH_LEAD_HAND,
        tricks=[
            ["AH", "7H", "8H"],
            ["KD", "3C", "2D"],
            ["QD", "4C", "3D"],
            ["JD", "5C", "9C"],
            ["10D", "6C", "10C"],
        ],
    )
    result, _ = new_game("45", 3, rules=CLASSIC_LEAD).record(hand)
    assert result.points == (0, 30, 0)


# --- rob_discard ---------------------------------------------------------------------------------

# Spades trumps (2S turned up); seat 1 was dealt the ace of trumps and robs.
ROB_HAND = {
    "dealer": 0,
    "turn_up": "2S",
    "deal": [
        ["8H", "9C", "10C", "2D", "3D"],
        ["AS", "KD", "QD", "JD", "10D"],
        ["7H", "3C", "4C", "5C", "6C"],
    ],
    "rob": {"seat": 1, "discard": "AS"},
    "tricks": [
        ["KD", "7H", "2D"],
        ["QD", "3C", "3D"],
        ["JD", "4C", "8H"],
        ["10D", "5C", "9C"],
        ["2S", "6C", "10C"],
    ],
}


def test_rob_any_card_may_discard_the_ace():
    result, _ = new_game("45", 3).record(ROB_HAND)
    assert result.rob_seat == 1
    assert result.points == (0, 30, 0)


def test_rob_not_the_ace_refuses_discarding_the_ace():
    rules = HouseRules.for_game("45", rob_discard="not_the_ace")
    with pytest.raises(RulesError) as caught:
        new_game("45", 3, rules=rules).record(ROB_HAND)
    assert (caught.value.code, caught.value.pointer) == ("illegal_rob", "/rob/discard")
    assert caught.value.detail == (
        "seat 1 robbed with the ace of trumps (AS) and discarded it, but with rob_discard "
        "not_the_ace the robber discards one of its other cards"
    )


def test_rob_not_the_ace_keeps_the_ace_and_discards_another_card():
    rules = HouseRules.for_game("45", rob_discard="not_the_ace")
    hand = dict(
        ROB_HAND,
        rob={"seat": 1, "discard": "10D"},
        tricks=[
            ["KD", "7H", "2D"],
            ["QD", "3C", "3D"],
            ["JD", "4C", "8H"],
            ["AS", "5C", "9C"],
            ["2S", "6C", "10C"],
        ],
    )
    result, _ = new_game("45", 3, rules=rules).record(hand)
    assert result.rob_seat == 1
    assert result.best_trump.card.rank == "A"


def test_rob_not_the_ace_in_a_trick_winner_entry():
    rules = HouseRules.for_game("25", rob_discard="not_the_ace")
    entry = {
        "dealer": 0,
        "turn_up": "2S",
        "trick_winners": [1, 1, 1, 1, 1],
        "rob": {"seat": 1, "discard": "AS"},
    }
    with pytest.raises(RulesError) as caught:
        new_game("25", 3, rules=rules).record(entry)
    assert (caught.value.code, caught.value.pointer) == ("illegal_rob", "/rob/discard")
    assert new_game("25", 3).record(entry)[0].rob_seat == 1


def test_dealer_robbing_a_turned_up_ace_discards_anything_under_not_the_ace():
    rules = HouseRules.for_game("45", rob_discard="not_the_ace")
    hand = {
        "dealer": 0,
        "turn_up": "AS",
        "deal": [
            ["8H", "9C", "10C", "2D", "3D"],
            ["KS", "KD", "QD", "JD", "10D"],
            ["7H", "3C", "4C", "5C", "6C"],
        ],
        "rob": {"seat": 0, "discard": "3D"},
        "tricks": [
            ["KD", "7H", "2D"],
            ["QD", "3C", "AS"],
            ["8H", "KS", "4C"],
            ["JD", "5C", "9C"],
            ["10D", "6C", "10C"],
        ],
    }
    result, _ = new_game("45", 3, rules=rules).record(hand)
    assert result.rob_seat == 0
    assert result.trick_winners == (1, 0, 1, 1, 1)


# --- validation, serialisation, the preset --------------------------------------------------------


def test_new_keys_are_validated_with_the_existing_error_code():
    with pytest.raises(RulesError) as caught:
        HouseRules.for_game("45", ace_of_hearts_lead="hearts", rob_discard=True)
    assert [(error.code, error.pointer, error.detail) for error in caught.value.errors] == [
        (
            "invalid_house_rule",
            "/ace_of_hearts_lead",
            'ace_of_hearts_lead: got "hearts"; allowed: one of trump_lead, trump_then_hearts',
        ),
        (
            "invalid_house_rule",
            "/rob_discard",
            "rob_discard: got true; allowed: one of any_card, not_the_ace",
        ),
    ]


def test_rob_discard_does_not_apply_to_bidding_games():
    with pytest.raises(RulesError) as caught:
        HouseRules.for_game("110", rob_discard="not_the_ace")
    assert caught.value.detail == "rob_discard: does not apply to game 110; leave it out"
    assert (
        HouseRules.for_game("110", ace_of_hearts_lead="trump_then_hearts").ace_of_hearts_lead
        == "trump_then_hearts"
    )


def test_defaults_and_to_dict():
    rules = HouseRules.for_game("45")
    assert (rules.ace_of_hearts_lead, rules.rob_discard) == ("trump_lead", "any_card")
    assert HouseRules.for_game("110").rob_discard is None
    assert "ace_of_hearts_lead" not in rules.to_dict()
    changed = rules.replace(rob_discard="not_the_ace").to_dict()
    assert changed["rob_discard"] == "not_the_ace"
    assert HouseRules.from_dict(changed) == rules.replace(rob_discard="not_the_ace")
    assert ALL_KEYS.index("ace_of_hearts_lead") == ALL_KEYS.index("dealer_robs_ace") + 1


def test_classic_45_preset():
    classic = preset("classic_45")
    assert PRESETS["classic_45"] is classic
    assert (classic.game, classic.seat_count) == ("45", 3)
    rules = classic.rules()
    assert rules == HouseRules.for_game(
        "45", ace_of_hearts_lead="trump_then_hearts", rob_discard="not_the_ace"
    )
    assert (rules.target, rules.best_trump_bonus, rules.dealer_robs_ace) == (45, 5, "must")
    with pytest.raises(RulesError) as caught:
        preset("classic_25")
    assert (caught.value.code, caught.value.pointer) == ("invalid_house_rule", "/preset")

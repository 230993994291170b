"""Computer players: what they may see, the hand they play move by move, and a club player's
obvious moves in hand-built positions."""

import dataclasses
import random

import pytest

from computer_players import ClubPlayer, EasyPlayer, HandInProgress, MoveError, SeatView, play_hand
from computer_players.driver import move_computer, shuffled_deck
from rules_engine import FULL_PACK, HouseRules, new_game, parse_card
from rules_engine.presets import preset

CLASSIC = preset("classic_45").rules()


def cards(text):
    return [parse_card(card) for card in text.split()]


def deck_with(hands_text, rest_first=""):
    """A deck dealing ``hands_text`` (seat dealer+1 first, each five cards, "|" between seats),
    then ``rest_first`` (turn-up or kitty), then the other cards."""
    chosen = [card for part in hands_text.split("|") for card in cards(part)]
    chosen += cards(rest_first)
    return chosen + [card for card in FULL_PACK if card not in chosen]


def hand_of(game_rules, deck, dealer=0, seats=3, totals=None):
    return HandInProgress(
        rules=game_rules,
        seat_count=seats,
        dealer=dealer,
        deck=deck,
        totals=totals or (0,) * seats,
        side_of_seat=tuple(range(seats)),
    )


# --- what a seat sees -----------------------------------------------------------------------------

VIEW_FIELDS = {
    "seat",
    "seat_count",
    "side_of_seat",
    "rules",
    "dealer",
    "phase",
    "hand",
    "turn_up",
    "trump",
    "robbed_by",
    "calls",
    "bid",
    "tricks",
    "trick_leader",
    "trick",
    "totals",
    "legal_cards",
    "legal_calls",
    "rob_discards",
    "must_rob",
}


def test_the_view_has_no_field_for_hidden_cards():
    assert {field.name for field in dataclasses.fields(SeatView)} == VIEW_FIELDS
    card_fields = {
        field.name for field in dataclasses.fields(SeatView) if "Card" in str(field.type)
    }
    # The only cards: the seat's own hand and moves, the turn-up; the rest is played cards.
    assert card_fields == {"hand", "turn_up", "trick", "legal_cards", "rob_discards"}


@pytest.mark.parametrize("game", ["45", "110"])
def test_every_view_holds_only_the_seats_cards_and_public_ones(game):
    rng = random.Random(7)
    rules = CLASSIC if game == "45" else HouseRules.for_game("110")
    players = [ClubPlayer(1), EasyPlayer(2), ClubPlayer(3)]
    checked = 0
    for _ in range(20):
        hand = hand_of(rules, shuffled_deck(rng), dealer=rng.randrange(3))
        while not hand.over:
            for seat in range(3):
                view = hand.view(seat)
                public = {card for trick in hand.tricks for card in trick.cards}
                public |= set(hand.trick) | ({hand.turn_up} if hand.turn_up else set())
                seen = set(view.hand) | set(view.legal_cards) | set(view.rob_discards)
                seen |= set(view.played_cards()) | ({view.turn_up} if view.turn_up else set())
                assert seen <= set(hand.hands[seat]) | public
                for other in range(3):
                    if other != seat:
                        # The turn-up was seen by all, even once robbed.
                        assert not set(hand.hands[other]) & seen - {hand.turn_up}
                assert set(hand.kitty).isdisjoint(seen) or hand.bid is not None
                checked += 1
            phase, seat = hand.turn()
            move_computer(hand, players[seat], phase, seat)
    assert checked > 300


# --- the hand, move by move ---------------------------------------------------------------


def test_a_move_out_of_turn_or_illegal_is_refused_with_the_engines_reason():
    # Dealer 0; seat 1 gets the first five. Spades trumps (4S turned up), nobody holds AS.
    deck = deck_with("KD 2D 3C 4C 5C | 7D 8H 9H 10H JH | AD 2C 6C 7C 8C", "4S")
    hand = hand_of(HouseRules.for_game("45"), deck)
    assert hand.turn() == ("play", 1)
    with pytest.raises(MoveError) as caught:
        hand.play(2, parse_card("7D"))
    assert caught.value.reason == "it is seat 1's turn to play"
    hand.play(1, parse_card("KD"))
    with pytest.raises(MoveError) as caught:
        hand.play(2, parse_card("8H"))
    assert caught.value.reason == ("diamonds were led and the hand held 7D: follow suit or trump")
    assert hand.legal_cards(2) == (parse_card("7D"),)


def test_a_played_hand_replays_from_its_moves_and_the_engine_accepts_its_record():
    rng = random.Random(3)
    deck = shuffled_deck(rng)
    hand = play_hand(hand_of(CLASSIC, deck), [ClubPlayer(1), EasyPlayer(2), ClubPlayer(3)])
    again = HandInProgress.replay(
        hand.moves,
        rules=CLASSIC,
        seat_count=3,
        dealer=0,
        deck=deck,
        totals=(0, 0, 0),
        side_of_seat=(0, 1, 2),
    )
    assert again.record() == hand.record()
    result, _ = new_game("45", 3, rules=CLASSIC).record(hand.record())
    assert sum(result.points) in (25, 30)


def test_the_dealer_must_rob_a_turned_up_ace_and_keeps_the_rule_of_the_discard():
    deck = deck_with("KD 2D 3C 4C 5C | 7D 8H 9H 10H JH | AD 2C 6C 7C 8C", "AS")
    hand = hand_of(CLASSIC, deck)
    assert hand.turn() == ("rob", 0) and hand.must_rob()
    with pytest.raises(MoveError) as caught:
        hand.take_rob(0, None)
    assert caught.value.reason == (
        "the turn-up is AS: the dealer must rob it (dealer_robs_ace is must)"
    )
    deck = deck_with("KD 2D 3C 4C 5C | AS 8H 9H 10H JH | AD 2C 6C 7C 8C", "4S")
    hand = hand_of(CLASSIC, deck)
    assert hand.turn() == ("rob", 2)
    assert parse_card("AS") not in hand.rob_discards()
    with pytest.raises(MoveError):
        hand.take_rob(2, parse_card("AS"))


# --- a club player's obvious moves --------------------------------------------------------


def play_cards(hand, *texts):
    for text in texts:
        seat = hand.turn()[1]
        hand.play(seat, parse_card(text))


def test_club_trumps_cheaply_and_keeps_the_five():
    # Spades trumps (4S turned up). Seat 1 leads KD, seat 2 follows 9D; seat 0 holds QD 3D 2S 5S.
    deck = deck_with("KD 2C 3C 6C 7C | 9D 8H 9H 10H JH | QD 3D 2S 5S 8C", "4S")
    hand = hand_of(HouseRules.for_game("45"), deck)
    play_cards(hand, "KD", "9D")
    assert str(ClubPlayer(0).choose_card(hand.view(0))) == "2S"


def test_club_throws_its_cheapest_card_when_it_cannot_win():
    deck = deck_with("KD 2C 3C 6C 7C | 5S 8H 9H 10H JH | QD 3D 7D 9C 8C", "4S")
    hand = hand_of(HouseRules.for_game("45"), deck)
    play_cards(hand, "KD", "5S")
    assert str(ClubPlayer(0).choose_card(hand.view(0))) == "3D"


def test_club_leads_the_best_trump_still_out():
    deck = deck_with("5S 2C 3C 6C KD | 9D 8H 9H 10H JH | QD 3D 7D 9C 8C", "4S")
    hand = hand_of(HouseRules.for_game("45"), deck)
    assert str(ClubPlayer(0).choose_card(hand.view(1))) == "5S"


def test_club_robs_discarding_its_cheapest_plain_card():
    deck = deck_with("AS KD 2C 10C 8H | 9D 7H 9H 10H JH | QD 3D 7D 9C 8C", "4S")
    hand = hand_of(CLASSIC, deck)
    assert hand.turn() == ("rob", 1)
    # 10C is the lowest club ("lowest in black").
    assert str(ClubPlayer(0).choose_rob(hand.view(1))) == "10C"


def test_club_bids_its_sure_tricks_and_passes_a_weak_hand():
    rules = HouseRules.for_game("110")
    deck = deck_with("5S JS AH AS KS | 2C 3D 4H 6D 7C | 9D 8H 9H 10H JH")
    hand = hand_of(rules, deck)
    assert hand.turn() == ("bid", 1)
    assert ClubPlayer(0).choose_call(hand.view(1)) == 60
    hand.call(1, "pass")
    assert ClubPlayer(0).choose_call(hand.view(2)) == "pass"


def test_club_dealer_holds_when_it_pays():
    rules = HouseRules.for_game("110")
    deck = deck_with("2C 3D 4H 6D 7C | 9D 8H 9H 10H JH | 5S JS AS KS QS")
    hand = hand_of(rules, deck)
    hand.call(1, 20)
    hand.call(2, "pass")
    assert hand.turn() == ("bid", 0)
    assert ClubPlayer(0).choose_call(hand.view(0)) == "hold"
